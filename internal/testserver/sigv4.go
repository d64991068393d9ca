package testserver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
)

// fakeCredentials sign requests for dynalite and kinesalite, which check the
// shape of the Authorization header but not the signature.
var fakeCredentials = aws.Credentials{AccessKeyID: "AKIDRETRYGENTEST", SecretAccessKey: "retrygen-test-secret"}

// SignV4 returns a per-attempt request hook, the shape of
// runtime.Options.BeforeAttempt, that signs req with AWS Signature Version 4
// (aws-sdk-go-v2 aws/signer/v4) for service (e.g. "dynamodb", "kinesis") and
// region, using fixed fake credentials and the current time. Called before
// every attempt, it re-signs each retry with a fresh X-Amz-Date.
//
// The payload hash is the hex sha256 of the body, read through req.GetBody so
// req.Body is left for sending. It returns an error when req has a body but
// no GetBody, or when GetBody or signing fails.
func SignV4(service, region string) func(req *http.Request, attempt int) error {
	signer := v4.NewSigner()
	return func(req *http.Request, _ int) error {
		hash, err := payloadHash(req)
		if err != nil {
			return err
		}
		return signer.SignHTTP(context.Background(), fakeCredentials, req, hash, service, region, time.Now())
	}
}

// payloadHash is the hex sha256 of req's body (of no bytes when it has none).
func payloadHash(req *http.Request) (string, error) {
	h := sha256.New()
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return "", fmt.Errorf("testserver: SignV4: %s %s has a body but no GetBody to read it for the payload hash", req.Method, req.URL)
		}
		body, err := req.GetBody()
		if err != nil {
			return "", fmt.Errorf("testserver: SignV4: GetBody: %w", err)
		}
		defer body.Close()
		if _, err := io.Copy(h, body); err != nil {
			return "", fmt.Errorf("testserver: SignV4: reading the body: %w", err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
