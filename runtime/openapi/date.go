package openapi

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Date is a calendar date without a time or a time zone: a JSON string of
// OpenAPI "format: date", the RFC 3339 full-date "YYYY-MM-DD" (OpenAPI 3.0
// §4.4, Data Types). Its zero value is 0000-00-00, which is not a valid
// date and is only ever written, never accepted.
type Date struct {
	Year  int        // 0 to 9999
	Month time.Month // 1 to 12
	Day   int        // 1 to the month's last day
}

// DateOf returns the date of t in t's location.
func DateOf(t time.Time) Date {
	y, m, d := t.Date()
	return Date{Year: y, Month: m, Day: d}
}

// ParseDate parses s as an RFC 3339 full-date, exactly: four-digit year,
// two-digit month and day, a day that exists in that month. It returns an
// error quoting s otherwise.
func ParseDate(s string) (Date, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || len(s) != len(time.DateOnly) {
		var pe *time.ParseError
		if len(s) == len(time.DateOnly) && errors.As(err, &pe) && strings.HasPrefix(pe.Message, ": ") && strings.HasSuffix(pe.Message, "out of range") {
			// The shape is right; the month or day does not exist.
			return Date{}, fmt.Errorf("openapi: date %q does not exist (%s)", s, pe.Message[2:])
		}
		return Date{}, fmt.Errorf("openapi: date %q is not YYYY-MM-DD", s)
	}
	return DateOf(t), nil
}

// String returns d as YYYY-MM-DD.
func (d Date) String() string {
	return fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
}

// In returns midnight at the start of d in loc.
func (d Date) In(loc *time.Location) time.Time {
	return time.Date(d.Year, d.Month, d.Day, 0, 0, 0, 0, loc)
}

// MarshalText writes d as YYYY-MM-DD (JSON: a string; parameters: the
// plain date).
func (d Date) MarshalText() ([]byte, error) {
	return []byte(d.String()), nil
}

// UnmarshalText parses an RFC 3339 full-date exactly (see [ParseDate]).
func (d *Date) UnmarshalText(b []byte) error {
	v, err := ParseDate(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
