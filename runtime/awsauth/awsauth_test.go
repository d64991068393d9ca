package awsauth_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	awsddb "github.com/aws/aws-sdk-go-v2/service/dynamodb"
	awsddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/retrygen/retrygen/golden/dynamodb"
	"github.com/retrygen/retrygen/golden/kinesis"
	"github.com/retrygen/retrygen/internal/testserver"
	"github.com/retrygen/retrygen/runtime"
	"github.com/retrygen/retrygen/runtime/awsauth"
	"github.com/retrygen/retrygen/runtime/clocktest"
)

// captured records every request a loopback server receives.
type captured struct {
	mu     sync.Mutex
	reqs   []*http.Request
	bodies [][]byte
}

func (c *captured) server(t *testing.T, status int, body string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.reqs = append(c.reqs, r.Clone(context.Background()))
		c.bodies = append(c.bodies, b)
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

var creds = credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "")

// TestSignatureMatchesAWSSDK sends one PutItem with aws-sdk-go-v2's own
// DynamoDB client and the same PutItem with the generated client signed by
// awsauth, to one loopback server. With the same credentials, region, signing
// time (the one aws-sdk-go-v2 used, on a fixed clock) and the same headers
// (aws-sdk-go-v2's copied onto the attempt by BeforeAttempt), the bodies are
// byte-identical and so is the Authorization header.
func TestSignatureMatchesAWSSDK(t *testing.T) {
	var v2 captured
	v2srv := v2.server(t, 200, `{}`)
	sdk := awsddb.New(awsddb.Options{Region: "us-east-1", Credentials: creds, BaseEndpoint: aws.String(v2srv.URL)})
	_, err := sdk.PutItem(context.Background(), &awsddb.PutItemInput{
		TableName: aws.String("users"),
		Item:      map[string]awsddbtypes.AttributeValue{"pk": &awsddbtypes.AttributeValueMemberS{Value: "user#1"}},
	})
	require.NoError(t, err)
	require.Len(t, v2.reqs, 1)
	want := v2.reqs[0]
	at, err := time.Parse("20060102T150405Z", want.Header.Get("X-Amz-Date"))
	require.NoError(t, err)

	// The same host too: one server.
	c, err := dynamodb.New(v2srv.URL, func(o *dynamodb.Options) {
		o.Clock = clocktest.New(at) // the fixed clock awsauth signs with
		o.BeforeAttempt = func(req *http.Request, _ int) error {
			// The same request: aws-sdk-go-v2's headers, nothing else.
			req.Header = http.Header{}
			for k, v := range want.Header {
				switch k {
				case "Authorization", "X-Amz-Date", "Content-Length":
				default:
					req.Header[k] = v
				}
			}
			return nil
		}
		awsauth.Use(&o.Options, aws.Config{Region: "us-east-1", Credentials: creds}, func(so *awsauth.Options) { so.SigningName = "dynamodb" })
	})
	require.NoError(t, err)
	_, err = c.PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName: "users",
		Item:      map[string]dynamodb.AttributeValue{"pk": {S: aws.String("user#1")}},
	})
	require.NoError(t, err)
	require.Len(t, v2.reqs, 2)
	got := v2.reqs[1]
	require.Equal(t, string(v2.bodies[0]), string(v2.bodies[1]), "the same body, so the same payload hash")
	require.Equal(t, want.Header.Get("X-Amz-Date"), got.Header.Get("X-Amz-Date"))
	require.NotEmpty(t, want.Header.Get("Authorization"))
	require.Equal(t, want.Header.Get("Authorization"), got.Header.Get("Authorization"))
	t.Logf("Authorization: %s", got.Header.Get("Authorization"))
}

