package runtime

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/retrygen/retrygen/runtime/internal/querymark"
)

// DotSegmentPathParameter is the [InvalidParamError] reason of a path whose
// segment is "." or ".." (also percent-encoded, "%2e%2E"): a server or proxy
// that removes dot segments (RFC 3986 §5.2.4) would serve another resource,
// the parent of the one the caller named.
const DotSegmentPathParameter = "dot segment in path parameter"

// checkTarget refuses, before the first attempt, a call that could leave
// the servers the spec allows for op, or reach another resource: a call
// Endpoint (opts) whose origin is neither the client's endpoint's nor one
// of op.Servers' (checkEndpoint), a Path that is neither empty nor starts
// with "/" (appended to the endpoint it would change its host or port:
// "@evil.example/x", ":8080/x", ".evil.example/x"), or a Path with a "."
// or ".." segment. The attempt's URL is the endpoint (the client's, fixed
// at NewClient, or the checked call Endpoint) followed by Path, so with
// these checks no spec and no input can send a request, or the credentials
// it carries, to another scheme, host or port. It returns the call
// Endpoint parsed (nil for the client's), which every attempt and stream
// resume of the call uses (callMachine.endpoint), or an
// *InvalidParamsError (field "Options.Endpoint" or "Request.Path").
func (c *Client) checkTarget(op *Operation, req *Request, opts *Options) (*endpoint, error) {
	var ep *endpoint
	if opts != nil && opts.Endpoint != "" {
		var err error
		if ep, err = c.checkEndpoint(op, opts.Endpoint); err != nil {
			return nil, err
		}
		if h := scopeHost(ep.origin); h != scopeHost(c.origin) {
			ep.scope = c.scopeTo(h) // windows, fleet budget and limiter of that host
		}
	}
	return ep, checkPath(req)
}

// endpoint is an endpoint URL parsed and checked once (parseEndpoint): the
// client's, at NewClient, or a call's Options.Endpoint, before its first
// attempt.
type endpoint struct {
	// origin is its scheme and host[:port].
	origin *url.URL
	// base is the URL without query, fragment and trailing slash; the
	// request path follows it.
	base string
	// query is its query, each U+FDD0 in it quoted as data
	// (querymark.QuoteValues), merged with each request's.
	query url.Values
	// scope is a call endpoint's host scope (scopeTo) when its host is
	// not the client's; nil for the client's host.
	scope *hostScope
}

// parseEndpoint parses s, the client's endpoint or a call's
// Options.Endpoint. It returns an error, s quoted with its query values
// and userinfo REDACTED (redactURL) and the reason (leading or trailing
// space, the parser's error, not http(s), a port outside 1–65535, a dot
// segment), unless s is an absolute http(s) URL with no dot segment in its
// path.
func parseEndpoint(s string) (*endpoint, error) {
	if strings.TrimSpace(s) != s {
		return nil, fmt.Errorf("endpoint %q: has leading or trailing space", redactURL(s))
	}
	u, err := url.Parse(s)
	if err != nil {
		reason := err.Error()
		if ue, ok := errors.AsType[*url.Error](err); ok {
			reason = ue.Err.Error() // without the URL, quoted redacted here
		}
		if strings.Contains(s, "@") {
			// The parser's reason may quote a piece of the userinfo
			// (`invalid port ":s3cret"`); say only that it does not parse.
			reason = "does not parse as a URL (its userinfo is not shown)"
		}
		return nil, fmt.Errorf("endpoint %q: %s", redactURL(s), reason)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("endpoint %q: must be an absolute http or https URL", redactURL(s))
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("endpoint %q: port %s is outside 1–65535", redactURL(s), p)
		}
	}
	if msg := endpointDotSegment(s, u); msg != "" {
		return nil, errors.New(msg)
	}
	ep := &endpoint{origin: &url.URL{Scheme: u.Scheme, Host: u.Host}, query: querymark.QuoteValues(u.Query())}
	u.RawQuery, u.Fragment = "", ""
	ep.base = strings.TrimSuffix(u.String(), "/")
	return ep, nil
}

// checkEndpoint returns endpoint parsed (parseEndpoint), or an
// *InvalidParamsError (field "Options.Endpoint") unless it is an absolute
// http(s) URL, with no dot segment in its path, with the origin of the
// client's endpoint or of one of op.Servers (a relative server URL has the
// client's origin).
func (c *Client) checkEndpoint(op *Operation, endpoint string) (*endpoint, error) {
	invalid := func(reason string) error {
		return &InvalidParamsError{Errs: []InvalidParamError{{Field: "Options.Endpoint", Reason: reason}}}
	}
	ep, err := parseEndpoint(endpoint)
	if err != nil {
		return nil, invalid(err.Error())
	}
	if sameOrigin(ep.origin, c.origin) {
		return ep, nil
	}
	for _, su := range serverOrigins(op) {
		if sameOrigin(ep.origin, su) {
			return ep, nil
		}
	}
	return nil, invalid(fmt.Sprintf("endpoint %q is neither the client's endpoint (its scheme, host and port) nor a server the spec declares for %s", redactURL(endpoint), op.Name))
}

// serverOrigins returns the absolute URLs of op.Servers parsed, once per
// Operation for the process (an Operation is a declaration, not changed
// once called): at most maxServerOrigins operations are kept, counted by
// nServerOrigins; past that they are parsed per call.
func serverOrigins(op *Operation) []*url.URL {
	if len(op.Servers) == 0 {
		return nil
	}
	if v, ok := serverOriginsOf.Load(op); ok {
		return v.([]*url.URL)
	}
	var us []*url.URL
	for _, s := range op.Servers {
		if su, err := url.Parse(s); err == nil && su.IsAbs() {
			us = append(us, su)
		}
	}
	got, _ := storeBounded(&serverOriginsOf, &nServerOrigins, maxServerOrigins, op, us)
	return got.([]*url.URL)
}

