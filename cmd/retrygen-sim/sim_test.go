package main

import (
	"bytes"
	"flag"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime"
)

var update = flag.Bool("update", false, "rewrite testdata/*.report.md")

// runScenario simulates every mode of a test scenario with per-process
// windows, keyed by mode.
func runScenario(t *testing.T, path string) (*Scenario, map[string]*runStats) {
	t.Helper()
	sc, err := LoadScenario(path)
	require.NoError(t, err)
	runs := map[string]*runStats{}
	for _, mode := range sc.Modes {
		r, err := simulate(sc, mode, sharingPerProcess, sc.Seed, groupService, nil)
		require.NoError(t, err, mode)
		runs[mode] = r
	}
	return sc, runs
}

// Issue 13 item 5 and issue 22 item 3 in the simulator, on 100 clients
// calling as one Alibaba user at 1.1 times its limit. Sharing one window
// store means one throttled response stops every client until the window
// ends: fewer calls fail. The calls a window holds back are released spread
// over the first half of the next window and paced by its Limit
// (retry-behavior.md §8a), so a shared window no longer lines the whole
// fleet up on one instant: at most 10 % of responses are throttled, fewer
// than with per-process windows (before the spread: 55.9 % against 49.2 %).
func TestFleetSharedWindows(t *testing.T) {
	sc, err := LoadScenario("testdata/fleet-small.yaml")
	require.NoError(t, err)
	stats := func(sharing string) *phaseStats {
		r, err := simulate(sc, "standard", sharing, sc.Seed, groupService, nil)
		require.NoError(t, err)
		return &r.phases[0]
	}
	per, shared := stats(sharingPerProcess), stats(sharingShared)
	errRate := func(p *phaseStats) float64 { return float64(p.failed) / float64(p.succeeded+p.failed) }
	throttled := func(p *phaseStats) float64 { return float64(p.throttled) / float64(p.responses) }
	require.Less(t, errRate(shared), errRate(per), "shared windows: fewer calls fail")
	t.Logf("throttled: per-process %.2f %%, shared %.2f %%", 100*throttled(per), 100*throttled(shared))
	r, err := simulate(sc, "standard", sharingShared, sc.Seed, groupService, nil)
	require.NoError(t, err)
	atStart := float64(r.atBoundary) / float64(r.userRequests)
	t.Logf("shared: %.1f %% of %d requests in the first 50 ms of a window", 100*atStart, r.userRequests)
	require.LessOrEqual(t, atStart, 0.15, "released over the window, not at its start (uniform: 5 %%)")
	require.Less(t, throttled(shared), throttled(per), "shared windows: fewer throttled responses")
	require.LessOrEqual(t, throttled(shared), 0.10)
	require.Equal(t, per.succeeded, shared.succeeded, "the user limit caps goodput either way: 100 per window")
}

// phase returns the stats of the named phase.
func phase(t *testing.T, sc *Scenario, r *runStats, name string) *phaseStats {
	t.Helper()
	for i, p := range sc.Phases {
		if p.Name == name {
			return &r.phases[i]
		}
	}
	t.Fatalf("no phase %q", name)
	return nil
}

