package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// This file is the timing of waiters: smithy's waiter delay formula
// (smithy.waiters#waitable, "Waiter retries",
// https://smithy.io/2.0/additional-specs/waiters.html#waiter-retries; the same
// as aws-sdk-go-v2's smithy-go waiter.ComputeDelay) and the poll loop that
// generated WaitUntil… methods run. Each poll is one call of the operation
// through the retry engine (Client.Do): a throttled poll is retried there
// and never seen here as a matched state.

// WaiterState is the state a waiter's acceptors move it to after a poll
// (smithy's acceptor states, plus WaiterError for an error no acceptor
// matched).
type WaiterState uint8

const (
	// WaiterRetry: poll again after the next delay (an acceptor with state
	// retry matched, or nothing matched and the poll succeeded).
	WaiterRetry WaiterState = iota
	// WaiterSuccess: an acceptor with state success matched; the wait ends
	// without error.
	WaiterSuccess
	// WaiterFailure: an acceptor with state failure matched; the wait ends
	// with a *WaiterFailureError.
	WaiterFailure
	// WaiterError: the poll failed with an error no acceptor matched; the
	// wait ends with that error (smithy: an unmatched error is a failure).
	WaiterError
)

// String returns the state's name as smithy's waiter acceptors write it
// ("retry", "success", "failure"; "error" for WaiterError), or
// "WaiterState(N)" for a value outside the four.
func (s WaiterState) String() string {
	switch s {
	case WaiterRetry:
		return "retry"
	case WaiterSuccess:
		return "success"
	case WaiterFailure:
		return "failure"
	case WaiterError:
		return "error"
	}
	return "WaiterState(" + strconv.Itoa(int(s)) + ")"
}

// Waiter describes one waiter to Wait: its name and smithy's default
// delays.
type Waiter struct {
	// Name is the waiter's name ("TableExists").
	Name string
	// MinDelay and MaxDelay bound the delay between polls (smithy's
	// minDelay and maxDelay, declared in seconds; defaults 2 s and 120 s).
	MinDelay, MaxDelay time.Duration
}

// WaiterOptions let a caller change a waiter's delays (a zero value keeps
// the declared one), as aws-sdk-go-v2's <Name>WaiterOptions do.
type WaiterOptions struct {
	// MinDelay and MaxDelay replace the waiter's declared delays when
	// non-zero; MinDelay must not exceed MaxDelay.
	MinDelay, MaxDelay time.Duration
	// OnPoll, when set, is called after every poll with the attempt number
	// (from 1), the state the acceptors reached and the delay before the
	// next poll (0 when the wait ends).
	OnPoll func(attempt int, state WaiterState, delay time.Duration)
}

// WaiterTimeoutError is returned when a waiter's max wait ends before a
// success or failure state: no further poll could start at least MinDelay
// before the max wait.
type WaiterTimeoutError struct {
	// Waiter is the waiter's name; Attempts the polls made; MaxWait the
	// caller's max wait.
	Waiter   string
	Attempts int
	MaxWait  time.Duration
}

// Error names the waiter (or operation), what happened and the cause.
func (e *WaiterTimeoutError) Error() string {
	return fmt.Sprintf("waiter %s: exceeded the max wait of %v after %d polls", e.Waiter, e.MaxWait, e.Attempts)
}

// WaiterFailureError is returned when an acceptor with state failure
// matched. Err is the poll's error when an errorType acceptor matched it,
// nil when an output acceptor matched; errors.As sees through it.
type WaiterFailureError struct {
	Waiter   string
	Attempts int
	Err      error
}

// Error names the waiter (or operation), what happened and the cause.
func (e *WaiterFailureError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("waiter %s: reached a failure state after %d polls: %v", e.Waiter, e.Attempts, e.Err)
	}
	return fmt.Sprintf("waiter %s: reached a failure state after %d polls", e.Waiter, e.Attempts)
}

// Unwrap returns the matched error (nil for an output match).
func (e *WaiterFailureError) Unwrap() error { return e.Err }

