package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A scenario whose fields are each within bounds but whose product is not
// is refused up front, naming the group, its product and the limit
// (new-user trial item 9: 100,000 clients × 100 calls/s × 600 s ran away
// past 1.6 GB). The bench's largest scenario, 20,000 clients × 1 call/s ×
// 600 s in five modes, stays valid.
func TestScenarioTotalCallsAreBounded(t *testing.T) {
	bench := `name: outage at 20000 clients
modes: [legacy, standard, adaptive, aliyun, none]
clients:
  - {name: web, count: 20000, rate: 1, timeoutMs: 30000}
server: {capacity: 30000, burst: 50, queue: 300, latencyMs: 20, overload: "503"}
phases:
  - {name: healthy, kind: healthy, durationS: 120}
  - {name: outage, kind: outage, durationS: 240, failure: "503"}
  - {name: recovery, kind: recovery, durationS: 240}
`
	_, err := parseScenario("s.yaml", []byte(bench))
	require.NoError(t, err)
	both := strings.Replace(bench, "clients:\n", "sharing: [per-process, shared]\nclients:\n", 1)
	_, err = parseScenario("s.yaml", []byte(both))
	require.NoError(t, err, "ten runs of the bench: 1.2e8 calls")

	bad := `name: bad
modes: [standard]
clients:
  - {name: a, count: 100000, rate: 100}
server: {capacity: 1500, burst: 50, queue: 300, latencyMs: 20, overload: "503"}
phases:
  - {name: p, kind: healthy, durationS: 600}
`
	_, err = parseScenario("s.yaml", []byte(bad))
	require.EqualError(t, err, "s.yaml:4: clients[0]: count × rate × durationS (load-weighted) = 6e+09 calls per run; the scenario asks for 6e+09 calls over 1 run (modes × sharing), at most 1.5e+08: lower count, rate or the phases' durationS")

	loaded := strings.Replace(strings.Replace(bench, "count: 20000", "count: 2000", 1), "durationS: 240, failure", "durationS: 240, load: 1000, failure", 1)
	_, err = parseScenario("s.yaml", []byte(loaded))
	require.EqualError(t, err, "s.yaml:4: clients[0]: count × rate × durationS (load-weighted) = 4.81e+08 calls per run; the scenario asks for 2.4e+09 calls over 5 runs (modes × sharing), at most 1.5e+08: lower count, rate or the phases' durationS")

	closed := `name: closed
modes: [standard]
clients:
  - {name: small, count: 10, rate: 1}
  - {name: c, count: 99990, closedLoop: {concurrency: 1000, thinkMs: 1}}
server: {capacity: 1500, latencyMs: 0}
phases:
  - {kind: healthy, durationS: 1}
`
	_, err = parseScenario("s.yaml", []byte(closed))
	require.EqualError(t, err, "s.yaml:5: clients[1]: count × closedLoop.concurrency × durationS × 1000 / (thinkMs + server.latencyMs, at least 1 ms) = 1e+11 calls per run; the scenario asks for 1e+11 calls over 1 run (modes × sharing), at most 1.5e+08: lower count, closedLoop.concurrency or the phases' durationS")
}
