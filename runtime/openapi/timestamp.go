package openapi

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// EpochSeconds is a time that travels in JSON as a number of seconds since
// 1970-01-01 UTC, with a fraction down to milliseconds (1421866952.062), as
// the AWS JSON protocols send timestamps. Generated code uses it for
// "format: date-time" fields of services whose x-protocol sets
// timestampFormat: epoch-seconds.
type EpochSeconds struct {
	time.Time
}

// MarshalJSON writes the time as seconds with up to three decimals.
func (t EpochSeconds) MarshalJSON() ([]byte, error) {
	return strconv.AppendFloat(nil, float64(t.UnixMilli())/1000, 'f', -1, 64), nil
}

// UnmarshalJSON reads a JSON number of seconds (rounded to the millisecond);
// null leaves t unchanged. It returns an error naming the value for anything
// else, or for a number outside ±1e11 s.
func (t *EpochSeconds) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.Abs(f) > 1e11 {
		return fmt.Errorf("epoch seconds: invalid value %s", b)
	}
	t.Time = time.UnixMilli(int64(math.Round(f * 1000))).UTC()
	return nil
}