// Issue 12, "What must be shown" 1, on 100 clients: once the retry quota has
// drained, standard mode sends at most 1.1 requests per call; legacy mode
// sends exactly its max attempts (5, botocore's legacy table) for every call.
func TestOutageAmplification(t *testing.T) {
	sc, runs := runScenario(t, "testdata/outage-small.yaml")

	std := phase(t, sc, runs["standard"], "outage")
	require.GreaterOrEqual(t, std.drainedAt, std.start, "standard: the quota drains")
	// A failing call pays two transient retries (max attempts 3), 28
	// tokens: 500 tokens last about 18 calls, so about 18 s at one call a
	// second; the last of 100 Poisson clients drains 28 s in (seed 7).
	require.Equal(t, 28.0, (std.drainedAt - std.start).Seconds())
	require.Positive(t, std.drainedStarted)
	after := float64(std.drainedAttempt) / float64(std.drainedStarted)
	require.LessOrEqual(t, after, 1.1, "standard: requests per call after the quota drained")
	require.Equal(t, 1.0, after, "no retry is paid with an empty quota and no success to refill it")

	leg := phase(t, sc, runs["legacy"], "outage")
	require.Equal(t, time.Duration(-1), leg.drainedAt, "legacy has no quota")
	require.Equal(t, leg.started, leg.startedEnded)
	require.Equal(t, 5*leg.started, leg.startedAttempts, "legacy: every call makes its 5 attempts")

	ali := phase(t, sc, runs["aliyun"], "outage")
	require.Equal(t, 4*ali.started, ali.startedAttempts, "aliyun: max retries 3, every call makes 4 attempts")

	none := phase(t, sc, runs[modeNone], "outage")
	require.Equal(t, none.started, none.startedAttempts, "no retry: one attempt per call")
	require.Equal(t, none.started, none.serverReq, "no retry: the server sees each call once")
}

// Issue 12, "What must be shown" 1, hot key: adaptive mode's send rate settles
// within 10 % of the key's capacity with at most 5 % throttled responses
// after convergence; standard and legacy keep being throttled.
func TestHotKeyAdaptive(t *testing.T) {
	sc, runs := runScenario(t, "testdata/hot-key-small.yaml")
	secs := sc.Phases[1].DurationS
	load := func(mode string) float64 {
		return float64(phase(t, sc, runs[mode], "steady").serverReq) / secs / sc.Server.Capacity
	}
	throttled := func(mode string) float64 {
		p := phase(t, sc, runs[mode], "steady")
		return float64(p.throttled) / float64(p.responses)
	}
	require.InDelta(t, 1.0, load("adaptive"), 0.10, "adaptive send rate ÷ capacity")
	require.LessOrEqual(t, throttled("adaptive"), 0.05, "adaptive throttled fraction")
	require.Greater(t, throttled("standard"), 0.20, "standard keeps being throttled")
	require.Greater(t, throttled("legacy"), throttled("standard"), "legacy retries more than standard")
	require.Greater(t, load("legacy"), 2.0, "legacy sends more than twice the capacity")
}

