package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestClosedLoopNeedsThinkTime: a closed loop's callers start their next
// call when the last ends, and a call may end without reaching the server
// (a throttle window longer than the client waits, a timeout) or reach one
// with latencyMs 0: taking no virtual time, such calls loop at one instant
// for ever (third new-user trial F10: thinkMs 0 and latencyMs 0 ran past
// 120 s; thinkMs 0 with latencyMs 20 and a long throttle window does too).
// So thinkMs below 1 ms is refused up front, located; thinkMs 1 runs.
func TestClosedLoopNeedsThinkTime(t *testing.T) {
	scen := func(think string) string {
		return `name: s4
modes: [standard]
clients:
  - {name: a, count: 3, closedLoop: {concurrency: 100, thinkMs: ` + think + `}}
server: {capacity: 1e7, latencyMs: 0}
phases:
  - {name: p, kind: healthy, durationS: 1}
`
	}
	for _, think := range []string{"0", "0.5"} {
		_, err := parseScenario("s4c.yaml", []byte(scen(think)))
		require.EqualError(t, err, "s4c.yaml:4: clients[0].closedLoop.thinkMs: must be at least 1 ms (mean think time between a caller's calls), got "+think+
			": a call that ends without reaching the server (a throttle window, a timeout) takes no virtual time, so a closed loop without think time would not advance")
	}
	_, err := parseScenario("s4c.yaml", []byte(scen("1")))
	require.NoError(t, err)
}
