package engine

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestParseThrottleHeader(t *testing.T) {
	ms := time.Millisecond
	absent := ThrottleQuota{Remain: -1}
	tests := []struct {
		name  string
		value string
		want  ThrottleQuota
	}{
		{"documented example: all five fields", "Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000",
			ThrottleQuota{Present: true, Remain: 0, Limit: 2, Window: 1000 * ms, TimeLeft: 122 * ms, Reset: time.UnixMilli(1637835220000)}},
		{"pairs in any order", "Reset:5,TimeLeft:7,Time:9,Limit:3,Remain:1",
			ThrottleQuota{Present: true, Remain: 1, Limit: 3, Window: 9 * ms, TimeLeft: 7 * ms, Reset: time.UnixMilli(5)}},
		{"keys are case-insensitive", "REMAIN:0,timeleft:50,tImE:100",
			ThrottleQuota{Present: true, Remain: 0, Window: 100 * ms, TimeLeft: 50 * ms}},
		{"whitespace around keys and values is trimmed", "  Remain : 0 ,\tTimeLeft:\t50  ",
			ThrottleQuota{Present: true, Remain: 0, TimeLeft: 50 * ms}},
		{"Remain -1 means quota sufficient", "Remain:-1,TimeLeft:400",
			ThrottleQuota{Present: true, Remain: -1, TimeLeft: 400 * ms}},
		{"missing Remain reads as -1, not throttled", "TimeLeft:400",
			ThrottleQuota{Present: true, Remain: -1, TimeLeft: 400 * ms}},
		{"unknown keys are ignored", "Foo:1,Remain:0,Bar:x", ThrottleQuota{Present: true, Remain: 0}},
		{"a repeated key keeps its last usable value", "TimeLeft:5,TimeLeft:9,TimeLeft:x", ThrottleQuota{Present: true, Remain: -1, TimeLeft: 9 * ms}},
		{"pair without colon is ignored", "Remain,TimeLeft:3", ThrottleQuota{Present: true, Remain: -1, TimeLeft: 3 * ms}},
		{"non-integer value is ignored", "Remain:abc,TimeLeft:1.5,Limit:2", ThrottleQuota{Present: true, Remain: -1, Limit: 2}},
		{"TimeLeft overflowing int64 is clamped to the longest Duration", "TimeLeft:99999999999999999999,Remain:0", ThrottleQuota{Present: true, Remain: 0, TimeLeft: tooLong}},
		{"Limit overflowing int64 is ignored", "Limit:99999999999999999999,Remain:0", ThrottleQuota{Present: true, Remain: 0}},
		{"ms overflowing Duration are clamped, not dropped", "TimeLeft:9223372036855,Time:9223372036854", ThrottleQuota{Present: true, Remain: -1, TimeLeft: tooLong, Window: 9223372036854 * ms}},
		{"Time overflowing Duration is clamped too", "Time:9223372036855", ThrottleQuota{Present: true, Remain: -1, Window: tooLong}},
		{"negative TimeLeft and Time are ignored", "TimeLeft:-5,Time:-1,Remain:0", ThrottleQuota{Present: true, Remain: 0}},
		{"negative Limit and Reset are ignored", "Limit:-2,Reset:-1", absent},
		{"Remain below -1 is ignored", "Remain:-2", absent},
		{"plus sign is not an integer", "Remain:+0", absent},
		{"colon with empty key is ignored", ":5", absent},
		{"empty value", "", absent},
		{"only separators", ",,,", absent},
		{"lone colon", ":", absent},
		{"key without value", "Remain:", absent},
		{"non-ASCII key letters do not fold", "Reſet:5", absent},
		{"extra colon makes the value non-integer", "Remain:0:1", absent},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, parseThrottleHeader(tt.value))
		})
	}
}

func TestParseInt64Bounds(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want int64
		ok   bool
	}{
		{"max int64", "9223372036854775807", 9223372036854775807, true},
		{"max int64 + 1 overflows", "9223372036854775808", 0, false},
		{"min int64", "-9223372036854775808", -9223372036854775808, true},
		{"min int64 - 1 overflows", "-9223372036854775809", 0, false},
		{"minus zero", "-0", 0, true},
		{"lone minus", "-", 0, false},
		{"leading zeros", "007", 7, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseInt64(tt.in)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestThrottleQuotaThrottled(t *testing.T) {
	tests := []struct {
		name string
		info ThrottleHeaders
		want bool
	}{
		{"zero value is not throttled", ThrottleHeaders{}, false},
		{"Remain 0 in API + User is throttled", ThrottleHeaders{UserAPI: ThrottleQuota{Present: true}}, true},
		{"Remain 0 in User is throttled", ThrottleHeaders{User: ThrottleQuota{Present: true}}, true},
		{"Remain -1 in both is not throttled", ThrottleHeaders{UserAPI: ThrottleQuota{Present: true, Remain: -1}, User: ThrottleQuota{Present: true, Remain: -1}}, false},
		{"Remain 1 is not throttled", ThrottleHeaders{User: ThrottleQuota{Present: true, Remain: 1}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, tt.info.Throttled())
		})
	}
}

func FuzzParseThrottleHeader(f *testing.F) {
	for _, seed := range []string{
		"", ":", ",,,", "Remain", "Remain:", "Remain:abc",
		"TimeLeft:99999999999999999999", "TimeLeft:-5", "Time:-1",
		"Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000",
		"rémain:0,TİMELEFT:5,Reſet:1", "\xff\xfe:\x00", "Remain:-9223372036854775808",
		"Reset:9223372036854775807", "TimeLeft:9223372036854",
		strings.Repeat("Remain:0,", 2000) + "TimeLeft:" + strings.Repeat("9", 500),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, v string) {
		q := parseThrottleHeader(v)
		if q.TimeLeft < 0 || q.Window < 0 || q.Limit < 0 || q.Remain < -1 {
			t.Fatalf("parseThrottleHeader(%q) = %+v: negative field", v, q)
		}
		if !q.Present && q != (ThrottleQuota{Remain: -1}) {
			t.Fatalf("parseThrottleHeader(%q) = %+v: fields set but not present", v, q)
		}
		if q.Throttled() != (q.Present && q.Remain == 0) {
			t.Fatalf("parseThrottleHeader(%q): Throttled inconsistent", v)
		}
	})
}

func BenchmarkParseThrottleHeader(b *testing.B) {
	values := map[string]string{
		"full":      "Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000",
		"malformed": "Remain:abc, TimeLeft:99999999999999999999 ,:,,Foo:1",
	}
	for name, v := range values {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parseThrottleHeader(v)
			}
		})
	}
}

func TestParseThrottleHeaderDoesNotAllocate(t *testing.T) {
	v := "Remain:abc, TimeLeft:99999999999999999999 ,Remain:0,Limit:2,Time:1000,TimeLeft:122,Reset:1637835220000"
	require.Zero(t, testing.AllocsPerRun(100, func() { parseThrottleHeader(v) }))
}