// TestEveryAttemptSignedHashOnce: a throttled attempt and its retry are
// each signed at their own time, and the body is read for its hash once
// per call.
func TestEveryAttemptSignedHashOnce(t *testing.T) {
	var seen captured
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		seen.mu.Lock()
		seen.reqs = append(seen.reqs, r.Clone(context.Background()))
		calls++
		n := calls
		seen.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		if n == 1 {
			w.WriteHeader(400)
			_, _ = io.WriteString(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ThrottlingException","message":"slow down"}`)
			return
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	clock := clocktest.New(time.Date(2026, 12, 1, 21, 0, 0, 0, time.UTC))
	reads := 0
	c, err := dynamodb.New(srv.URL, func(o *dynamodb.Options) {
		o.Clock, o.Rand = clock, func() float64 { return 0.5 }
		o.BeforeAttempt = func(req *http.Request, _ int) error {
			get := req.GetBody
			req.GetBody = func() (io.ReadCloser, error) { reads++; return get() }
			return nil
		}
		awsauth.Use(&o.Options, aws.Config{Region: "eu-west-1", Credentials: creds}, func(so *awsauth.Options) { so.SigningName = "dynamodb" })
	})
	require.NoError(t, err)
	_, err = c.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: "t", Item: map[string]dynamodb.AttributeValue{"pk": {S: aws.String("a")}}})
	require.NoError(t, err)
	require.Len(t, seen.reqs, 2)
	require.Equal(t, "20261201T210000Z", seen.reqs[0].Header.Get("X-Amz-Date"))
	require.Equal(t, "20261201T210000Z", seen.reqs[1].Header.Get("X-Amz-Date"), "the fake clock slept 500 ms: same second")
	a1, a2 := seen.reqs[0].Header.Get("Authorization"), seen.reqs[1].Header.Get("Authorization")
	require.True(t, strings.HasPrefix(a1, "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/eu-west-1/dynamodb/aws4_request, SignedHeaders="), a1)
	require.NotEqual(t, a1, a2, "the retry is signed afresh (its amz-sdk-request header differs)")
	require.Contains(t, a2, "amz-sdk-request")
	require.Equal(t, 1, reads, "the payload hash is computed once per call")
}

// TestSignedRequestsAcceptedByDynaliteAndKinesalite loads credentials and
// region through aws-sdk-go-v2's default chain (here: the environment) and
// calls dynalite and kinesalite, which refuse requests without a SigV4
// Authorization header.
func TestSignedRequestsAcceptedByDynaliteAndKinesalite(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDRETRYGENTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "retrygen-test-secret")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	cfg, err := config.LoadDefaultConfig(context.Background())
	require.NoError(t, err)
	ctx := context.Background()

	ddb, err := dynamodb.New(testserver.StartDynalite(t), func(o *dynamodb.Options) {
		awsauth.Use(&o.Options, cfg, func(so *awsauth.Options) { so.SigningName = "dynamodb" })
	})
	require.NoError(t, err)
	tables, err := ddb.ListTables(ctx, &dynamodb.ListTablesInput{})
	require.NoError(t, err)
	require.Empty(t, tables.TableNames)

	kin, err := kinesis.New(testserver.StartKinesalite(t), func(o *kinesis.Options) {
		awsauth.Use(&o.Options, cfg, func(so *awsauth.Options) { so.SigningName = "kinesis" })
	})
	require.NoError(t, err)
	streams, err := kin.ListStreams(ctx, &kinesis.ListStreamsInput2{})
	require.NoError(t, err)
	require.Empty(t, streams.StreamNames)

	// Unsigned, dynalite refuses the same call.
	bare, err := dynamodb.New(testserver.StartDynalite(t))
	require.NoError(t, err)
	_, err = bare.ListTables(ctx, &dynamodb.ListTablesInput{})
	require.Error(t, err)
}

