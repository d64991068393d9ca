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
