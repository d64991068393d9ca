// Package awsauth signs every attempt of a retrygen client with AWS
// Signature Version 4, using aws-sdk-go-v2's own signer (aws/signer/v4) and
// credentials (an aws.Config, as config.LoadDefaultConfig returns it: the
// environment, shared config and credentials files, SSO, web identity,
// ECS and EC2 instance roles, cached and refreshed by aws.CredentialsCache).
//
// One line plugs it into a generated client:
//
//	cfg, err := config.LoadDefaultConfig(ctx) // github.com/aws/aws-sdk-go-v2/config
//	client, err := dynamodb.New(awsauth.Endpoint(cfg, dynamodb.ServerURL),
//		func(o *dynamodb.Options) { awsauth.Use(&o.Options, cfg) })
//
// Every attempt is signed afresh (a new X-Amz-Date, the retry's own
// amz-sdk-request header) just before it is sent, after Options.BeforeAttempt
// and the call hooks set before Use; the payload hash (hex SHA-256 of the
// body) is computed once per call, on its first attempt. Generated code and
// the runtime never import this package, so a client that does not sign
// does not depend on aws-sdk-go-v2.
package awsauth

import (
	"context"
	"crypto/md5"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"

	"github.com/retrygen/retrygen/runtime"
)

// Options change how Use signs. The zero value takes everything from the
// aws.Config and the request.
type Options struct {
	// SigningName is the service's SigV4 signing name ("dynamodb",
	// "kinesis", "sqs"). "" takes the first label of an AWS endpoint's host
	// (dynamodb.us-east-1.amazonaws.com → dynamodb); any other host
	// (dynalite on 127.0.0.1) needs it set.
	SigningName string
	// Region is the SigV4 region; "" takes aws.Config.Region.
	Region string
	// Now is the signing time; nil takes the client's runtime.Options.Clock
	// when set, else time.Now.
	Now func() time.Time
}

// Use makes o sign every attempt with SigV4 for cfg's credentials and
// region. It wraps o.OnCall (keeping any hooks already there, which run
// first), so call it after setting other call hooks. Signing errors (no
// credentials, no region, an unknown signing name, a body that cannot be
// re-read for its hash) end the call before sending, as a
// *runtime.RequestHookError naming awsauth.
func Use(o *runtime.Options, cfg aws.Config, opts ...func(*Options)) {
	var so Options
	for _, f := range opts {
		f(&so)
	}
	if so.Region == "" {
		so.Region = cfg.Region
	}
	now := so.Now
	if now == nil && o.Clock != nil {
		now = o.Clock.Now
	}
	if now == nil {
		now = time.Now
	}
	s := &signer{creds: cfg.Credentials, opts: so, now: now, v4: v4.NewSigner()}
	prev := o.OnCall
	o.OnCall = func(ctx context.Context, call runtime.CallInfo) runtime.CallHooks {
		var h runtime.CallHooks
		if prev != nil {
			h = prev(ctx, call)
		}
		before := h.BeforeAttempt
		var hash string // the call's payload hash, computed on its first attempt
		h.BeforeAttempt = func(req *http.Request, attempt int) error {
			if before != nil {
				if err := before(req, attempt); err != nil {
					return err
				}
			}
			if hash == "" {
				var err error
				if hash, err = PayloadHash(req); err != nil {
					return err
				}
			}
			return s.sign(req, hash)
		}
		return h
	}
}

// signer signs requests for one client.
type signer struct {
	creds aws.CredentialsProvider
	opts  Options
	now   func() time.Time
	v4    *v4.Signer
}

// sign signs req with the call's payload hash.
func (s *signer) sign(req *http.Request, hash string) error {
	if s.creds == nil {
		return errors.New("awsauth: the aws.Config has no credentials provider (use config.LoadDefaultConfig)")
	}
	if s.opts.Region == "" {
		return errors.New("awsauth: no region: set AWS_REGION, region in the shared config, or awsauth.Options.Region")
	}
	name := s.opts.SigningName
	if name == "" {
		var ok bool
		if name, ok = SigningNameOf(req.URL.Hostname()); !ok {
			return fmt.Errorf("awsauth: cannot tell the SigV4 signing name from host %q; set awsauth.Options.SigningName (e.g. \"dynamodb\")", req.URL.Host)
		}
	}
	creds, err := s.creds.Retrieve(req.Context())
	if err != nil {
		return fmt.Errorf("awsauth: retrieving credentials: %w", err)
	}
	return s.v4.SignHTTP(req.Context(), creds, req, hash, name, s.opts.Region, s.now())
}