// The full report of a small scenario that uses every phase kind, both
// client kinds, x-amz-retry-after and Alibaba throttle windows, compared with
// a golden file (go test ./cmd/retrygen-sim -update rewrites it).
func TestGoldenReport(t *testing.T) {
	sc, err := LoadScenario("testdata/small.yaml")
	require.NoError(t, err)
	files, err := simulateAll(sc, 0, nil)
	require.NoError(t, err)
	golden := "testdata/small.report.md"
	if *update {
		require.NoError(t, os.WriteFile(golden, files["report.md"], 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	require.Equal(t, string(want), string(files["report.md"]))
}

// The same seed gives the same files byte for byte; another seed does not.
func TestSameSeedSameReport(t *testing.T) {
	sc, err := LoadScenario("testdata/small.yaml")
	require.NoError(t, err)
	a, err := simulateAll(sc, 11, nil)
	require.NoError(t, err)
	b, err := simulateAll(sc, 11, nil)
	require.NoError(t, err)
	require.Equal(t, []string{"goodput.png", goodputPlot, "report.md", "retry-quota.png", quotaPlot, "server-load.png", serverLoadPlot}, sortedKeys(a))
	for name := range a {
		require.True(t, bytes.Equal(a[name], b[name]), "%s differs between two runs with seed 11", name)
	}
	c, err := simulateAll(sc, 12, nil)
	require.NoError(t, err)
	require.NotEqual(t, string(a["report.md"]), string(c["report.md"]), "seed 12 gives another report")
	require.Contains(t, string(a["report.md"]), "Seed 11.")
}

func sortedKeys(m map[string][]byte) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

// Issue 13 item 5 in the simulator: under a total outage the fleet's retries
// stay within the fleet retry budget (1,000 tokens pay 71 transient retries
// of 14), not 100 × each client's quota.
func TestFleetRetryBudget(t *testing.T) {
	sc, err := LoadScenario("testdata/fleet-outage-small.yaml")
	require.NoError(t, err)
	retries := func(sharing string) int64 {
		r, err := simulate(sc, "standard", sharing, sc.Seed, groupService, nil)
		require.NoError(t, err)
		p := &r.phases[1]
		return p.startedRetries
	}
	per, shared := retries(sharingPerProcess), retries(sharingShared)
	require.LessOrEqual(t, shared, int64(1000/14), "the fleet budget pays at most 71 retries")
	require.Positive(t, shared)
	// Each client's 500 tokens pay 35 retries: 3,500 fleet-wide, less what
	// the calls started in the healthy phase spent.
	require.Greater(t, per, int64(3000))
	require.Greater(t, per, 40*shared)
}

// Invalid scenarios are refused with the file, the line and the field.
func TestScenarioErrors(t *testing.T) {
	valid := `name: x
clients:
  - {count: 1, rate: 1}
server: {capacity: 10}
phases:
  - {kind: healthy, durationS: 1}
`
	tests := []struct {
		name, yaml, want string
	}{
		{"unknown field", strings.Replace(valid, "rate: 1", "rte: 1", 1), `s.yaml:3: clients[0]: unknown field "rte" (allowed: name, count, rate, closedLoop, maxAttempts, timeoutMs, user, spec, overlays, fleetRetryBudget, streaming)`},
		{"unknown field on its own line", strings.Replace(valid, "  - {count: 1, rate: 1}\n", "  - count: 1\n    rate: 1\n    typo: 2\n", 1), `s.yaml:5: clients[0]: unknown field "typo" (allowed: name, count,`},
		{"unknown top-level field", valid + "sed: 1\n", `s.yaml:7: unknown field "sed" (allowed: name, description, seed, bucketMs, modes, sharing, clients, server, phases)`},
		{"unknown nested field", strings.Replace(valid, "capacity: 10", "capacity: 10, userLimit: {limit: 1, window: 5}", 1), `s.yaml:4: server.userLimit: unknown field "window" (allowed: limit, windowMs, dimension, code)`},
		{"unknown phase field", strings.Replace(valid, "durationS: 1", "durationS: 1, load: 2, laod: 3", 1), `s.yaml:6: phases[0]: unknown field "laod"`},
		{"missing spec", strings.Replace(valid, "rate: 1", "rate: 1, spec: nope.yaml", 1), "s.yaml:3: clients[0].spec: stat nope.yaml: no such file or directory"},
		{"missing overlay", strings.Replace(valid, "rate: 1", "rate: 1, spec: ../../specs/aws-dynamodb-2012-08-10.openapi.yaml, overlays: [../../specs/dynamodb.overlay.yaml, none.yaml]", 1), "s.yaml:3: clients[0].overlays[1]: stat none.yaml: no such file or directory"},
		{"zero clients", strings.Replace(valid, "count: 1", "count: 0", 1), "s.yaml:3: clients[0].count: must be an integer between 1 and 100000, got 0"},
		{"no rate", strings.Replace(valid, ", rate: 1", "", 1), "s.yaml:3: clients[0].rate: must be a call rate in calls/s in (0, 100000], or give closedLoop"},
		{"rate and closed loop", strings.Replace(valid, "rate: 1", "rate: 1, closedLoop: {concurrency: 1}", 1), "s.yaml:3: clients[0].rate: give rate (open loop) or closedLoop, not both"},
		{"bad mode", "modes: [standard, fast]\n" + valid, "s.yaml:1: modes[1]: must be one of legacy, standard, adaptive, aliyun, none, got \"fast\""},
		{"negative capacity", strings.Replace(valid, "capacity: 10", "capacity: -1", 1), "s.yaml:4: server.capacity: must be requests/s in (0, 1e7], got -1"},
		{"bad failure", strings.Replace(valid, "kind: healthy, durationS: 1", "kind: outage, durationS: 1, failure: 502", 1), "s.yaml:6: phases[0].failure: must be 503 or an error code such as ThrottlingException, got \"502\""},
		{"bad code", strings.Replace(valid, "capacity: 10", "capacity: 10, userLimit: {limit: 1, windowMs: 1000, code: \"a b\"}", 1), "s.yaml:4: server.userLimit.code: must be an error code such as Throttling.User, got \"a b\""},
		{"partial without percent", strings.Replace(valid, "kind: healthy", "kind: partial", 1), "s.yaml:6: phases[0].failPercent: a partial failure needs a percentage in (0, 100), got 0"},
		{"unknown kind", strings.Replace(valid, "kind: healthy", "kind: sunny", 1), "s.yaml:6: phases[0].kind: must be one of healthy, outage, partial, overload, recovery, got \"sunny\""},
		{"too long", strings.Replace(valid, "durationS: 1", "durationS: 1e9", 1), "s.yaml:6: phases: at most 86400 s in all, got 1e+09"},
		{"no name", strings.Replace(valid, "name: x\n", "", 1), "s.yaml:1: name: required"},
		{"not a mapping", "- 1\n", "s.yaml: want a mapping (name, clients, server, phases)"},
		{"bad window", strings.Replace(valid, "capacity: 10", "capacity: 10, userLimit: {limit: 1, windowMs: 1000, dimension: api}", 1), "s.yaml:4: server.userLimit.dimension: must be user or api_user, got \"api\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseScenario("s.yaml", []byte(tt.yaml))
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.want)
		})
	}
	_, err := parseScenario("s.yaml", []byte(valid))
	require.NoError(t, err)
}

// Every shipped scenario is valid.
func TestShippedScenarios(t *testing.T) {
	files, err := filepath.Glob("../../specs/scenarios/*.yaml")
	require.NoError(t, err)
	require.Len(t, files, 9)
	for _, f := range files {
		sc, err := LoadScenario(f)
		require.NoError(t, err, f)
		require.Equal(t, allModes, sc.Modes, "%s runs every mode", f)
	}
}

// The command writes the report and the plots, and refuses bad usage.
// The command sets a soft memory limit of 900 MiB unless GOMEMLIMIT is
// set (then the user's stands; an empty one counts as unset).
func TestMemoryLimit(t *testing.T) {
	env := map[string]string{}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	limit, ok := memoryLimit(lookup)
	require.True(t, ok)
	require.Equal(t, int64(900<<20), limit)
	env["GOMEMLIMIT"] = ""
	_, ok = memoryLimit(lookup)
	require.True(t, ok)
	env["GOMEMLIMIT"] = "2GiB"
	_, ok = memoryLimit(lookup)
	require.False(t, ok)
}

func TestCommand(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, realMain([]string{"-scenario", "testdata/small.yaml", "-out", dir, "-seed", "3"}, &stdout, &stderr), stderr.String())
	require.Regexp(t, `^(retrygen-sim: [0-9]+% simulated \([0-5]/5 runs done\) in [0-9.]+m?s\n){1,12}$`, stderr.String(), "progress lines, no bar, when stderr is not a terminal")
	require.Contains(t, stderr.String(), "retrygen-sim: 100% simulated (5/5 runs done)")
	require.Regexp(t, `^wrote .*report\.md: 5 runs, 45s simulated each, [0-9]+ events in [0-9.]+m?s\n$`, stdout.String(), "one summary line")
	for _, name := range []string{"report.md", serverLoadPlot, goodputPlot, quotaPlot} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		require.NotEmpty(t, data)
	}
	for _, name := range []string{serverLoadPlot, goodputPlot, quotaPlot} {
		svg, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		for _, phase := range []string{">healthy<", ">outage<", ">brownout<", ">overload<", ">recovery<", ">standard<"} {
			require.Contains(t, string(svg), phase, "%s names every phase and mode", name)
		}
		png, err := os.Open(filepath.Join(dir, strings.TrimSuffix(name, ".svg")+".png"))
		require.NoError(t, err, "a PNG beside %s", name)
		cfg, _, err := image.DecodeConfig(png)
		require.NoError(t, err)
		require.NoError(t, png.Close())
		require.Greater(t, cfg.Width, 9*96, "the legend's column widens the 9-inch data area")
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 7, "no temporary files left")
	for _, e := range entries {
		info, err := e.Info()
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o644), info.Mode().Perm(), e.Name())
	}

	stderr.Reset()
	require.Equal(t, 2, realMain([]string{"-out", dir}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "-scenario and -out are required")
	stderr.Reset()
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("name: x\n"), 0o644))
	require.Equal(t, 2, realMain([]string{"-scenario", bad, "-out", dir}, &stdout, &stderr))
	require.Contains(t, stderr.String(), "bad.yaml:1: clients: at least one client group is required")
}

