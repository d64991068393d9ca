package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// t0 is the fake clock's origin; at(ms) is t0 + ms.
var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func at(ms int64) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }

// throttled returns a throttled quota (Remain 0) with TimeLeft ms left.
func throttled(timeLeftMs int64) ThrottleQuota {
	return ThrottleQuota{Present: true, Remain: 0, TimeLeft: time.Duration(timeLeftMs) * time.Millisecond}
}

// record is one WindowStore.Record call.
type record struct {
	identity, operation string
	info                ThrottleHeaders
	atMs                int64
}

func TestWindowStoreBlocked(t *testing.T) {
	tests := []struct {
		name                string
		records             []record
		identity, operation string
		atMs                int64
		wantUntil           time.Time
		wantDimension       string
		wantOK              bool
	}{
		{"empty store blocks nothing", nil, "c1", "DescribeInstances", 0, time.Time{}, "", false},
		{"API + User window blocks its operation until now + TimeLeft",
			[]record{{"c1", "DescribeInstances", ThrottleHeaders{UserAPI: throttled(2000)}, 0}},
			"c1", "DescribeInstances", 500, at(2000), DimensionAPIUser, true},
		{"API + User window does not block another operation",
			[]record{{"c1", "DescribeInstances", ThrottleHeaders{UserAPI: throttled(2000)}, 0}},
			"c1", "RunInstances", 500, time.Time{}, "", false},
		{"API + User window does not block another identity",
			[]record{{"c1", "DescribeInstances", ThrottleHeaders{UserAPI: throttled(2000)}, 0}},
			"c2", "DescribeInstances", 500, time.Time{}, "", false},
		{"User window blocks every operation of the identity",
			[]record{{"c1", "DescribeInstances", ThrottleHeaders{User: throttled(900)}, 100}},
			"c1", "RunInstances", 400, at(1000), DimensionUser, true},
		{"User window does not block another identity",
			[]record{{"c1", "DescribeInstances", ThrottleHeaders{User: throttled(900)}, 100}},
			"c2", "RunInstances", 400, time.Time{}, "", false},
		{"window covers [start, end): one ms before the end still waits",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(2000)}, 0}},
			"c1", "Op", 1999, at(2000), DimensionAPIUser, true},
		{"window covers [start, end): exactly at the end nothing waits",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(2000)}, 0}},
			"c1", "Op", 2000, time.Time{}, "", false},
		{"window is the time left, not the window's full length (Java SDK defect)",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: ThrottleQuota{Present: true, Remain: 0, Window: 60 * time.Second, TimeLeft: 122 * time.Millisecond}}, 1000}},
			"c1", "Op", 1000, at(1122), DimensionAPIUser, true},
		{"both dimensions: the later end wins (User)",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(600), User: throttled(1500)}, 0}},
			"c1", "Op", 100, at(1500), DimensionUser, true},
		{"both dimensions: the later end wins (API + User)",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(2000), User: throttled(500)}, 0}},
			"c1", "Op", 100, at(2000), DimensionAPIUser, true},
		{"both dimensions ending together report User",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(700), User: throttled(700)}, 0}},
			"c1", "Op", 100, at(700), DimensionUser, true},
		{"after the User window ends the API + User window still blocks",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(2000), User: throttled(500)}, 0}},
			"c1", "Op", 500, at(2000), DimensionAPIUser, true},
		{"a later record extends the window",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(1000)}, 0}, {"c1", "Op", ThrottleHeaders{UserAPI: throttled(1000)}, 500}},
			"c1", "Op", 1200, at(1500), DimensionAPIUser, true},
		{"an earlier-ending record keeps the later end",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(3000)}, 0}, {"c1", "Op", ThrottleHeaders{UserAPI: throttled(100)}, 500}},
			"c1", "Op", 1200, at(3000), DimensionAPIUser, true},
		{"throttled without TimeLeft (error-code-only) sets no window",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: throttled(0), User: throttled(0)}, 0}},
			"c1", "Op", 0, time.Time{}, "", false},
		{"Remain -1 (quota sufficient) sets no window even with TimeLeft",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: ThrottleQuota{Present: true, Remain: -1, TimeLeft: time.Second}}, 0}},
			"c1", "Op", 0, time.Time{}, "", false},
		{"Remain above 0 sets no window",
			[]record{{"c1", "Op", ThrottleHeaders{User: ThrottleQuota{Present: true, Remain: 3, TimeLeft: time.Second}}, 0}},
			"c1", "Op", 0, time.Time{}, "", false},
		{"absent header (zero quota, not present) sets no window",
			[]record{{"c1", "Op", ThrottleHeaders{UserAPI: ThrottleQuota{TimeLeft: time.Second}}, 0}},
			"c1", "Op", 0, time.Time{}, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewWindowStore()
			for _, r := range tt.records {
				s.Record(r.identity, r.operation, r.info, at(r.atMs))
			}
			until, dim, ok := s.Blocked(tt.identity, tt.operation, at(tt.atMs))
			require.Equal(t, tt.wantOK, ok)
			require.Equal(t, tt.wantDimension, dim)
			require.True(t, tt.wantUntil.Equal(until), "until = %v, want %v", until, tt.wantUntil)
		})
	}
}

