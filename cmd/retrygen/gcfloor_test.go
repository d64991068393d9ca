package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGCFloorPercent: the GOGC the floor chooses makes the heap goal the
// larger of heapFloor (20 MiB) and what the phase's GOGC gives.
func TestGCFloorPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		percent int
		live    uint64
		want    int
	}{
		{100, 0, 500},        // before any collection: goal = 4 MiB × 500/100 = 20 MiB
		{100, 1 * mib, 500},  // capped: 1 MiB × 20 would pass the floor's minimum
		{100, 5 * mib, 300},  // 5 MiB × (1 + 300/100) = 20 MiB
		{50, 8 * mib, 150},   // 8 MiB × 2.5 = 20 MiB
		{50, 14 * mib, 50},   // 14 MiB × 1.5 = 21 MiB: the phase's own
		{100, 9 * mib, 122},  // 9 MiB × 2.22 ≈ 20 MiB
		{100, 10 * mib, 100}, // 10 MiB × 2 = 20 MiB
		{100, 200 * mib, 100},
	} {
		g := &gcFloor{percent: c.percent}
		require.Equal(t, c.want, g.gogc(c.live), "percent %d, live %d", c.percent, c.live)
	}
}

// TestGCFloorLeavesGOGCEnvironment: with GOGC set there is no floor, and
// its methods do nothing.
func TestGCFloorLeavesGOGCEnvironment(t *testing.T) {
	g := newGCFloor(loadingGCPercent, "80")
	require.Nil(t, g)
	g.phase(100)
	g.stop()
}

// TestGCFloorCollectsOnceOnASmallSpec runs `retrygen generate` on SQS with
// its overlay in a new process with GODEBUG=gctrace=1: with the floor,
// the collections hugePages and loadLean force are the only ones in a
// normal build (19
// without the floor: 1–3 MiB live, goals of 2–7 MiB), and no collection
// starts under a 20 MiB goal (with -race, rendering allocates enough for a
// few); with GOGC=100 in the environment the runtime's own 4 MiB floor
// runs more than ten, their goals under 20 MiB.
func TestGCFloorCollectsOnceOnASmallSpec(t *testing.T) {
	if os.Getenv("RETRYGEN_TEST_MAIN") == "1" {
		return
	}
	exe, err := os.Executable()
	require.NoError(t, err)
	// goals returns the heap goal (MB) of each collection, and whether it
	// was forced.
	type gc struct {
		goalMB int
		forced bool
	}
	goals := func(gogc string) []gc {
		out := filepath.Join(t.TempDir(), "sqs")
		cmd := exec.Command(exe, "-test.run=^TestGCFloorMain$", "--",
			"generate", "-spec", "../../specs/aws-sqs-2012-11-05.openapi.yaml", "-overlay", "../../specs/sqs.overlay.yaml", "-out", out, "-package", "sqs")
		cmd.Env = append(os.Environ(), "RETRYGEN_TEST_MAIN=1", "GODEBUG=gctrace=1", "GOGC="+gogc)
		// Only the runtime's trace on standard error: the test binary's
		// own output on standard out, written while a collection prints
		// its line in pieces, split a trace line in CI ("gc " alone).
		var trace strings.Builder
		cmd.Stdout, cmd.Stderr = io.Discard, &trace
		err := cmd.Run()
		stderr := trace.String()
		require.NoError(t, err, "%s", stderr)
		var gcs []gc
		for _, l := range strings.Split(stderr, "\n") {
			if !strings.HasPrefix(l, "gc ") {
				continue
			}
			m := goalRE.FindStringSubmatch(l)
			if m == nil {
				// A trace line cut short ("gc " alone, seen once in CI):
				// counted, with no goal to check.
				t.Logf("gctrace line without a goal: %q", l)
				gcs = append(gcs, gc{-1, false})
				continue
			}
			n, _ := strconv.Atoi(m[1])
			gcs = append(gcs, gc{n, strings.HasSuffix(l, "(forced)")})
		}
		return gcs
	}
	floored := goals("")
	require.NotEmpty(t, floored)
	for _, c := range floored {
		if !c.forced && c.goalMB >= 0 {
			require.GreaterOrEqual(t, c.goalMB, heapFloor>>20, "%v", floored)
		}
	}
	if !raceEnabled && !slices.Contains(floored, gc{-1, false}) {
		// hugePages's collection (its goal is off while it runs), then
		// loadLean's.
		require.Len(t, floored, 2, "%v", floored)
		require.True(t, floored[0].forced, "%v", floored)
		require.Equal(t, gc{heapFloor >> 20, true}, floored[1])
	}
	unfloored := goals("100")
	// Without the floor the same run collects several times (15–19 at
	// the floor's introduction; fewer as generating allocates less).
	require.Greater(t, len(unfloored), len(floored)+2, "%v", unfloored)
	require.Less(t, unfloored[0].goalMB, heapFloor>>20)
}

// goalRE finds a gctrace line's heap goal: "…, 20 MB goal, …".
var goalRE = regexp.MustCompile(`, (\d+) MB goal,`)

// TestGCFloorMain is the process TestGCFloorCollectsOnceOnASmallSpec
// starts: run with the arguments after "--", its diagnostics dropped (the
// runtime's trace is the process's standard error).
func TestGCFloorMain(t *testing.T) {
	if os.Getenv("RETRYGEN_TEST_MAIN") != "1" {
		t.Skip("the process TestGCFloorCollectsOnceOnASmallSpec starts")
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(run(args, io.Discard, io.Discard))
}
