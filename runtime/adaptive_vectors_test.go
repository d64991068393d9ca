package runtime

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/runtime/clocktest"
	"gopkg.in/yaml.v3"
)

// adaptiveVectorFile is a cubic.yaml or sending-rate.yaml file: scenario
// name → scenario (see /work/shared/vectors/README.md).
type adaptiveVectorFile map[string]struct {
	Given struct {
		LastMaxRate      float64 `yaml:"last_max_rate"`
		LastThrottleTime float64 `yaml:"last_throttle_time"`
	} `yaml:"given"`
	Cases []struct {
		Response           string   `yaml:"response"`
		Timestamp          float64  `yaml:"timestamp"`
		CalculatedRate     *float64 `yaml:"calculated_rate"`
		MeasuredTxRate     *float64 `yaml:"measured_tx_rate"`
		NewTokenBucketRate *float64 `yaml:"new_token_bucket_rate"`
	} `yaml:"cases"`
}

// adaptiveRateTolerance is the vectors' tolerance for rates, tokens/s.
const adaptiveRateTolerance = 1e-6

func loadAdaptiveVectors(t *testing.T, name string) adaptiveVectorFile {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "vectors", name))
	require.NoError(t, err)
	var f adaptiveVectorFile
	require.NoError(t, yaml.Unmarshal(data, &f), name)
	require.NotEmpty(t, f, name)
	return f
}

// TestAdaptiveCubicVectors checks CubicSuccess and CubicThrottle against
// cubic.yaml: a throttle reduces the previous case's rate and records it as
// last_max_rate, at the case's timestamp.
func TestAdaptiveCubicVectors(t *testing.T) {
	for name, sc := range loadAdaptiveVectors(t, "cubic.yaml") {
		t.Run(name, func(t *testing.T) {
			require.NotEmpty(t, sc.Cases)
			lastMax, lastThrottle := sc.Given.LastMaxRate, sc.Given.LastThrottleTime
			prev := lastMax
			for i, c := range sc.Cases {
				require.NotNil(t, c.CalculatedRate, "case %d", i)
				var got float64
				switch c.Response {
				case "throttle":
					lastMax, lastThrottle = prev, c.Timestamp
					got = CubicThrottle(prev)
				case "success":
					got = CubicSuccess(lastMax, lastThrottle, c.Timestamp)
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
	for name, sc := range loadAdaptiveVectors(t, "sending-rate.yaml") {
		t.Run(name, func(t *testing.T) {
			require.NotEmpty(t, sc.Cases)
			clock := clocktest.New(adaptiveAt(0))
			l := NewRateLimiter(clock)
			for i, c := range sc.Cases {
				require.NotNil(t, c.MeasuredTxRate, "case %d", i)
				require.NotNil(t, c.NewTokenBucketRate, "case %d", i)
				clock.Set(adaptiveAt(c.Timestamp))
				l.Update(c.Response == "throttle")
				st := l.State()
				require.InDelta(t, *c.MeasuredTxRate, st.MeasuredRate, adaptiveRateTolerance, "case %d at %v s: measured rate", i, c.Timestamp)
				require.InDelta(t, *c.NewTokenBucketRate, st.FillRate, adaptiveRateTolerance, "case %d at %v s: fill rate", i, c.Timestamp)
			}
		})
	}
}