// serverOriginsOf holds serverOrigins' results (*Operation → []*url.URL).
var (
	serverOriginsOf sync.Map
	nServerOrigins  atomic.Int32
)

// maxServerOrigins bounds serverOriginsOf, as maxSharedPolicies bounds the
// shared policies: a caller that builds a new Operation per call gets its
// servers parsed per call instead of a cache that grows.
const maxServerOrigins = 4096

// callTarget is callMachine.target for a call's own Endpoint ep (checked
// by checkEndpoint): its base, then the path, then its query merged with
// the request's.
func callTarget(ep *endpoint, req *Request) string {
	return withQuery(ep.base+req.Path, req, ep.query)
}

// checkPath is checkTarget's rule for Request.Path.
func checkPath(req *Request) error {
	p, _, _ := strings.Cut(req.Path, "?") // bare query flags ("/b?tagging") are no path
	if p != "" && p[0] != '/' {
		return &InvalidParamsError{Errs: []InvalidParamError{{Field: "Request.Path", Reason: "path must start with \"/\""}}}
	}
	if HasDotSegment(p) {
		return &InvalidParamsError{Errs: []InvalidParamError{{Field: "Request.Path", Reason: DotSegmentPathParameter}}}
	}
	return nil
}

// HasDotSegment reports whether the escaped path p has a "." or ".."
// segment, also percent-encoded ("%2e%2E"): a server or proxy removing dot
// segments (RFC 3986 §5.2.4, after decoding §6.2.2.2) would serve another
// resource. Client.Do refuses such a request path and the generator such a
// path key.
func HasDotSegment(p string) bool {
	if !strings.ContainsAny(p, ".%") {
		return false // the common path: nothing to split
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.Contains(seg, "%") {
			if u, err := url.PathUnescape(seg); err == nil {
				seg = u
			}
		}
		if seg == "." || seg == ".." {
			return true
		}
	}
	return false
}

// endpointDotSegment is the error text of an endpoint whose path has a dot
// segment ("" when it has none): the endpoint prefixes every request path,
// so it is held to checkPath's rule.
func endpointDotSegment(endpoint string, u *url.URL) string {
	if !HasDotSegment(u.EscapedPath()) {
		return ""
	}
	return fmt.Sprintf("endpoint %q: its path holds a dot segment (\".\" or \"..\"), which a server or proxy may resolve to another resource", redactURL(endpoint))
}

// sameOrigin reports whether a and b have the same origin (RFC 6454): the
// same scheme, host (case-insensitively) and port, a missing port being the
// scheme's default (80 for http, 443 for https). User information is not
// part of the origin.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) &&
		originPort(a) == originPort(b)
}

// originPort is u's port, or its scheme's default port when it has none.
func originPort(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

// maxRedirects is net/http's own limit on the redirects one request
// follows when a Client has no CheckRedirect: 10.
const maxRedirects = 10

// redirectPolicy returns the CheckRedirect of the clients the runtime sends
// through. A redirect whose Location leaves the origin (scheme, host, port)
// of the attempt's first request is not followed: http.ErrUseLastResponse
// makes the 3xx response the attempt's answer, as aws-sdk-go-v2's client
// answers with the redirects it does not follow, so neither the request nor
// the credentials it carries (an Authorization header, API-key headers
// net/http would keep, a signature) ever reach another host. Within the
// origin, next decides (the caller's own CheckRedirect), else net/http's
// default: follow up to 10 redirects.
func redirectPolicy(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if !sameOrigin(req.URL, via[0].URL) {
			return http.ErrUseLastResponse
		}
		if next != nil {
			return next(req, via)
		}
		if len(via) >= maxRedirects {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
}

// confine returns a copy of hc (sharing its Transport, Jar and Timeout)
// whose CheckRedirect is redirectPolicy around hc's own.
func confine(hc *http.Client) *http.Client {
	cc := *hc
	cc.CheckRedirect = redirectPolicy(hc.CheckRedirect)
	return &cc
}

// httpClient returns the client an attempt sends through for the call's
// Options.HTTPClient h: nil means http.DefaultClient; an *http.Client is
// confined to the origin of the request (confine; the client's own is
// confined once, at NewClient); any other HTTPClient is used as it is and
// follows its own redirect rules.
func (c *Client) httpClient(h HTTPClient) HTTPClient {
	hc, ok := h.(*http.Client)
	if !ok && h != nil {
		return h
	}
	if hc == nil {
		hc = http.DefaultClient
	}
	if hc == c.httpFrom {
		return c.httpConfined
	}
	return confine(hc)
}

// refusedRedirect returns the origin ("https://host:port") a 3xx response's
// Location names when it is not the origin of the request that got it —
// the redirect redirectPolicy did not follow — and "" otherwise. Only the
// origin is reported: a Location's path and query may carry tokens.
func refusedRedirect(resp *http.Response) string {
	if resp.StatusCode < 300 || resp.StatusCode > 399 || resp.Request == nil || resp.Request.URL == nil {
		return ""
	}
	loc, err := resp.Location()
	if err != nil || sameOrigin(loc, resp.Request.URL) {
		return ""
	}
	return (&url.URL{Scheme: loc.Scheme, Host: loc.Host}).String()
}