func TestWindowStoreWindows(t *testing.T) {
	s := NewWindowStore()
	s.Record("c1", "DescribeInstances", ThrottleHeaders{UserAPI: throttled(600), User: throttled(1500)}, at(100))
	tests := []struct {
		name          string
		operation     string
		atMs          int64
		wantAPIUser   time.Time
		wantUser      time.Time
		wantStoreSize int
	}{
		{"both windows in force for the recorded operation", "DescribeInstances", 200, at(700), at(1600), 2},
		{"only the User window for another operation", "RunInstances", 200, time.Time{}, at(1600), 2},
		{"API + User window ended at its end and is dropped", "DescribeInstances", 700, time.Time{}, at(1600), 1},
		{"User window ended at its end and is dropped", "RunInstances", 1600, time.Time{}, time.Time{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			api, user := s.Windows("c1", tt.operation, at(tt.atMs))
			require.True(t, tt.wantAPIUser.Equal(api), "apiUser = %v, want %v", api, tt.wantAPIUser)
			require.True(t, tt.wantUser.Equal(user), "user = %v, want %v", user, tt.wantUser)
			require.Len(t, s.ends, tt.wantStoreSize)
		})
	}
}

func TestWindowStoreSweepsExpiredWindowsOnRecord(t *testing.T) {
	s := NewWindowStore()
	for i := range 100 {
		s.Record("c1", fmt.Sprintf("Op%d", i), ThrottleHeaders{UserAPI: throttled(10)}, at(0))
	}
	require.Len(t, s.ends, 100)
	// All 100 windows ended at 10 ms; records at 20 ms sweep them within
	// len(ends) calls, so the store holds only live windows after 100 more.
	for i := range 100 {
		s.Record("c1", fmt.Sprintf("New%d", i), ThrottleHeaders{UserAPI: throttled(1000)}, at(20))
	}
	require.Len(t, s.ends, 100)
	for k, end := range s.ends {
		require.True(t, end.Equal(at(1020)), "window %v survived the sweep", k)
	}
}

func TestWindowStoreZeroValueIsUsable(t *testing.T) {
	var s WindowStore
	_, _, ok := s.Blocked("c1", "Op", at(0))
	require.False(t, ok)
	s.Record("c1", "Op", ThrottleHeaders{User: throttled(5)}, at(0))
	until, dim, ok := s.Blocked("c1", "Other", at(1))
	require.Equal(t, []any{at(5), DimensionUser, true}, []any{until, dim, ok})
}

func TestWindowStoreConcurrentUse(t *testing.T) {
	s := NewWindowStore()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				op := fmt.Sprintf("Op%d", i%7)
				s.Record("c1", op, ThrottleHeaders{UserAPI: throttled(int64(100 + g)), User: throttled(50)}, at(int64(i)))
				s.Blocked("c1", op, at(int64(i)))
				s.Windows("c1", op, at(int64(i)))
			}
		})
	}
	wg.Wait()
	// The last records were at 499 ms; the latest API + User end is
	// 499 + 107 ms for the operation recorded at 499 (Op2).
	until, dim, ok := s.Blocked("c1", "Op2", at(499))
	require.True(t, ok)
	require.Equal(t, DimensionAPIUser, dim)
	require.True(t, at(606).Equal(until), "until = %v", until)
}
