package openapi

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/retrygen/retrygen/runtime/internal/httpsyntax"
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
	if len(s) != len(time.DateOnly) || s[4] != '-' || s[7] != '-' {
		return Date{}, fmt.Errorf("openapi: date %q is not YYYY-MM-DD", s)
	}
	y, errY := digits(s[:4])
	m, errM := digits(s[5:7])
	d, errD := digits(s[8:])
	if errY != nil || errM != nil || errD != nil {
		return Date{}, fmt.Errorf("openapi: date %q is not YYYY-MM-DD", s)
	}
	switch {
	case m < 1 || m > 12:
		return Date{}, fmt.Errorf("openapi: date %q does not exist (month out of range)", s)
	case d < 1 || time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Day() != d:
		return Date{}, fmt.Errorf("openapi: date %q does not exist (day out of range)", s)
	}
	return Date{Year: y, Month: time.Month(m), Day: d}, nil
}

// digits returns the value of s, which holds only ASCII digits, else an
// error (strconv.Atoi alone accepts a sign).
func digits(s string) (int, error) {
	if !httpsyntax.Digits(s) {
		return 0, errors.New("not a digit")
	}
	return strconv.Atoi(s)
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
