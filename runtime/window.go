package runtime

import (
	"fmt"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// ThrottleWindowError is returned when a throttle window (or a needed delay)
// ends later than the max delay or the context deadline allows: the call fails
// at once without sending.
type ThrottleWindowError struct {
	// Until is the window's absolute end.
	Until time.Time
	// Dimension is DimensionUser ("user") or DimensionAPIUser
	// ("api_user"): the window that ends last; "" when the delay came from
	// x-acs-retry-after (§5).
	Dimension string
	// Operation is the blocked operation's name.
	Operation string
	// Err is the last attempt's error, if an attempt was made, joined with
	// context.DeadlineExceeded when the wait does not fit the call's
	// deadline (errors.Is(err, context.DeadlineExceeded) then holds).
	Err error
}

// Error says until when and in which dimension the call is blocked
// ([OperationError] names the operation).
func (e *ThrottleWindowError) Error() string {
	what := "throttle window (" + e.Dimension + ")"
	if e.Dimension == "" {
		what = "server-requested throttle delay (" + engine.HeaderACSRetryAfter + ")"
	}
	s := fmt.Sprintf("%s until %s, longer than the client may wait", what, e.Until.UTC().Format(time.RFC3339Nano))
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the last attempt's error, if any.
func (e *ThrottleWindowError) Unwrap() error { return e.Err }
