package runtime

import (
	"errors"
	"testing"

	"github.com/retrygen/retrygen/runtime/engine"
	"github.com/stretchr/testify/require"
)

func TestThrottleWindowError(t *testing.T) {
	last := errors.New("api error Throttling.User (HTTP 400)")
	err := error(&ThrottleWindowError{Until: at(25000), Dimension: engine.DimensionUser, Operation: "DescribeInstances", Err: last})
	require.Equal(t, "throttle window (user) until 2026-01-02T03:04:30Z, longer than the client may wait: api error Throttling.User (HTTP 400)", err.Error())
	acs := &ThrottleWindowError{Until: at(25000), Operation: "DescribeInstances"}
	require.Equal(t, "server-requested throttle delay (x-acs-retry-after) until 2026-01-02T03:04:30Z, longer than the client may wait", acs.Error())
	require.ErrorIs(t, err, last)
	var twe *ThrottleWindowError
	require.ErrorAs(t, err, &twe)
}
