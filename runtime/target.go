package runtime

import (
	"net/url"
	"strings"
)

// DotSegmentPathParameter is the [InvalidParamError] reason of a path whose
// segment is "." or ".." (also percent-encoded, "%2e%2E"): a server or proxy
// that removes dot segments (RFC 3986 §5.2.4) would serve another resource,
// the parent of the one the caller named.
const DotSegmentPathParameter = "dot segment in path parameter"

// checkTarget refuses, before the first attempt, a request that could leave
// the client's endpoint or reach another resource: a Path that is neither
// empty nor starts with "/" (appended to the endpoint it would change its
// host or port: "@evil.example/x", ":8080/x", ".evil.example/x"), or a Path
// with a "." or ".." segment. The attempt's URL is the endpoint (scheme,
// host and port fixed at NewClient) followed by Path, so with these checks
// no spec and no input can send a request, or the credentials it carries,
// to another scheme, host or port. It returns an *InvalidParamsError
// (field "Request.Path"), nil when the path is safe.
func checkTarget(req *Request) error {
	p, _, _ := strings.Cut(req.Path, "?") // bare query flags ("/b?tagging") are no path
	if p != "" && p[0] != '/' {
		return &InvalidParamsError{Errs: []InvalidParamError{{Field: "Request.Path", Reason: "path must start with \"/\""}}}
	}
	if !strings.ContainsAny(p, ".%") {
		return nil // the common path: nothing to split
	}
	for _, seg := range strings.Split(p, "/") {
		if strings.Contains(seg, "%") {
			if u, err := url.PathUnescape(seg); err == nil {
				seg = u
			}
		}
		if seg == "." || seg == ".." {
			return &InvalidParamsError{Errs: []InvalidParamError{{Field: "Request.Path", Reason: DotSegmentPathParameter}}}
		}
	}
	return nil
}
