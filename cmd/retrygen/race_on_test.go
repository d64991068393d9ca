//go:build race

package main

// raceEnabled: the race detector makes sync.Pool drop items at random, so
// allocation counts are not exact (TestDoAllocationsArePinned).
const raceEnabled = true
