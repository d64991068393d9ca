package runtime

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

// TestNegativeDurationsRefused: a negative MaxBackoff, AttemptTimeout or
// MaxServerDelay is a *ConfigError, as a negative MaxAttempts is, at the
// client and at the call (newuser4 G8: they were taken as the default, or
// as "none", silently). The call sends nothing.
func TestNegativeDurationsRefused(t *testing.T) {
	cases := []struct {
		opts Options
		want string
	}{
		{Options{MaxBackoff: -time.Second}, "MaxBackoff=-1s (%s): must be a duration ≥ 0"},
		{Options{AttemptTimeout: -time.Millisecond}, "AttemptTimeout=-1ms (%s): must be a duration ≥ 0"},
		{Options{MaxServerDelay: -1}, "MaxServerDelay=-1ns (%s): must be a duration ≥ 0"},
	}
	for _, tc := range cases {
		_, err := NewClient(testService(), "http://svc.test", tc.opts)
		var ce *ConfigError
		require.True(t, errors.As(err, &ce), "%v", err)
		require.EqualError(t, err, fmt.Sprintf(tc.want, "client option"))
		require.Equal(t, engine.LevelClientOption, ce.Source.Level)

		sent := 0
		c, err := NewClient(testService(), "http://svc.test", Options{HTTPClient: countingDoer{&sent}})
		require.NoError(t, err)
		call := c.Options()
		call.MaxBackoff, call.AttemptTimeout, call.MaxServerDelay = tc.opts.MaxBackoff, tc.opts.AttemptTimeout, tc.opts.MaxServerDelay
		_, err = c.Do(context.Background(), opGet, &Request{Method: "GET", Path: "/"}, &call, nil)
		require.True(t, errors.As(err, &ce), "%v", err)
		require.Equal(t, fmt.Sprintf(tc.want, "call option"), ce.Error())
		require.Equal(t, 0, sent)
	}
}

// countingDoer counts requests and answers 200.
type countingDoer struct{ n *int }

func (d countingDoer) Do(*http.Request) (*http.Response, error) {
	*d.n++
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: nopBody{}}, nil
}
