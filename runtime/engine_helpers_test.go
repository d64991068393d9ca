package runtime

import (
	"math"
	"time"

	"github.com/retrygen/retrygen/runtime/engine"
)

// Test helpers shared with runtime/engine's tests (each package's tests
// have their own copy).

// tooLong is the longest time.Duration: a delay too long to represent.
const tooLong = time.Duration(math.MaxInt64)

// t0 is the fake clock's origin; at(ms) is t0 + ms.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(ms int64) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// throttled returns a throttled quota (Remain 0) with TimeLeft ms left.
func throttled(timeLeftMs int64) engine.ThrottleQuota {
	return engine.ThrottleQuota{Present: true, Remain: 0, TimeLeft: time.Duration(timeLeftMs) * time.Millisecond}
}
