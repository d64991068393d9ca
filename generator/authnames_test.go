package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAuthOptionNamesSayTheScheme: a kind of credential with one scheme
// keeps its generic option (WithBearerToken); two schemes of one kind are
// each named after their scheme, and an option that would differ from
// another only by case is named after its scheme too, with a warning
// (second new-user trial F2: Mistral's ordinary key was WithApiKey, the
// admin key WithBearerToken and the dashboard key WithAPIKey).
func TestAuthOptionNamesSayTheScheme(t *testing.T) {
	svc, diags, err := load(t, `openapi: 3.1.0
info: {title: T, version: "1"}
security: [{ApiKey: []}]
paths:
  /a:
    get:
      operationId: getA
      security: [{AdminApiKey: []}, {DashboardUserContextAuth: []}]
      responses: {"204": {description: ok}}
  /b:
    get:
      operationId: getB
      responses: {"204": {description: ok}}
components:
  securitySchemes:
    ApiKey: {type: http, scheme: bearer}
    AdminApiKey: {type: http, scheme: bearer}
    DashboardUserContextAuth: {type: apiKey, in: header, name: X-Dashboard}
`)
	require.NoError(t, err)
	var got []string
	for _, a := range svc.Auth {
		got = append(got, a.Scheme+" "+a.Option)
	}
	require.Equal(t, []string{"AdminApiKey WithAdminApiKey", "ApiKey WithApiKey", "DashboardUserContextAuth WithDashboardUserContextAuth"}, got)
	require.Equal(t, []string{
		"spec.yaml#/components/securitySchemes/DashboardUserContextAuth: option WithAPIKey would differ from WithApiKey (scheme ApiKey) only by case; named WithDashboardUserContextAuth",
	}, diags)
}
