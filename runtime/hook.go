package runtime

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// AttemptInfo is passed to Options.OnAttempt after every attempt.
type AttemptInfo struct {
	// Operation is the operation's name.
	Operation string
	// Attempt counts from 1; MaxAttempts is the resolved max attempts.
	Attempt, MaxAttempts int
	// Mode is the resolved retry mode.
	Mode Mode
	// Class is the attempt's class (ClassSuccess on success).
	Class engine.Class
	// StatusCode and Code describe the response (0, "" when none).
	StatusCode int
	Code       string
	// Err is the attempt's error, nil on success.
	Err error
	// Outcome is what the attempt led to: OutcomeRetry, or why the call
	// ended.
	Outcome engine.Outcome
	// Retry reports whether another attempt follows (Outcome ==
	// OutcomeRetry).
	Retry bool
	// Delay is the wait before the next attempt (or, for a long-polling
	// operation whose retry quota is exhausted, before returning; or the
	// server's requested delay for OutcomeServerDelayTooLong). DelayReason
	// says where it came from ("full jitter", "equal jitter",
	// "x-amz-retry-after", "Retry-After", "throttle window", …).
	Delay       time.Duration
	DelayReason string
	// QuotaBalance is the retry quota after the attempt, in tokens.
	QuotaBalance int
	// LimiterRate is the adaptive limiter's fill rate in tokens/s (0 when
	// the limiter is not enabled).
	LimiterRate float64
	// Throttle is the quota parsed from the response's throttle headers
	// (§8).
	Throttle engine.ThrottleHeaders
	// AdmitWait is how long this attempt waited for throttle windows
	// covering its operation before it was sent (§8); 0 when it did not.
	AdmitWait time.Duration
	// StoreFault is set when a shared throttle-window store or fleet retry
	// budget (runtime/redisstore) could not reach its backend and used this
	// process's local state instead: the call went on as if unshared.
	StoreFault error
}

// logAttempt logs one attempt: retries at Info, everything else at Debug.
// An attempt made while a shared store used local state (StoreFault) also
// carries store_fault.
func logAttempt(l *slog.Logger, a *AttemptInfo) {
	level := slog.LevelDebug
	msg := "attempt"
	if a.Retry {
		level, msg = slog.LevelInfo, "retrying"
	}
	if !l.Enabled(context.Background(), level) {
		return
	}
	attrs := [...]slog.Attr{
		slog.String("operation", a.Operation),
		slog.Int("attempt", a.Attempt),
		slog.Int("max_attempts", a.MaxAttempts),
		slog.String("mode", string(a.Mode)),
		slog.String("class", a.Class.String()),
		slog.Int("status", a.StatusCode),
		slog.String("code", a.Code),
		slog.Duration("delay", a.Delay),
		slog.String("delay_reason", a.DelayReason),
		slog.String("outcome", a.Outcome.String()),
		slog.Int("retry_quota", a.QuotaBalance),
		slog.Float64("limiter_rate", a.LimiterRate),
		slog.Any("store_fault", a.StoreFault),
	}
	n := len(attrs)
	if a.StoreFault == nil {
		n--
	}
	l.LogAttrs(context.Background(), level, msg, attrs[:n]...)
}

// BeforeAttemptFunc is the type of [Options.BeforeAttempt].
type BeforeAttemptFunc = func(req *http.Request, attempt int) error

// ChainBeforeAttempt returns a hook that calls first and then next (either
// may be nil) and stops at the first error. Generated authentication options
// use it to add credentials without dropping a hook already set:
// `o.BeforeAttempt = ChainBeforeAttempt(o.BeforeAttempt, BasicAuth(u, p))`.
func ChainBeforeAttempt(first, next BeforeAttemptFunc) BeforeAttemptFunc {
	switch {
	case first == nil:
		return next
	case next == nil:
		return first
	}
	return func(req *http.Request, attempt int) error {
		if err := first(req, attempt); err != nil {
			return err
		}
		return next(req, attempt)
	}
}
