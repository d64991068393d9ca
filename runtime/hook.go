package runtime

import (
	"context"
	"log/slog"
	"net/http"
)

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

// logAttempt logs one attempt: retries at Info, everything else at Debug.
func logAttempt(l *slog.Logger, a *AttemptInfo) {
	level := slog.LevelDebug
	msg := "attempt"
	if a.Retry {
		level, msg = slog.LevelInfo, "retrying"
	}
	if !l.Enabled(context.Background(), level) {
		return
	}
	l.LogAttrs(context.Background(), level, msg,
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
	)
}
