package runtime

import (
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

func TestThrottleDelay(t *testing.T) {
	ms := time.Millisecond
	maxDelay := 20 * time.Second
	sufficient := engine.ThrottleQuota{Present: true, Remain: -1, TimeLeft: 5 * time.Second}
	tests := []struct {
		name          string
		info          engine.ThrottleHeaders
		backoff       time.Duration
		wantDelay     time.Duration
		wantExceeded  bool
		wantDimension string
	}{
		{"no rate-limit headers: delay is the equal jitter", engine.ThrottleHeaders{}, 150 * ms, 150 * ms, false, ""},
		{"Remain -1: plain equal jitter, TimeLeft ignored", engine.ThrottleHeaders{UserAPI: sufficient, User: sufficient}, 100 * ms, 100 * ms, false, ""},
		{"throttled, TimeLeft above jitter: delay is TimeLeft", engine.ThrottleHeaders{UserAPI: throttled(2000)}, 100 * ms, 2000 * ms, false, engine.DimensionAPIUser},
		{"throttled, jitter above TimeLeft: delay is jitter", engine.ThrottleHeaders{UserAPI: throttled(50)}, 200 * ms, 200 * ms, false, ""},
		{"throttled, TimeLeft equal to jitter: the window sets it", engine.ThrottleHeaders{User: throttled(200)}, 200 * ms, 200 * ms, false, engine.DimensionUser},
		{"throttled without TimeLeft (error code only): jitter", engine.ThrottleHeaders{UserAPI: throttled(0)}, 100 * ms, 100 * ms, false, ""},
		{"both dimensions: the larger TimeLeft wins (User)", engine.ThrottleHeaders{UserAPI: throttled(600), User: throttled(1500)}, 100 * ms, 1500 * ms, false, engine.DimensionUser},
		{"both dimensions: the larger TimeLeft wins (API + User)", engine.ThrottleHeaders{UserAPI: throttled(2000), User: throttled(500)}, 100 * ms, 2000 * ms, false, engine.DimensionAPIUser},
		{"only the throttled dimension counts", engine.ThrottleHeaders{UserAPI: throttled(300), User: sufficient}, 100 * ms, 300 * ms, false, engine.DimensionAPIUser},
		{"TimeLeft above max delay is exceeded", engine.ThrottleHeaders{UserAPI: throttled(25000)}, 100 * ms, 25000 * ms, true, engine.DimensionAPIUser},
		{"TimeLeft equal to max delay is allowed", engine.ThrottleHeaders{User: throttled(20000)}, 100 * ms, 20000 * ms, false, engine.DimensionUser},
		{"x-acs-retry-after as backoff: used as is when not throttled", engine.ThrottleHeaders{}, 1500 * ms, 1500 * ms, false, ""},
		{"x-acs-retry-after above max delay is exceeded", engine.ThrottleHeaders{}, 25000 * ms, 25000 * ms, true, ""},
		{"x-acs-retry-after with a rate-limit header: the larger wins", engine.ThrottleHeaders{UserAPI: throttled(1200)}, 800 * ms, 1200 * ms, false, engine.DimensionAPIUser},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			delay, exceeded, dim := throttleDelay(tt.info, tt.backoff, maxDelay)
			require.Equal(t, tt.wantDelay, delay)
			require.Equal(t, tt.wantExceeded, exceeded)
			require.Equal(t, tt.wantDimension, dim)
		})
	}
}

func TestParseACSRetryAfter(t *testing.T) {
	tests := []struct {
		name   string
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"positive integer is ms", "1500", 1500 * time.Millisecond, true},
		{"surrounding whitespace is trimmed", " 20 ", 20 * time.Millisecond, true},
		{"leading zeros are allowed", "007", 7 * time.Millisecond, true},
		{"empty means absent", "", 0, false},
		{"0 means absent", "0", 0, false},
		{"negative means absent", "-5", 0, false},
		{"non-integer means absent", "1.5", 0, false},
		{"plus sign is not an integer", "+5", 0, false},
		{"text means absent", "soon", 0, false},
		{"ms overflowing Duration is too long, not negative", "9223372036855", tooLong, true},
		{"digits overflowing int64 are too long, not negative", "99999999999999999999", tooLong, true},
		{"largest ms that fits", "9223372036854", 9223372036854 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := engine.ParseACSRetryAfter(tt.value)
			require.Equal(t, tt.wantOK, ok)
			require.Equal(t, tt.want, got)
		})
	}
}

// TestThrottleMaxDelayOneRule pins the max delay of throttle-window waits
// (§8) however throttle control is turned on: from the spec (the service)
// or from Options.ThrottleControl, in aliyun mode or not. Both give the
// control's MaxDelay, else DefaultThrottleMaxDelay (120 s).
func TestThrottleMaxDelayOneRule(t *testing.T) {
	specTC := &Service{Name: "S", ThrottleControl: &ThrottleControl{}}
	spec5s := &Service{Name: "S", ThrottleControl: &ThrottleControl{MaxDelay: 5 * time.Second}}
	plain := &Service{Name: "S"}
	tests := []struct {
		name string
		svc  *Service
		opts Options
		want time.Duration
	}{
		{"spec, aliyun", specTC, Options{RetryMode: ModeAliyun}, engine.DefaultThrottleMaxDelay},
		{"options, aliyun", plain, Options{RetryMode: ModeAliyun, ThrottleControl: &ThrottleControl{}}, engine.DefaultThrottleMaxDelay},
		{"spec, standard", specTC, Options{}, engine.DefaultThrottleMaxDelay},
		{"options, standard", plain, Options{ThrottleControl: &ThrottleControl{}}, engine.DefaultThrottleMaxDelay},
		{"options MaxDelay 5s, aliyun", plain, Options{RetryMode: ModeAliyun, ThrottleControl: &ThrottleControl{MaxDelay: 5 * time.Second}}, 5 * time.Second},
		{"options MaxDelay 5s over the spec's, aliyun", specTC, Options{RetryMode: ModeAliyun, ThrottleControl: &ThrottleControl{MaxDelay: 5 * time.Second}}, 5 * time.Second},
		{"options MaxDelay 5s, standard", plain, Options{ThrottleControl: &ThrottleControl{MaxDelay: 5 * time.Second}}, 5 * time.Second},
		{"spec MaxDelay 5s, aliyun", spec5s, Options{RetryMode: ModeAliyun}, 5 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := NewClient(tt.svc, "http://127.0.0.1:1", tt.opts)
			require.NoError(t, err)
			cl, err := c.newCall(&Operation{Name: "Op"}, nil)
			require.NoError(t, err)
			require.Equal(t, tt.want, cl.pol.ThrottleMaxDelay)
		})
	}
}