// The progress bar redraws one line per percent and clears it at the end.
func TestProgressBar(t *testing.T) {
	var b bytes.Buffer
	p := newProgressBar(&b)
	p(1, 5, 150*time.Second, 300*time.Second)
	p(1, 5, 150*time.Second+time.Millisecond, 300*time.Second) // same percent: no redraw
	require.Equal(t, "\rsimulating (1/5 runs done) [###############...............]  50%", b.String())
	b.Reset()
	p(-1, 5, 0, 0)
	require.Equal(t, "\r"+strings.Repeat(" ", 80)+"\r", b.String())
}

// Without a terminal, progress is a line at each tenth of the simulated
// time and at least every progressEvery of wall time, never more.
func TestProgressLines(t *testing.T) {
	var b bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start
	p := newProgressLines(&b, start, func() time.Time { return now })
	total := 1000 * time.Second
	for d := time.Second; d <= total; d += time.Second { // a sample every simulated second
		now = now.Add(10 * time.Millisecond)
		p(0, 2, d, total)
	}
	require.Equal(t, 9, strings.Count(b.String(), "\n"), "one line per tenth: %q", b.String())
	require.True(t, strings.HasPrefix(b.String(), "retrygen-sim: 10% simulated (0/2 runs done) in 1s\n"), b.String())
	require.True(t, strings.HasSuffix(b.String(), "retrygen-sim: 90% simulated (0/2 runs done) in 9s\n"), "100 %% only when the runs have finished: %s", b.String())
	p(2, 2, total, total)
	require.True(t, strings.HasSuffix(b.String(), "retrygen-sim: 100% simulated (2/2 runs done) in 10s\n"), b.String())

	b.Reset()
	p = newProgressLines(&b, start, func() time.Time { return now })
	now = start
	for d := time.Second; d <= 50*time.Second; d += time.Second { // slow: 4 % in 200 s
		now = now.Add(4 * time.Second)
		p(0, 2, d, total)
	}
	require.Equal(t, "retrygen-sim: 0% simulated (0/2 runs done) in 32s\n"+
		"retrygen-sim: 1% simulated (0/2 runs done) in 1m4s\n"+
		"retrygen-sim: 2% simulated (0/2 runs done) in 1m36s\n"+
		"retrygen-sim: 3% simulated (0/2 runs done) in 2m8s\n"+
		"retrygen-sim: 4% simulated (0/2 runs done) in 2m40s\n"+
		"retrygen-sim: 4% simulated (0/2 runs done) in 3m12s\n", b.String(), "a line every 30 s of wall time at least")
	b.Reset()
	p(-1, 2, 0, 0)
	require.Empty(t, b.String(), "nothing to clear")
}