// WaiterDelay is smithy's delay before the poll after poll number attempt
// (from 1): minDelay × 2^(attempt−1), capped at maxDelay once attempt
// exceeds log2(maxDelay/minDelay)+1, then drawn uniformly from [minDelay,
// that delay) with rnd (in [0, 1)); when remaining − delay ≤ minDelay the
// delay is remaining − minDelay, so the last poll starts in time. attempt ≤ 0
// or remaining ≤ 0 gives 0. minDelay and maxDelay must be positive with
// minDelay ≤ maxDelay (Wait checks). Source: smithy waiters spec, "Waiter
// retries"; aws-sdk-go-v2 (smithy-go) waiter.ComputeDelay.
func WaiterDelay(attempt int, minDelay, maxDelay, remaining time.Duration, rnd func() float64) time.Duration {
	if attempt <= 0 || remaining <= 0 {
		return 0
	}
	ceiling := math.Log(float64(maxDelay/minDelay))/math.Log(2) + 1
	delay := maxDelay
	if attempt <= int(ceiling) {
		delay = minDelay * time.Duration(int64(1)<<uint(attempt-1))
	}
	if delay != minDelay {
		delay = minDelay + time.Duration(rnd()*float64(delay-minDelay))
	}
	if remaining-delay <= minDelay {
		delay = remaining - minDelay
	}
	return delay
}

// Wait polls until the acceptors reach success or failure, or maxWait
// (measured on clock from the first poll) leaves no room for another poll:
// fewer than MinDelay remain, or the delay WaiterDelay clamps is zero. poll is one call of the operation through the
// retry engine followed by the acceptors. Between polls it sleeps
// WaiterDelay on clock (nil: the system clock), drawing jitter from rnd
// (nil: math/rand/v2). The polls run under a context that ends at maxWait.
//
// It returns nil on success; a *WaiterFailureError when a failure acceptor
// matched; the poll's error when no acceptor matched it; a
// *WaiterTimeoutError when the max wait ended; ctx's error (wrapped) when
// ctx ended during a delay; and an error naming the waiter when maxWait ≤ 0
// or the delays are invalid (MinDelay ≤ 0, MinDelay > MaxDelay).
func Wait(ctx context.Context, w Waiter, opts WaiterOptions, maxWait time.Duration, clock engine.Clock, rnd func() float64, poll func(ctx context.Context) (WaiterState, error)) error {
	if maxWait <= 0 {
		return fmt.Errorf("waiter %s: the max wait must be greater than zero, got %v", w.Name, maxWait)
	}
	if opts.MinDelay > 0 {
		w.MinDelay = opts.MinDelay
	}
	if opts.MaxDelay > 0 {
		w.MaxDelay = opts.MaxDelay
	}
	if w.MinDelay <= 0 || w.MinDelay > w.MaxDelay {
		return fmt.Errorf("waiter %s: the min delay %v must be greater than zero and at most the max delay %v", w.Name, w.MinDelay, w.MaxDelay)
	}
	if clock == nil {
		clock = engine.SystemClock{}
	}
	if rnd == nil {
		rnd = rand.Float64
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, maxWait)
	defer cancel()
	start := clock.Now()
	for attempt := 1; ; attempt++ {
		state, err := poll(ctx)
		remaining := maxWait - clock.Now().Sub(start)
		delay := time.Duration(0)
		if state == WaiterRetry && remaining >= w.MinDelay {
			delay = WaiterDelay(attempt, w.MinDelay, w.MaxDelay, remaining, rnd)
		}
		// A zero delay (remaining = MinDelay) would poll again at once, and
		// forever on a clock that polls do not move: the wait is over.
		more := delay > 0
		if opts.OnPoll != nil {
			opts.OnPoll(attempt, state, delay)
		}
		switch state {
		case WaiterSuccess:
			return nil
		case WaiterFailure:
			return &WaiterFailureError{Waiter: w.Name, Attempts: attempt, Err: err}
		case WaiterError:
			return err
		}
		if !more {
			return &WaiterTimeoutError{Waiter: w.Name, Attempts: attempt, MaxWait: maxWait}
		}
		if err := clock.Sleep(ctx, delay); err != nil {
			if parent.Err() == nil {
				return &WaiterTimeoutError{Waiter: w.Name, Attempts: attempt, MaxWait: maxWait}
			}
			return fmt.Errorf("waiter %s: cancelled while waiting: %w", w.Name, err)
		}
	}
}

// ErrorCodeIs reports whether err (seen through wrapping, as errors.As
// does) is an error response whose error code is code: a generated
// modelled error or an *APIError. A waiter's errorType acceptor is this
// test.
func ErrorCodeIs(err error, code string) bool {
	var m ModeledError
	return errors.As(err, &m) && m.Metadata().ErrorCode() == code
}
