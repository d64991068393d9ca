package sidebyside

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
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
	getItemBody   = []byte(`{"TableName":"users","Key":{"id":{"S":"u-1"}}}`)
	getItemTarget = "DynamoDB_20120810.GetItem"
	getItemResp   = []byte(`{"Item":{"id":{"S":"u-1"},"name":{"S":"Ada"}}}`)
	errorResp     = []byte(`{"__type":"com.amazonaws.dynamodb.v20120810#InternalServerError","message":"try again"}`)
)

// server is the one loopback server: it answers GetItem, and in "one retry"
// mode it fails every odd request with HTTP 500 InternalServerError, so a
// serial caller makes exactly one retry per call.
type server struct {
	*httptest.Server
	failOdd atomic.Bool
	n       atomic.Int64
}

func newServer(b *testing.B) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.Header().Set("x-amzn-RequestId", "req-1")
		if s.failOdd.Load() && s.n.Add(1)%2 == 1 {
			w.Header().Set("X-Amzn-ErrorType", "InternalServerError")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write(errorResp)
			return
		}
		_, _ = w.Write(getItemResp)
	}))
	b.Cleanup(s.Close)
	return s
}

// httpClient is the transport every client shares: keep-alive to loopback.
func httpClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return &http.Client{Transport: t}
}

// item is what the hand-built and generic clients decode.
type item struct {
	Item map[string]map[string]string `json:"Item"`
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
func clients(b *testing.B, url, path string) []struct {
	name string
	call caller
} {
	hc := httpClient()
	zero := func() float64 { return 0 } // full jitter × 0: zero delay

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
	key := map[string]dynamodb.AttributeValue{"id": {S: aws.String("u-1")}}
	retrygen := func(ctx context.Context) error {
		out, err := gen.GetItem(ctx, &dynamodb.GetItemInput{TableName: "users", Key: key})
		if err != nil {
			return err
		}
		return checkName(*out.Item["name"].S)
	}

	// The same request by hand with net/http: no retries (the floor).
	byHand := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/", bytes.NewReader(getItemBody))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/x-amz-json-1.0")
		req.Header.Set("X-Amz-Target", getItemTarget)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			_, _ = io.Copy(io.Discard, resp.Body)
			return fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		var it item
		if err := json.NewDecoder(resp.Body).Decode(&it); err != nil {
			return err
		}
		return checkName(it.Item["name"]["S"])
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
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url+"/", getItemBody)
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
		var it item
		if err := json.NewDecoder(resp.Body).Decode(&it); err != nil {
			return err
		}
		return checkName(it.Item["name"]["S"])
	}

	// failsafe-go: its HTTP retry policy as a RoundTripper, 2 retries, no
	// delay.
	fsClient := &http.Client{Transport: failsafehttp.NewRoundTripper(hc.Transport,
		failsafehttp.NewRetryPolicyBuilder().WithMaxRetries(2).WithDelay(0).Build())}
	failsafe := func(ctx context.Context) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url+"/", bytes.NewReader(getItemBody))
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
		var it item
		if err := json.NewDecoder(resp.Body).Decode(&it); err != nil {
			return err
		}
		return checkName(it.Item["name"]["S"])
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

// BenchmarkGetItem runs every client on every path, interleaved within one
// run (-count N repeats the whole set): ns/op, B/op, allocs/op and
// cpu-ns/op, the process CPU per call (client and loopback server alike:
// wall time is noisy on a shared 2-core machine, CPU less so). "parallel"
// uses b.RunParallel, so -cpu 1,2,8 sets the callers.
func BenchmarkGetItem(b *testing.B) {
	for _, path := range []string{"success", "one-retry", "adaptive", "parallel"} {
		srv := newServer(b)
		srv.failOdd.Store(path == "one-retry")
		kind := path
		if path == "parallel" {
			kind = "success"
		}
		for _, c := range clients(b, srv.URL, kind) {
			if c.call == nil {
				continue
			}
			b.Run(path+"/"+c.name, func(b *testing.B) {
				ctx := context.Background()
				if err := c.call(ctx); err != nil { // warm the connection
					b.Fatal(err)
				}
				if srv.failOdd.Load() && srv.n.Load()%2 != 0 {
					srv.n.Add(1) // start each run on a failing request
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
