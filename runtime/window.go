package runtime

import (
	"fmt"
	"sync"
	"time"
)

// RateLimitQuota is one dimension of a rate-limit header such as
// `X-RateLimit-User-API: Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000`
// (retry-behavior.md §8).
type RateLimitQuota struct {
	// Present reports whether the header was there and held at least one
	// usable field.
	Present bool
	// Remain is the calls left in the window: -1 = quota sufficient,
	// 0 = throttled. Limit is the calls allowed per window.
	Remain, Limit int64
	// Window is the window's length (Time, ms on the wire); TimeLeft is
	// what is left of the current window (ms on the wire).
	Window, TimeLeft time.Duration
	// Reset is the start of the next window (epoch ms on the wire); zero
	// when absent.
	Reset time.Time
}

// RateLimitInfo holds both dimensions of a response's rate-limit headers.
type RateLimitInfo struct {
	// UserAPI is the "API + User" dimension (X-RateLimit-User-API).
	UserAPI RateLimitQuota
	// User is the "User" dimension (X-RateLimit-User).
	User RateLimitQuota
}

// WindowStore remembers throttle windows as absolute end times (§8). It is
// safe for concurrent use; share one between clients on purpose.
type WindowStore struct {
	mu sync.Mutex
}

// NewWindowStore returns an empty store.
func NewWindowStore() *WindowStore { return &WindowStore{} }

// ThrottleWindowError is returned when a throttle window (or a needed delay)
// ends later than the max delay or the context deadline allows: the call fails
// at once without sending.
type ThrottleWindowError struct {
	// Until is the window's absolute end.
	Until time.Time
	// Dimension is "user" or "api_user".
	Dimension string
	// Operation is the blocked operation's name.
	Operation string
	// Err is the last attempt's error, if an attempt was made.
	Err error
}

// Error says until when and in which dimension the call is blocked.
func (e *ThrottleWindowError) Error() string {
	s := fmt.Sprintf("throttle window (%s) for %s until %s", e.Dimension, e.Operation, e.Until.UTC().Format(time.RFC3339Nano))
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the last attempt's error, if any.
func (e *ThrottleWindowError) Unwrap() error { return e.Err }
