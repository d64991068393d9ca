package runtime_test

import (
	"context"
	"fmt"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// exampleClock is a settable clock, as a conformance runner would write it.
type exampleClock struct{ now time.Time }

func (c *exampleClock) Now() time.Time { return c.now }

func (c *exampleClock) Sleep(ctx context.Context, d time.Duration) error {
	c.now = c.now.Add(max(d, 0))
	return ctx.Err()
}

// at is the time `seconds` after the Unix epoch, the vectors' time 0.
func at(seconds float64) time.Time {
	return time.Unix(0, 0).Add(time.Duration(seconds * float64(time.Second)))
}

// Driving a limiter through sending-rate vector cases with exported API
// only: set the clock to each case's timestamp, Update, read State.
func ExampleRateLimiter() {
	clock := &exampleClock{now: at(0)}
	l := engine.NewRateLimiter(clock)
	for _, c := range []struct {
		t         float64
		throttled bool
	}{{0.6, false}, {1.0, false}, {2.0, true}} {
		clock.now = at(c.t)
		l.Update(c.throttled)
		st := l.State()
		fmt.Printf("%.1f s: measured %.6f, fill rate %.6f, enabled %v\n", c.t, st.MeasuredRate, st.FillRate, st.Enabled)
	}
	fmt.Println(l.Acquire(context.Background(), true))
	// Output:
	// 0.6 s: measured 1.600000, fill rate 0.500000, enabled false
	// 1.0 s: measured 1.920000, fill rate 0.500000, enabled false
	// 2.0 s: measured 1.184000, fill rate 0.828800, enabled true
	// client-side rate limiter: no send token for 361.969112ms at 0.829 tokens/s (fail-fast)
}

// The CUBIC formulas alone, as cubic.yaml checks them: a success at 6 s
// after a throttle at 5 s from a last max rate of 10 tokens/s, then a
// throttle that reduces that rate by 0.7.
func ExampleCubicSuccess() {
	rate := engine.CubicSuccess(10, 5, 6)
	fmt.Printf("%.6f\n", rate)
	fmt.Printf("%.6f\n", engine.CubicThrottle(rate))
	// Output:
	// 9.648936
	// 6.754255
}
