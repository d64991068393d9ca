package main

import (
	"os"
	"path/filepath"
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

// The work a scenario asks for counts each call's attempts: calls × max
// attempts over all runs may be at most maxAttempts (newuser4 G1: 1.5e8
// calls, within the calls bound, each making up to 100 attempts against an
// outage, ran for hours). Max attempts are the group's, else its spec's
// x-retry for the mode, else the mode's default; "none" makes one. The
// bench's scenario in five modes and two sharings stays valid.
func TestScenarioTotalAttemptsAreBounded(t *testing.T) {
	storm := `name: storm
modes: [legacy]
clients:
  - {name: web, count: 10000, rate: 10, maxAttempts: 100}
server: {capacity: 100000, latencyMs: 1, overload: "503"}
phases:
  - {name: outage, kind: outage, durationS: 1500, failure: "503"}
`
	_, err := parseScenario("s.yaml", []byte(storm))
	require.EqualError(t, err, "s.yaml:4: clients[0]: calls × max attempts = 1.5e+08 × 100 (legacy) = 1.5e+10 attempts; the scenario asks for up to 1.5e+10 attempts over 1 run (modes × sharing), at most 4.8e+08: lower maxAttempts, count, rate or the phases' durationS")

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "api.yaml"), []byte(`openapi: 3.0.3
info: {title: fast, version: "1"}
x-retry: {version: 1, modes: {legacy: {maxAttempts: 100}}}
paths: {/a: {get: {operationId: getA, responses: {"200": {description: ok}}}}}
`), 0o644))
	fromSpec := strings.Replace(strings.Replace(storm, "maxAttempts: 100}", "spec: api.yaml}", 1), "durationS: 1500", "durationS: 100", 1)
	fromSpec = strings.Replace(fromSpec, "modes: [legacy]", "modes: [legacy, standard, none]", 1)
	_, err = parseScenario(filepath.Join(dir, "s.yaml"), []byte(fromSpec))
	require.EqualError(t, err, filepath.Join(dir, "s.yaml")+":4: clients[0]: calls × max attempts = 1e+07 × 100 (legacy) = 1e+09 attempts; the scenario asks for up to 1.04e+09 attempts over 3 runs (modes × sharing), at most 4.8e+08: lower maxAttempts, count, rate or the phases' durationS")

	within := strings.Replace(fromSpec, "durationS: 100", "durationS: 40", 1)
	_, err = parseScenario(filepath.Join(dir, "s.yaml"), []byte(within))
	require.NoError(t, err, "4e6 calls × (100 + 3 + 1) = 4.16e8 attempts")
}
