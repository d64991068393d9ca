package openapi

import (
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
