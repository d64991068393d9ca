package testserver_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/internal/testserver"
)

// TestRedisLifecycle: a started server answers PING on its own 127.0.0.1
// port; Kill stops it at once; Restart brings it back on the same address.
func TestRedisLifecycle(t *testing.T) {
	r := testserver.StartRedis(t)
	require.Regexp(t, `^127\.0\.0\.1:\d+$`, r.Addr)
	require.NoError(t, testserver.Ping(r.Addr))
	r.Kill()
	require.Error(t, testserver.Ping(r.Addr), "a killed server answers nothing")
	r.Restart()
	require.NoError(t, testserver.Ping(r.Addr))
	other := testserver.StartRedis(t)
	require.NotEqual(t, r.Addr, other.Addr, "one server per test, each on its own port")
}
