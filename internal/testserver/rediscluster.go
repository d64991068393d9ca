package testserver

import (
	"bytes"
	"fmt"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// RedisCluster is a Redis Cluster of three masters (no replicas) on
// 127.0.0.1 started by [StartRedisCluster] for one test.
type RedisCluster struct {
	// Addrs are the nodes' "127.0.0.1:PORT".
	Addrs []string
	// Nodes are the nodes, to Kill or Pause one.
	Nodes []*Redis
}

// StartRedisCluster starts three redis-servers with `--cluster-enabled yes`
// (each in its own t.TempDir, its cluster bus on PORT+10000), joins them with
// `redis-cli --cluster create … --cluster-replicas 0 --cluster-yes`, and
// returns once every node reports cluster_state:ok. t.Cleanup kills them.
// It fails the test when a node or the cluster does not come up within 30 s,
// and skips it when RETRYGEN_SKIP_SERVERS=1.
func StartRedisCluster(t testing.TB) *RedisCluster {
	t.Helper()
	InstallRedis(t)
	if _, err := exec.LookPath("redis-cli"); err != nil {
		t.Fatalf("testserver: redis-cli is not on PATH (Debian's redis-tools, installed with redis-server): %v", err)
	}
	c := &RedisCluster{}
	for range 3 {
		r := &Redis{t: t, dir: t.TempDir()}
		err := onFreePort(func(port int) error {
			if !portFree(port + 10000) {
				return fmt.Errorf("cluster bus port %d: address already in use", port+10000)
			}
			r.port, r.Addr = port, "127.0.0.1:"+strconv.Itoa(port)
			r.extra = []string{"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
				"--cluster-node-timeout", "5000"}
			return r.start()
		})
		if err != nil {
			t.Fatalf("testserver: cluster node: %v", err)
		}
		t.Cleanup(r.Kill)
		c.Nodes, c.Addrs = append(c.Nodes, r), append(c.Addrs, r.Addr)
	}
	began := time.Now()
	args := append([]string{"--cluster", "create"}, c.Addrs...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	out, err := exec.Command("redis-cli", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("testserver: redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, addr := range c.Addrs {
		for {
			info, err := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", strings.TrimPrefix(addr, "127.0.0.1:"), "cluster", "info").CombinedOutput()
			if err == nil && bytes.Contains(info, []byte("cluster_state:ok")) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("testserver: Redis Cluster node %s not ok within 30 s: %v\n%s", addr, err, info)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	t.Logf("testserver: Redis Cluster ready at %v after %v", c.Addrs, time.Since(began).Round(time.Millisecond))
	return c
}

// portFree reports whether port can be listened on at 127.0.0.1 now.
func portFree(port int) bool {
	l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	_ = l.Close()
	return true
}
