package runtime

import (
	"net/http"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

func TestParseThrottleHeaders(t *testing.T) {
	h := http.Header{}
	h.Set("X-RateLimit-User-API", "Remain:0,TimeLeft:200")
	h.Set("X-RateLimit-User", "Remain:5,TimeLeft:900")
	h.Set("X-Custom-Api", "Remain:0,TimeLeft:7")
	h.Add("X-Two-Lines", "Limit:2,TimeLeft:100")
	h.Add("X-Two-Lines", "Remain:0,TimeLeft:300")
	h.Add("X-Three-Lines", "Remain:4")
	h.Add("X-Three-Lines", "TimeLeft:40")
	h.Add("X-Three-Lines", "Remain:0")
	ms := time.Millisecond
	tests := []struct {
		name          string
		tc            *ThrottleControl
		want          engine.ThrottleHeaders
		wantThrottled bool
	}{
		{"nil ThrottleControl uses the default header names", nil, engine.ThrottleHeaders{
			UserAPI: engine.ThrottleQuota{Present: true, Remain: 0, TimeLeft: 200 * ms},
			User:    engine.ThrottleQuota{Present: true, Remain: 5, TimeLeft: 900 * ms},
		}, true},
		{"configured header name replaces the default, empty keeps it", &ThrottleControl{UserAPIHeader: "X-Custom-Api"}, engine.ThrottleHeaders{
			UserAPI: engine.ThrottleQuota{Present: true, Remain: 0, TimeLeft: 7 * ms},
			User:    engine.ThrottleQuota{Present: true, Remain: 5, TimeLeft: 900 * ms},
		}, true},
		{"every line of a repeated header is read, a later field winning", &ThrottleControl{UserAPIHeader: "X-Two-Lines", UserHeader: "X-Three-Lines"}, engine.ThrottleHeaders{
			UserAPI: engine.ThrottleQuota{Present: true, Remain: 0, Limit: 2, TimeLeft: 300 * ms},
			User:    engine.ThrottleQuota{Present: true, Remain: 0, TimeLeft: 40 * ms},
		}, true},
		{"absent headers are not present and not throttled", &ThrottleControl{UserAPIHeader: "X-None", UserHeader: "X-Nothing"}, engine.ThrottleHeaders{
			UserAPI: engine.ThrottleQuota{Remain: -1},
			User:    engine.ThrottleQuota{Remain: -1},
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseThrottleHeaders(h, tt.tc)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.wantThrottled, got.Throttled())
		})
	}
}
