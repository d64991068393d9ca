package openapi

import (
	"maps"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestExpandServerURL(t *testing.T) {
	const tmpl = "https://{service}.{region}.example.com:{port}/v1"
	defaults := map[string]string{"region": "us-east-1", "port": "443"}
	for _, tc := range []struct {
		name string
		vars map[string]string
		want string
	}{
		{"defaults fill missing variables; unknown ones stay", nil, "https://{service}.us-east-1.example.com:443/v1"},
		{"given variables win", map[string]string{"service": "sqs", "region": "eu-west-1"}, "https://sqs.eu-west-1.example.com:443/v1"},
		{"an empty value takes the default", map[string]string{"region": ""}, "https://{service}.us-east-1.example.com:443/v1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, ExpandServerURL(tmpl, tc.vars, defaults))
		})
	}
}

func TestServerURLChecksEnums(t *testing.T) {
	defaults := map[string]string{"host": "localhost", "port": "8080"}
	enums := map[string][]string{"port": {"8080", "9090"}}
	for _, c := range []struct {
		vars      map[string]string
		want, err string
	}{
		{nil, "http://localhost:8080/v1", ""},
		{map[string]string{"host": "h", "port": "9090"}, "http://h:9090/v1", ""},
		{map[string]string{"port": "7070"}, "", `server variable "port": "7070" is not one of 8080, 9090`},
	} {
		got, err := ServerURL("http://{host}:{port}/v1", c.vars, defaults, enums)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("ServerURL(%v) = %q, %v; want %q, %s", c.vars, got, err, c.want, c.err)
		}
	}
}

// TestServerURLKeepsEachVariableInItsPlace: a variable without an enum may
// not leave the URL component it stands in (third new-user trial F5: a
// port "1@evil.example.net" moved the host that receives credentials). A
// scheme is RFC 3986 scheme characters; a host holds no / ? # @ : \ or
// control byte; a port is 1–65535 in digits; a path value is
// percent-encoded but for "/" (a base path may have segments). Spec
// values (defaults, enum members) are the spec author's and pass as they
// are.
func TestServerURLKeepsEachVariableInItsPlace(t *testing.T) {
	const tmpl = "{scheme}://{host}:{port}/{base}"
	defaults := map[string]string{"scheme": "https", "host": "api.example.com", "port": "443", "base": "v1"}
	for _, c := range []struct {
		vars      map[string]string
		want, err string
	}{
		{nil, "https://api.example.com:443/v1", ""},
		{map[string]string{"host": "eu.example.com", "port": "8443", "base": "v2/beta"}, "https://eu.example.com:8443/v2/beta", ""},
		{map[string]string{"base": "x?y=1#f g%"}, "https://api.example.com:443/x%3Fy=1%23f%20g%25", ""},
		{map[string]string{"port": "1@evil.example.net"}, "", `server variable "port": "1@evil.example.net" is not a port (1-65535)`},
		{map[string]string{"port": "443/evil"}, "", `server variable "port": "443/evil" is not a port (1-65535)`},
		{map[string]string{"port": "0"}, "", `server variable "port": "0" is not a port (1-65535)`},
		{map[string]string{"port": "65536"}, "", `server variable "port": "65536" is not a port (1-65535)`},
		{map[string]string{"host": "evil.example.net/x"}, "", `server variable "host": "evil.example.net/x" holds '/', which would end the URL's host`},
		{map[string]string{"host": "a@evil.example.net"}, "", `server variable "host": "a@evil.example.net" holds '@', which would end the URL's host`},
		{map[string]string{"host": "evil.example.net:1"}, "", `server variable "host": "evil.example.net:1" holds ':', which would end the URL's host`},
		{map[string]string{"scheme": "https://evil.example.net#"}, "", `server variable "scheme": "https://evil.example.net#" is not a URL scheme (RFC 3986: a letter, then letters, digits, + - .)`},
	} {
		got, err := ServerURL(tmpl, c.vars, defaults, nil)
		if got != c.want || (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("ServerURL(%v) = %q, %v; want %q, %s", c.vars, got, err, c.want, c.err)
		}
	}
	// The host of "https://{region}.example.com" and a variable that is the
	// whole URL ("{server}/v1", no literal "://" before it: the caller
	// names the origin itself).
	got, err := ServerURL("https://sqs.{region}.amazonaws.com", map[string]string{"region": "eu-west-1"}, nil, nil)
	require.NoError(t, err)
	require.Equal(t, "https://sqs.eu-west-1.amazonaws.com", got)
	_, err = ServerURL("https://sqs.{region}.amazonaws.com", map[string]string{"region": "x.evil.example.net?"}, nil, nil)
	require.EqualError(t, err, `server variable "region": "x.evil.example.net?" holds '?', which would end the URL's host`)
	got, err = ServerURL("{server}/v1", map[string]string{"server": "http://localhost:8080"}, map[string]string{"server": "https://api.example.com"}, nil)
	require.NoError(t, err)
	require.Equal(t, "http://localhost:8080/v1", got)
	// A spec's own default or enum member passes as written.
	got, err = ServerURL(tmpl, nil, map[string]string{"scheme": "https", "host": "localhost:8080", "port": "x", "base": "a b"}, nil)
	require.NoError(t, err)
	require.Equal(t, "https://localhost:8080:x/a b", got)
}

// TestExpandServerURLNeverMovesTheHost: the untyped builder (a generated
// ServerURL(vars), awsauth.Endpoint's region from the AWS config) applies
// ServerURL's rule; having no error to return, it leaves a refused value's
// placeholder as written, so the URL names no host New accepts.
func TestExpandServerURLNeverMovesTheHost(t *testing.T) {
	const tmpl = "https://sqs.{region}.amazonaws.com/{base}"
	require.Equal(t, "https://sqs.{region}.amazonaws.com/a%20b",
		ExpandServerURL(tmpl, map[string]string{"region": "evil.example.net/", "base": "a b"}, nil))
	require.Equal(t, "https://sqs.eu-west-1.amazonaws.com/v1",
		ExpandServerURL(tmpl, map[string]string{"region": "eu-west-1", "base": "v1"}, nil))
}

// TestOriginVariables: the variables that can move a request's origin are
// those urlPlaces puts in the scheme, host or port, or before any literal
// "://" (the whole origin); the generator lists a call's allowed origins
// from them (one rule with ServerURL's checks).
func TestOriginVariables(t *testing.T) {
	for _, c := range []struct {
		template string
		want     []string
	}{
		{"https://{host}:{port}/{base}", []string{"host", "port"}},
		{"{scheme}://api.example.com/v1/{ver}", []string{"scheme"}},
		{"https://{region}.example.com/{ver}?q={q}", []string{"region"}},
		{"{base}/v1", []string{"base"}},
		{"{server}", []string{"server"}},
		{"/v1/{x}", nil},
		{"https://api.example.com/{x}", nil},
		{"https://api.example.com", nil},
	} {
		got := OriginVariables(c.template)
		require.ElementsMatch(t, c.want, slices.Collect(maps.Keys(got)), c.template)
	}
}
