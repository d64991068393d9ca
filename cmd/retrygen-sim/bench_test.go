package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkSimulateOutage is one mode's run of bench/simulator.sh's outage
// scenario at SIM_CLIENTS clients (default 1,000): the cost per simulated
// fleet, for profiles (-cpuprofile, -memprofile).
func BenchmarkSimulateOutage(b *testing.B) {
	n := 1000
	if s := os.Getenv("SIM_CLIENTS"); s != "" {
		fmt.Sscan(s, &n)
	}
	mode := "legacy"
	if s := os.Getenv("SIM_MODE"); s != "" {
		mode = s
	}
	path := filepath.Join(b.TempDir(), "s.yaml")
	yaml := fmt.Sprintf(`name: outage
seed: 1
modes: [%s]
clients:
  - {name: web, count: %d, rate: 1, timeoutMs: 30000}
server: {capacity: %d, burst: 50, queue: 300, latencyMs: 20, overload: "503"}
phases:
  - {name: healthy, kind: healthy, durationS: 120}
  - {name: outage, kind: outage, durationS: 240, failure: "503"}
  - {name: recovery, kind: recovery, durationS: 240}
`, mode, n, n*3/2)
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		b.Fatal(err)
	}
	sc, err := LoadScenario(path)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := simulate(sc, mode, sharingPerProcess, 1, groupService, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.events), "events")
	}
}