// SigningNameOf returns the SigV4 signing name of an AWS endpoint host, its
// first label (dynamodb.us-east-1.amazonaws.com → dynamodb; also
// amazonaws.com.cn), and false for any other host.
func SigningNameOf(host string) (string, bool) {
	for _, suffix := range []string{".amazonaws.com", ".amazonaws.com.cn"} {
		if rest, ok := strings.CutSuffix(strings.ToLower(host), suffix); ok && rest != "" {
			first, _, _ := strings.Cut(rest, ".")
			return first, true
		}
	}
	return "", false
}

// PayloadHash returns the hex SHA-256 of req's body (of no bytes when it has
// none), read through req.GetBody so req.Body is left for sending. It
// returns an error when req has a body but no GetBody, or GetBody or
// reading fails.
func PayloadHash(req *http.Request) (string, error) {
	h := sha256.New()
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return "", fmt.Errorf("awsauth: %s %s has a body but no GetBody to hash it", req.Method, req.URL.EscapedPath())
		}
		body, err := req.GetBody()
		if err != nil {
			return "", fmt.Errorf("awsauth: GetBody: %w", err)
		}
		defer body.Close()
		if _, err := io.Copy(h, body); err != nil {
			return "", fmt.Errorf("awsauth: reading the body: %w", err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ContentMD5 sets req's Content-MD5 header to the base64 MD5 of its body
// (RFC 1864), read through req.GetBody, unless the header is already set.
// S3 refuses some operations without it or an x-amz-checksum-* header
// ("Missing required header for this request: Content-Md5": DeleteObjects,
// PutBucketTagging, PutBucketLifecycleConfiguration, PutObjectLockConfiguration…,
// Smithy's @httpChecksumRequired), which aws-sdk-go-v2 adds itself; the
// aws2openapi spec does not mark those operations, so the generated client
// cannot. Its signature is runtime.Options.BeforeAttempt's: set it on the
// call (s3.DeleteObjects(ctx, in, func(o *s3.Options) { o.BeforeAttempt =
// awsauth.ContentMD5 })) or the client, before Use, whose signature then
// covers the header. It returns an error, ending the call unsent, when req
// has a body but no GetBody, or GetBody or reading fails.
func ContentMD5(req *http.Request, attempt int) error {
	if req.Header.Get("Content-MD5") != "" {
		return nil
	}
	h := md5.New()
	if req.Body != nil && req.Body != http.NoBody {
		if req.GetBody == nil {
			return fmt.Errorf("awsauth: %s %s has a body but no GetBody to take its MD5", req.Method, req.URL.EscapedPath())
		}
		body, err := req.GetBody()
		if err != nil {
			return fmt.Errorf("awsauth: GetBody: %w", err)
		}
		defer body.Close()
		if _, err := io.Copy(h, body); err != nil {
			return fmt.Errorf("awsauth: reading the body: %w", err)
		}
	}
	req.Header.Set("Content-MD5", base64.StdEncoding.EncodeToString(h.Sum(nil)))
	return nil
}

// Endpoint returns the service endpoint for cfg's region from a generated
// client's server URL builder (its ServerURL function, which fills the
// spec's {region} server variable), with https: AWS endpoints take HTTPS,
// while aws2openapi's specs list http URLs.
func Endpoint(cfg aws.Config, serverURL func(vars map[string]string) string) string {
	u := serverURL(map[string]string{"region": cfg.Region})
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		host, _, _ := strings.Cut(rest, "/")
		if _, aws := SigningNameOf(strings.Split(host, ":")[0]); aws {
			return "https://" + rest
		}
	}
	return u
}
