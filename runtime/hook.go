package runtime

import (
	"context"
	"log/slog"
)

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
	if a.StoreFault != nil {
		l.LogAttrs(context.Background(), slog.LevelWarn, "shared store unavailable, using local state",
			slog.String("operation", a.Operation), slog.Int("attempt", a.Attempt), slog.Any("error", a.StoreFault))
	}
}
