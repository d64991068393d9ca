package testserver

import (
	"bytes"
	"fmt"
	"net"
	"os"
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

// RedisSentinel is one redis-server in Sentinel mode watching one master,
// started by [StartRedisSentinel].
type RedisSentinel struct {
	// Addr is the sentinel's "127.0.0.1:PORT"; MasterName the name it
	// knows the master by ("retrygen").
	Addr, MasterName string
}

// StartRedisSentinel starts `redis-server sentinel.conf --sentinel` on a free
// port (in its own t.TempDir; Sentinel rewrites its config file) monitoring
// master under the name "retrygen" with a quorum of 1, and returns once it
// reports the master's address. t.Cleanup kills it. It fails the test when
// it does not within 10 s.
func StartRedisSentinel(t testing.TB, master *Redis) *RedisSentinel {
	t.Helper()
	dir := t.TempDir()
	s := &RedisSentinel{MasterName: "retrygen"}
	var p *proc
	err := onFreePort(func(port int) error {
		conf := fmt.Sprintf("port %d\nbind 127.0.0.1\ndir %s\nsentinel monitor %s 127.0.0.1 %d 1\n", port, dir, s.MasterName, master.port)
		path := dir + "/sentinel.conf"
		if err := os.WriteFile(path, []byte(conf), 0o644); err != nil {
			return err
		}
		var err error
		if p, err = startProc(dir, "redis-server", path, "--sentinel"); err != nil {
			return err
		}
		s.Addr = "127.0.0.1:" + strconv.Itoa(port)
		deadline := time.Now().Add(redisStartTimeout)
		for {
			out, err := exec.Command("redis-cli", "-h", "127.0.0.1", "-p", strconv.Itoa(port), "sentinel", "get-master-addr-by-name", s.MasterName).CombinedOutput()
			if err == nil && bytes.Contains(out, []byte(strconv.Itoa(master.port))) {
				return nil
			}
			select {
			case <-p.exited:
				return fmt.Errorf("redis sentinel on port %d exited; output:\n%s", port, p.out.String())
			default:
			}
			if time.Now().After(deadline) {
				p.kill()
				return fmt.Errorf("redis sentinel on port %d: no master within %v: %v %s; output:\n%s", port, redisStartTimeout, err, out, p.out.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
	if err != nil {
		t.Fatalf("testserver: %v", err)
	}
	t.Cleanup(p.kill)
	return s
}
