package runtime_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/vectors"
	"github.com/retrygen/retrygen/runtime/clocktest"
	"github.com/retrygen/retrygen/runtime/engine"
)

// The vector files are parsed by internal/vectors, the parser `retrygen
// vectors` uses too; this external test package keeps that import from
// forming a cycle.

// adaptiveRateTolerance is the vectors' tolerance for rates, tokens/s.
const adaptiveRateTolerance = 1e-6

func loadAdaptiveVectors(t *testing.T, name string) []vectors.Scenario {
	t.Helper()
	f, err := vectors.ReadFile(filepath.Join("testdata", "vectors", name))
	require.NoError(t, err)
	require.NotEmpty(t, f.Scenarios, name)
	return f.Scenarios
}

// vectorAt is the fake-clock time s seconds after the vectors' epoch.
func vectorAt(s float64) time.Time {
	return time.Unix(0, 0).Add(time.Duration(s * float64(time.Second)))
}

// TestAdaptiveCubicVectors checks CubicSuccess and CubicThrottle against
// cubic.yaml: a throttle reduces the previous case's rate and records it as
// last_max_rate, at the case's timestamp.
func TestAdaptiveCubicVectors(t *testing.T) {
	for _, sc := range loadAdaptiveVectors(t, "cubic.yaml") {
		t.Run(sc.Name, func(t *testing.T) {
			require.NotEmpty(t, sc.Cases)
			require.NotNil(t, sc.Given.LastMaxRate)
			lastMax, lastThrottle := *sc.Given.LastMaxRate, 0.0
			if sc.Given.LastThrottleTime != nil {
				lastThrottle = *sc.Given.LastThrottleTime
			}
			prev := lastMax
			for i, c := range sc.Cases {
				require.NotNil(t, c.CalculatedRate, "case %d", i)
				var got float64
				switch c.Response {
				case "throttle":
					lastMax, lastThrottle = prev, c.Timestamp
					got = engine.CubicThrottle(prev)
				case "success":
					got = engine.CubicSuccess(lastMax, lastThrottle, c.Timestamp)
				default:
					t.Fatalf("case %d: unknown response %q", i, c.Response)
				}
				require.InDelta(t, *c.CalculatedRate, got, adaptiveRateTolerance, "case %d at %v s", i, c.Timestamp)
				prev = got
			}
		})
	}
}

// TestAdaptiveSendingRateVectors drives a real RateLimiter through
// sending-rate.yaml: clock at 0, one Update per case at its timestamp.
func TestAdaptiveSendingRateVectors(t *testing.T) {
	for _, sc := range loadAdaptiveVectors(t, "sending-rate.yaml") {
		t.Run(sc.Name, func(t *testing.T) {
			require.NotEmpty(t, sc.Cases)
			clock := clocktest.New(vectorAt(0))
			l := engine.NewRateLimiter(clock)
			for i, c := range sc.Cases {
				require.NotNil(t, c.MeasuredTxRate, "case %d", i)
				require.NotNil(t, c.NewTokenBucketRate, "case %d", i)
				clock.Set(vectorAt(c.Timestamp))
				l.Update(c.Response == "throttle")
				st := l.State()
				require.InDelta(t, *c.MeasuredTxRate, st.MeasuredRate, adaptiveRateTolerance, "case %d at %v s: measured rate", i, c.Timestamp)
				require.InDelta(t, *c.NewTokenBucketRate, st.FillRate, adaptiveRateTolerance, "case %d at %v s: fill rate", i, c.Timestamp)
			}
		})
	}
}
