package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHugePages: with GOGC in the environment, or for a small spec,
// hugePages does nothing (no collection); without, on Linux with transparent huge pages, the mapping
// that holds the advised range has "hg" in its smaps VmFlags.
func TestHugePages(t *testing.T) {
	n := numGC()
	hugePages("100", hugePagesMinSpec)
	hugePages("", hugePagesMinSpec-1)
	require.Equal(t, n, numGC())

	thp, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(thp), "[never]") {
		t.Skipf("no transparent huge pages here (%q, %v)", thp, err)
	}
	hugePages("", hugePagesMinSpec) // once per process: maybe done by a test before
	smaps, err := os.ReadFile("/proc/self/smaps")
	require.NoError(t, err)
	r := hugePagesAdvised
	require.Less(t, r[0], r[1])
	covered := false // the advised range lies in one mapping
	for _, l := range strings.Split(string(smaps), "\n") {
		if lo, hi, ok := strings.Cut(strings.Fields(l + " ")[0], "-"); ok {
			a, err1 := strconv.ParseUint(lo, 16, 64)
			b, err2 := strconv.ParseUint(hi, 16, 64)
			covered = err1 == nil && err2 == nil && uintptr(a) <= r[0] && r[1] <= uintptr(b)
		}
		if f, ok := strings.CutPrefix(l, "VmFlags:"); ok && covered {
			require.Contains(t, strings.Fields(f), "hg", "%s", l)
			return
		}
	}
	t.Fatalf("no mapping holds %x-%x", r[0], r[1])
}

// numGC is the number of collections so far.
func numGC() uint32 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.NumGC
}