// TestSigningErrors: no credentials, no region and an unknown signing name
// end the call before sending, naming what to set.
func TestSigningErrors(t *testing.T) {
	sent := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sent++ }))
	defer srv.Close()
	for _, tc := range []struct {
		cfg  aws.Config
		want string
	}{
		{aws.Config{Region: "us-east-1"}, "awsauth: the aws.Config has no credentials provider"},
		{aws.Config{Credentials: creds}, "awsauth: no region"},
		{aws.Config{Region: "us-east-1", Credentials: creds}, `awsauth: cannot tell the SigV4 signing name from host "127.0.0.1`},
	} {
		c, err := dynamodb.New(srv.URL, func(o *dynamodb.Options) { awsauth.Use(&o.Options, tc.cfg) })
		require.NoError(t, err)
		_, err = c.ListTables(context.Background(), &dynamodb.ListTablesInput{})
		var hook *runtime.RequestHookError
		require.ErrorAs(t, err, &hook)
		require.Contains(t, err.Error(), tc.want)
	}
	require.Zero(t, sent)
}

// TestEndpoint fills the spec's {region} server variable and upgrades an
// AWS endpoint to https.
func TestEndpoint(t *testing.T) {
	require.Equal(t, "https://dynamodb.eu-west-1.amazonaws.com", awsauth.Endpoint(aws.Config{Region: "eu-west-1"}, dynamodb.ServerURL))
	require.Equal(t, "https://dynamodb.us-east-1.amazonaws.com", awsauth.Endpoint(aws.Config{}, dynamodb.ServerURL), "the spec's default region")
	local := func(map[string]string) string { return "http://127.0.0.1:8000" }
	require.Equal(t, "http://127.0.0.1:8000", awsauth.Endpoint(aws.Config{Region: "x"}, local))
	name, ok := awsauth.SigningNameOf("sqs.ap-south-1.amazonaws.com")
	require.True(t, ok)
	require.Equal(t, "sqs", name)
	_, ok = awsauth.SigningNameOf("amazonaws.com")
	require.False(t, ok)
}

// ContentMD5 sets the base64 MD5 of the body (RFC 1864; openssl md5 -binary | base64 of
// "Check Integrity!"), leaves a set header alone, and refuses a body it cannot re-read.
func TestContentMD5(t *testing.T) {
	req, err := http.NewRequest(http.MethodPost, "https://b.s3.amazonaws.com/?delete", strings.NewReader("Check Integrity!"))
	if err != nil {
		t.Fatal(err)
	}
	if err := awsauth.ContentMD5(req, 1); err != nil || req.Header.Get("Content-MD5") != "nwqq6b6ua/tTDk7B5M184w==" {
		t.Fatalf("%q %v", req.Header.Get("Content-MD5"), err)
	}
	req.Header.Set("Content-MD5", "x")
	if err := awsauth.ContentMD5(req, 2); err != nil || req.Header.Get("Content-MD5") != "x" {
		t.Fatalf("%q %v", req.Header.Get("Content-MD5"), err)
	}
	empty, _ := http.NewRequest(http.MethodPut, "https://b.s3.amazonaws.com/?tagging", nil)
	if err := awsauth.ContentMD5(empty, 1); err != nil || empty.Header.Get("Content-MD5") != "1B2M2Y8AsgTpgAmY7PhCfg==" {
		t.Fatalf("%q %v", empty.Header.Get("Content-MD5"), err)
	}
	req.Header.Del("Content-MD5")
	req.GetBody = nil
	if err := awsauth.ContentMD5(req, 1); err == nil || !strings.Contains(err.Error(), "no GetBody") {
		t.Fatal(err)
	}
}

// TestBodyErrorsNameNoQuery: an error about a body without GetBody names the
// method and path only: the query may carry credentials (a presigned URL's
// X-Amz-Signature, an API key), and errors reach logs (review).
func TestBodyErrorsNameNoQuery(t *testing.T) {
	req, err := http.NewRequest("PUT", "https://bkt.s3.amazonaws.com/k?X-Amz-Signature=secret&key=secret2", nil)
	require.NoError(t, err)
	req.Body = io.NopCloser(strings.NewReader("x"))
	_, err = awsauth.PayloadHash(req)
	require.EqualError(t, err, "awsauth: PUT /k has a body but no GetBody to hash it")
	err = awsauth.ContentMD5(req, 1)
	require.EqualError(t, err, "awsauth: PUT /k has a body but no GetBody to take its MD5")
}
