package sidebyside

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	awstypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/failsafe-go/failsafe-go/failsafehttp"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/retrygen/retrygen/golden/dynamodb"
	"github.com/retrygen/retrygen/runtime"
)

// The request every client makes and the response the server gives.
var (
	getItemTarget = "DynamoDB_20120810.GetItem"
	getItemResp   = []byte(`{"Item":{"id":{"S":"u-1"},"name":{"S":"Ada"}}}`)
	errorResp     = []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"try again"}`)
)

// The loopback server runs in a process of its own (this test binary,
// re-executed with serverEnv set), so the cpu-ns/op a benchmark reports is
// the calling side's CPU alone. It listens on two ports: one always
// answers GetItem; on the other every odd request since the last GET
// /__reset fails with HTTP 500 InternalServerError, so a serial caller
// makes exactly one retry per call.
const serverEnv = "RETRYGEN_SIDEBYSIDE_SERVER"

// TestMain runs the loopback server instead of the tests when serverEnv is
// set; the server prints its two URLs on one line and exits when its stdin
// closes (when the benchmark process ends).
func TestMain(m *testing.M) {
	if os.Getenv(serverEnv) == "1" {
		serve()
		return
	}
	os.Exit(m.Run())
}

// serve is the server process's main.
func serve() {
	listen := func(failOdd bool) string {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		var n atomic.Int64
		go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/__reset" {
				n.Store(0)
				return
			}
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/x-amz-json-1.0")
			w.Header().Set("x-amzn-RequestId", "req-1")
			if failOdd && n.Add(1)%2 == 1 {
				w.Header().Set("X-Amzn-ErrorType", "InternalServerError")
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write(errorResp)
				return
			}
			_, _ = w.Write(getItemResp)
		}))
		return "http://" + ln.Addr().String()
	}
	fmt.Println(listen(false), listen(true))
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// servers holds the URLs of the one server process of this benchmark run.
var servers struct {
	once             sync.Once
	success, oneFail string
	err              error
	// stdin is the server's standard input, held open (and reachable, so
	// no finalizer closes it) until this process exits.
	stdin io.WriteCloser
}

// serverURL starts the server process once and returns the URL for path:
// the failing-odd listener for "one-retry", else the always-succeeding one.
func serverURL(b *testing.B, path string) string {
	servers.once.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			servers.err = err
			return
		}
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), serverEnv+"=1")
		cmd.Stderr = os.Stderr
		servers.stdin, err = cmd.StdinPipe()
		if err != nil {
			servers.err = err
			return
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			servers.err = err
			return
		}
		if servers.err = cmd.Start(); servers.err != nil {
			return
		}
		var line string
		line, servers.err = bufio.NewReader(stdout).ReadString('\n')
		if f := strings.Fields(line); servers.err == nil && len(f) == 2 {
			servers.success, servers.oneFail = f[0], f[1]
		} else if servers.err == nil {
			servers.err = fmt.Errorf("server printed %q", line)
		}
	})
	if servers.err != nil {
		b.Fatal(servers.err)
	}
	if path == "one-retry" {
		return servers.oneFail
	}
	return servers.success
}

// resetFailures makes the next request to the failing-odd listener fail.
func resetFailures(b *testing.B, hc *http.Client) {
	resp, err := hc.Get(servers.oneFail + "/__reset")
	if err != nil {
		b.Fatal(err)
	}
	_ = resp.Body.Close()
}

// httpClient is the transport every client shares: keep-alive to loopback.
func httpClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}

// typedBody encodes the typed GetItem input, as every generic contender
// does per call (the generated client does too).
func typedBody(key map[string]dynamodb.AttributeValue) ([]byte, error) {
	return json.Marshal(&dynamodb.GetItemInput{TableName: "users", Key: key})
}

// decodeTyped decodes a 2xx response into the generated client's typed
// output, request ID included, and checks the item: every contender ends
// with the same value the generated client returns.
func decodeTyped(resp *http.Response) error {
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	out := new(dynamodb.GetItemOutput)
	if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
		return err
	}
	out.ResultMetadata.RequestID = resp.Header.Get("X-Amzn-Requestid")
	return checkName(*out.Item["name"].S)
}

// caller makes one GetItem call and checks the item came back.
type caller func(ctx context.Context) error

func checkName(name string) error {
	if name != "Ada" {
		return fmt.Errorf("got name %q", name)
	}
	return nil
}

// clients builds every contender for one path ("success", "one-retry",
// "adaptive") against url. A nil caller means the client has no such mode.
func clients(b testing.TB, url, path string, hc *http.Client) []struct {
	name string
	call caller
} {
	zero := func() float64 { return 0 } // full jitter × 0: zero delay

	key := map[string]dynamodb.AttributeValue{"id": {S: aws.String("u-1")}}

	// retrygen's generated client.
	mode := runtime.ModeStandard
	if path == "adaptive" {
		mode = runtime.ModeAdaptive
	}
	gen, err := dynamodb.New(url, func(o *dynamodb.Options) {
		o.HTTPClient, o.RetryMode, o.MaxAttempts, o.Rand = hc, mode, 3, zero
	})
	if err != nil {
		b.Fatal(err)
	}
	retrygen := func(ctx context.Context) error {
		out, err := gen.GetItem(ctx, &dynamodb.GetItemInput{TableName: "users", Key: key})
		if err != nil {
			return err
		}
		return checkName(*out.Item["name"].S)
	}

	// The same request by hand with net/http, no retries: the floor. It
	// sends the headers retrygen sends (TestByHandSendsRetrygensHeaders:
	// Accept, Accept-Encoding, Content-Type, X-Amz-Target, a fresh
	// invocation id, the attempt header), encodes the same typed input and
	// decodes into the same typed output, request ID included.
	byHand := func(ctx context.Context) error {
		body, err := typedBody(key)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")  // the 2xx media type the spec declares
		req.Header.Set("Accept-Encoding", "identity") // DynamoDB checksums the bytes it sends
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", getItemTarget)
		req.Header.Set("Amz-Sdk-Invocation-Id", runtime.NewUUID())
		req.Header.Set("Amz-Sdk-Request", "attempt=1; max=3")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return decodeTyped(resp)
	}

	// aws-sdk-go-v2, with SigV4 (static credentials) and anonymous.
	awsClient := func(creds aws.CredentialsProvider) caller {
		c := awsddb.New(awsddb.Options{
			BaseEndpoint: aws.String(url), Region: "us-east-1", Credentials: creds, HTTPClient: hc,
			Retryer: func() aws.Retryer {
				so := func(o *awsretry.StandardOptions) {
					o.MaxAttempts = 3
					o.Backoff = awsretry.BackoffDelayerFunc(func(int, error) (time.Duration, error) { return 0, nil })
				}
				if path == "adaptive" {
					return awsretry.NewAdaptiveMode(func(o *awsretry.AdaptiveModeOptions) {
						o.StandardOptions = append(o.StandardOptions, so)
					})
				}
				return awsretry.NewStandard(so)
			}(),
		})
		in := &awsddb.GetItemInput{TableName: aws.String("users"), Key: map[string]awstypes.AttributeValue{"id": &awstypes.AttributeValueMemberS{Value: "u-1"}}}
		return func(ctx context.Context) error {
			out, err := c.GetItem(ctx, in)
			if err != nil {
				return err
			}
			return checkName(out.Item["name"].(*awstypes.AttributeValueMemberS).Value)
		}
	}

	// hashicorp/go-retryablehttp: 2 retries, zero wait.
	rh := retryablehttp.NewClient()
	rh.HTTPClient, rh.Logger, rh.RetryMax = hc, nil, 2
	rh.RetryWaitMin, rh.RetryWaitMax = 0, 0
	rh.Backoff = func(_, _ time.Duration, _ int, _ *http.Response) time.Duration { return 0 }
	retryable := func(ctx context.Context) error {
		body, err := typedBody(key)
		if err != nil {
			return err
		}
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url+"/", body)
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", getItemTarget)
		resp, err := rh.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return decodeTyped(resp)
	}

	// failsafe-go: its HTTP retry policy as a RoundTripper, 2 retries, no
	// delay.
	fsClient := &http.Client{Transport: failsafehttp.NewRoundTripper(hc.Transport,
		failsafehttp.NewRetryPolicyBuilder().WithMaxRetries(2).WithDelay(0).Build())}
	failsafe := func(ctx context.Context) error {
		body, err := typedBody(key)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", getItemTarget)
		resp, err := fsClient.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		return decodeTyped(resp)
	}

	all := []struct {
		name string
		call caller
	}{
		{"retrygen", retrygen},
		{"nethttp-by-hand", byHand},
		{"aws-sdk-go-v2-sigv4", awsClient(credentials.NewStaticCredentialsProvider("AKID", "SECRET", ""))},
		{"aws-sdk-go-v2-anonymous", awsClient(aws.AnonymousCredentials{})},
		{"retryablehttp", retryable},
		{"failsafe-go", failsafe},
	}
	switch path {
	case "one-retry":
		all[1].call = nil // by hand has no retries
	case "adaptive":
		all[1].call, all[4].call, all[5].call = nil, nil, nil // no adaptive mode
	}
	return all
}

// cpuTime is the process's user + system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// warmup is how many calls each client makes before it is measured, so that
// its connections, pools and the process's heap are in their steady state
// whichever client runs first in the process (the first measured one paid
// for the heap's growth: 25–28 % more CPU per call, whichever it was).
const warmup = 300

// BenchmarkGetItem runs every client on every path (sidebyside.sh runs each
// client in a process of its own, in a rotating order): ns/op, B/op,
// allocs/op and cpu-ns/op, this process's CPU per call — the calling side
// alone, since the server is another process. Names are key=value
// (GetItem/path=success/client=retrygen) so that benchstat -col /client
// compares the clients. "parallel" uses b.RunParallel, so -cpu 1,2,8 sets
// the callers.
func BenchmarkGetItem(b *testing.B) {
	for _, path := range []string{"success", "one-retry", "adaptive", "parallel"} {
		kind := path
		if path == "parallel" {
			kind = "success"
		}
		url := serverURL(b, kind)
		hc := httpClient()
		for _, c := range clients(b, url, kind, hc) {
			if c.call == nil {
				continue
			}
			b.Run("path="+path+"/client="+c.name, func(b *testing.B) {
				ctx := context.Background()
				for range warmup { // connections, pools, the heap's size: the steady state
					if err := c.call(ctx); err != nil {
						b.Fatal(err)
					}
				}
				if kind == "one-retry" {
					resetFailures(b, hc) // start each run on a failing request
				}
				b.ReportAllocs()
				start := cpuTime()
				if path == "parallel" {
					b.RunParallel(func(pb *testing.PB) {
						for pb.Next() {
							if err := c.call(ctx); err != nil {
								b.Error(err)
								return
							}
						}
					})
				} else {
					for b.Loop() {
						if err := c.call(ctx); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// The by-hand floor is fair: the server receives the same header keys and
// values from it as from retrygen, but the invocation ID (a UUID v4 each).
func TestByHandSendsRetrygensHeaders(t *testing.T) {
	var mu sync.Mutex
	var got []http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Clone())
		mu.Unlock()
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		_, _ = w.Write(getItemResp)
	}))
	defer srv.Close()
	all := clients(t, srv.URL, "success", httpClient())
	for _, c := range all[:2] { // retrygen, then by hand
		if err := c.call(context.Background()); err != nil {
			t.Fatal(c.name, err)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d requests", len(got))
	}
	for _, h := range got {
		if id := h.Get("Amz-Sdk-Invocation-Id"); len(id) != 36 {
			t.Fatalf("invocation id %q", id)
		}
		h.Del("Amz-Sdk-Invocation-Id")
	}
	if a, b := fmt.Sprint(got[0]), fmt.Sprint(got[1]); a != b {
		t.Fatalf("retrygen sends\n%s\nby hand sends\n%s", a, b)
	}
}
