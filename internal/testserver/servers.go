package testserver

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// StartDynalite runs dynalite@4.0.0 (DynamoDB, in memory, tables leave
// CREATING/DELETING after its default 500 ms) on a free 127.0.0.1 port for the
// rest of the test and returns its endpoint, "http://127.0.0.1:PORT".
// dynalite requires an `Authorization: AWS4-HMAC-SHA256 …` header and
// X-Amz-Date on every request but does not verify signatures: see [SignV4].
// It fails the test when the server cannot be installed or started within
// 15 s; see [Install] for skipping.
func StartDynalite(t testing.TB) string {
	t.Helper()
	return start(t, server{
		name: "dynalite",
		args: func(dir string, port int) []string {
			return []string{bin(dir, "dynalite"), "--host", "127.0.0.1", "--port", strconv.Itoa(port)}
		},
		startTimeout: 15 * time.Second,
	})
}

// kinesaliteMain starts kinesalite on 127.0.0.1 only: its CLI has no --host
// flag and would listen on every interface. Arguments: module dir, port.
const kinesaliteMain = `const [dir, port] = process.argv.slice(1);
const server = require(dir)({}).listen(Number(port), "127.0.0.1", () => {
  const a = server.address();
  console.log("Listening at http://%s:%s", a.address, a.port);
});`

// StartKinesalite runs kinesalite@3.3.3 (Kinesis, in memory, streams leave
// CREATING/DELETING after its default 500 ms) on a free 127.0.0.1 port for
// the rest of the test and returns its endpoint, "http://127.0.0.1:PORT". It
// requires SigV4-shaped requests like dynalite (see [SignV4]). It fails the
// test when the server cannot be installed or started within 15 s.
func StartKinesalite(t testing.TB) string {
	t.Helper()
	return start(t, server{
		name: "kinesalite",
		args: func(dir string, port int) []string {
			return []string{"-e", kinesaliteMain, "--", filepath.Join(dir, "node_modules", "kinesalite"), strconv.Itoa(port)}
		},
		startTimeout: 15 * time.Second,
	})
}

// prismStartTimeout bounds Prism's start-up; it needs 1.4 s for a tiny spec
// and 4.5 s for Box's 296 operations on an idle machine, but about 100 s
// for Discord's at a load average of 29 (2 cores).
const prismStartTimeout = 180 * time.Second

// StartPrism runs `prism mock -h 127.0.0.1 -p PORT specPath [extraArgs…]`
// (@stoplight/prism-cli@5.14.2) for the rest of the test and returns its
// endpoint, "http://127.0.0.1:PORT". Prism answers every operation of the
// spec from its examples and validates every request against the spec; see
// [PrismTransport] for telling an accepted request from a rejected one.
// extraArgs are added after the spec path (e.g. "--dynamic"). specPath is
// made absolute. It fails the test when Prism cannot be installed or does not
// answer HTTP within 60 s.
func StartPrism(t testing.TB, specPath string, extraArgs ...string) string {
	t.Helper()
	spec, err := filepath.Abs(specPath)
	if err != nil {
		t.Fatalf("testserver: prism spec %s: %v", specPath, err)
	}
	return start(t, server{
		name: "prism",
		args: func(dir string, port int) []string {
			args := []string{bin(dir, "prism"), "mock", "-h", "127.0.0.1", "-p", strconv.Itoa(port), spec}
			return append(args, extraArgs...)
		},
		startTimeout: prismStartTimeout,
	})
}

// bin is the path of an installed package's executable script.
func bin(dir, name string) string {
	return filepath.Join(dir, "node_modules", ".bin", name)
}