// A client group takes its x-retry settings from a spec and overlay, as its
// generated client would: DynamoDB's legacy mode makes 10 attempts per call
// (issue 12's "DynamoDB: 10.0"), its standard mode 4 (the spec's max
// attempts).
func TestSpecSettings(t *testing.T) {
	sc, runs := runScenario(t, "testdata/dynamodb-outage.yaml")
	leg := phase(t, sc, runs["legacy"], "outage")
	require.Equal(t, leg.started, leg.startedEnded)
	require.Equal(t, 10*leg.started, leg.startedAttempts, "DynamoDB legacy: 10 attempts per call")
	std := runs["standard"]
	require.Equal(t, 4, std.maxAttempts, "DynamoDB standard: max attempts 4")
}

// A spec path in a scenario is the scenario file's directory joined with it
// unless it is absolute; it is loaded, and its errors reported with the
// scenario's line and every located diagnostic, before any run.
func TestScenarioSpecPaths(t *testing.T) {
	specs := t.TempDir()
	good := filepath.Join(specs, "xr.yaml")
	require.NoError(t, os.WriteFile(good, []byte("openapi: 3.0.0\ninfo: {title: T, version: '1'}\nx-retry: {version: 1, mode: legacy, maxAttempts: 6}\npaths: {}\n"), 0o644))
	bad := filepath.Join(specs, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("openapi: 3.0.0\ninfo: {title: T, version: '1'}\nx-retry: {version: 1, mode: fast, maxAttempts: 0}\npaths: {}\n"), 0o644))
	scenario := func(spec string) string {
		return "name: x\nmodes: [standard]\nclients:\n  - {count: 1, rate: 1}\n  - {count: 1, rate: 1, spec: " + spec + "}\nserver: {capacity: 10}\nphases:\n  - {kind: healthy, durationS: 1}\n"
	}
	scDir := t.TempDir()
	write := func(name, spec string) string {
		p := filepath.Join(scDir, name)
		require.NoError(t, os.WriteFile(p, []byte(scenario(spec)), 0o644))
		return p
	}

	for _, spec := range []string{good, "../" + filepath.Base(specs) + "/xr.yaml"} {
		sc, err := LoadScenario(write("ok.yaml", spec))
		require.NoError(t, err, spec)
		svc, err := groupService(sc, &sc.Clients[1])
		require.NoError(t, err)
		require.Equal(t, runtime.ModeLegacy, svc.DefaultMode, spec)
		require.Equal(t, 6, svc.Defaults.MaxAttempts, spec)
		require.Empty(t, svc.EnvPrefix, "the environment never applies")
	}

	path := write("bad.yaml", bad)
	_, err := LoadScenario(path)
	require.EqualError(t, err, path+":5: clients[1].spec: "+bad+": 2 error(s) in the spec\n"+
		"\t"+bad+`#/x-retry/mode: must be one of standard, adaptive, legacy, aliyun, got "fast"`+"\n"+
		"\t"+bad+"#/x-retry/maxAttempts: must be an integer ≥ 1, got \"0\"")

	missing := filepath.Join(specs, "missing.yaml")
	path = write("missing.yaml", missing)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 2, realMain([]string{"-scenario", path, "-out", t.TempDir()}, &stdout, &stderr))
	require.Equal(t, "retrygen-sim: "+path+":5: clients[1].spec: stat "+missing+": no such file or directory\n", stderr.String())
}

// Recycling ended calls changes nothing a run measures: an event planned
// in a call's earlier life (a response after its deadline, a deadline after
// its success, a call still among its client's token waiters) never acts on
// its next life. Reports with and without recycling are byte-identical for
// scenarios with deadlines, waiters (adaptive mode once throttled), shared
// windows and streams.
func TestRecyclingChangesNoReport(t *testing.T) {
	for _, path := range []string{"testdata/small.yaml", "testdata/outage-small.yaml", "testdata/hot-key-small.yaml", "testdata/fleet-small.yaml", "testdata/stream-drop-small.yaml"} {
		sc, err := LoadScenario(path)
		require.NoError(t, err)
		report := func() []byte {
			files, err := simulateAll(sc, 0, nil)
			require.NoError(t, err)
			return files["report.md"]
		}
		recycled := report()
		recycleCalls = false
		fresh := report()
		recycleCalls = true
		require.Equal(t, string(fresh), string(recycled), path)
	}
}
