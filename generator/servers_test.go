package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Per-operation and per-path servers override the root's (OpenAPI 3.0
// §4.7.10) and reach the runtime as runtime.Operation.Servers, the URLs a
// call's Options.Endpoint may name the origin of: every value of an enum
// variable of the scheme, host or port, path variables at their defaults.
// A host variable with no enum cannot be checked: its default alone is
// allowed, with one located warning per server template.
func TestOperationServersReachTheRuntime(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.0.3
info: {title: T, version: '1'}
servers: [{url: https://api.example.com}]
paths:
  /files:
    servers:
      - url: https://{region}.files.example.com/{base}
        variables:
          region: {default: eu, enum: [eu, us]}
          base: {default: v1}
    get: {operationId: ListFiles, responses: {'200': {description: ok}}}
    post:
      operationId: Upload
      servers:
        - url: https://{host}/api
          variables: {host: {default: upload.example.com}}
        - url: 'http://uploads.example.com:{port}/'
          variables: {port: {default: '8080', enum: ['8080', '8443']}}
      responses: {'200': {description: ok}}
  /sessions:
    get:
      operationId: GetSession
      servers:
        - url: https://{host}/api
          variables: {host: {default: upload.example.com}}
      responses: {'200': {description: ok}}
  /plain:
    get: {operationId: Plain, responses: {'200': {description: ok}}}
`)
	require.NoError(t, err)
	require.Equal(t, []string{
		`spec.yaml#/paths/~1files/post/servers/0/variables/host: server variable "host" is in the URL's scheme, host or port and has no enum: a call's Options.Endpoint may name only its default, "upload.example.com"; for another value, create a client for it with New`,
	}, diags)
	got := map[string][]string{}
	for _, op := range svc.Operations {
		got[op.Name] = op.Retry.Servers
	}
	require.Equal(t, map[string][]string{
		"ListFiles":  {"https://eu.files.example.com/v1", "https://us.files.example.com/v1"},
		"Upload":     {"https://upload.example.com/api", "http://uploads.example.com:8080/", "http://uploads.example.com:8443/"},
		"GetSession": {"https://upload.example.com/api"},
		"Plain":      nil,
	}, got)

	files, err := Generate(svc, "svc")
	require.NoError(t, err)
	for _, f := range files {
		if f.Name == "operations.go" {
			require.Contains(t, string(f.Content), "// The spec declares servers of its own for Upload (UploadServer1Default, UploadServer2Default): it\n"+
				"// is sent to the client's endpoint unless a call's Options.Endpoint names one of them (only those,\n"+
				"// or the client's endpoint, are accepted).\n")
			require.NotContains(t, string(f.Content), "servers of its own for Plain")
			require.Contains(t, string(f.Content), "var opUpload = runtime.Operation{\n\tName:    \"Upload\",\n\tServers: []string{\"https://upload.example.com/api\", \"http://uploads.example.com:8080/\", \"http://uploads.example.com:8443/\"},\n}")
		}
	}
}
