package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Issue 22 item 4 in the simulator: n adaptive clients offer 1.5× a hot
// key's capacity (100 requests/s) in all. Sharing one CUBIC send rate
// (engine.RateLimiterPool, what the shared runs give a group, as
// runtime/redisstore's fleet rate gives a fleet) holds the server's load
// within 10 % of capacity with at most 5 % throttled from 5 to 1,000
// clients; each with its own limiter, many small clients overshoot (each
// grows on its own and floors at 0.5 req/s).
func TestFleetAdaptiveHotKey(t *testing.T) {
	if testing.Short() {
		t.Skip("eight simulated runs of 150 s")
	}
	counts := []int{5, 50, 200, 1000}
	if raceEnabled {
		counts = []int{5, 50} // the same code; 1,000 clients take minutes under -race
	}
	for _, n := range counts {
		sc, err := LoadScenario("testdata/hot-key-small.yaml")
		require.NoError(t, err)
		sc.Clients[0].Count, sc.Clients[0].Rate = n, 150/float64(n)
		got := map[string][2]float64{}
		for _, sharing := range []string{sharingShared, sharingPerProcess} {
			r, err := simulate(sc, "adaptive", sharing, sc.Seed, groupService, nil)
			require.NoError(t, err)
			p := phase(t, sc, r, "steady")
			load := float64(p.serverReq) / (p.end - p.start).Seconds() / sc.Server.Capacity
			thr := float64(p.throttled) / float64(max(p.responses, 1))
			got[sharing] = [2]float64{load, thr}
			t.Logf("%4d clients, %-11s: server load %.3f × capacity, %5.2f %% throttled", n, sharing, load, 100*thr)
		}
		require.InDelta(t, 1, got[sharingShared][0], 0.10, "%d clients sharing: load within 10 %% of capacity", n)
		require.LessOrEqual(t, got[sharingShared][1], 0.05, "%d clients sharing: at most 5 %% throttled", n)
		if n >= 200 {
			require.Greater(t, got[sharingPerProcess][1], got[sharingShared][1], "%d clients: own limiters throttle more", n)
		}
	}
}

// The plots of a fleet scenario draw the user limit on the server load
// (100 requests per 1 s window for the one user: 100/s), and, when the
// shared runs have a fleet retry budget, its balance in a plot of its own.
func TestFleetPlots(t *testing.T) {
	sc, err := LoadScenario("testdata/fleet-small.yaml")
	require.NoError(t, err)
	var runs []*runStats
	for _, sharing := range []string{sharingPerProcess, sharingShared} {
		r, err := simulate(sc, "standard", sharing, sc.Seed, groupService, nil)
		require.NoError(t, err)
		runs = append(runs, r)
	}
	files, err := plots(sc, runs, "svg")
	require.NoError(t, err)
	require.Contains(t, string(files["server-load.svg"]), ">user limit<")
	require.NotContains(t, files, "fleet-budget.svg", "no fleet retry budget in this scenario")

	sc, err = LoadScenario("testdata/fleet-outage-small.yaml")
	require.NoError(t, err)
	r, err := simulate(sc, "aliyun", sharingShared, sc.Seed, groupService, nil)
	require.NoError(t, err)
	require.NotNil(t, r.fleetBudget, "aliyun mode pays the fleet retry budget too")
	require.Less(t, r.fleetBudget[len(r.fleetBudget)-1], float64(sc.Clients[0].FleetRetryBudget), "and spends it")
	files, err = plots(sc, []*runStats{r}, "svg")
	require.NoError(t, err)
	require.Contains(t, files, "fleet-budget.svg")
	require.NotContains(t, string(files["server-load.svg"]), ">user limit<")
}
