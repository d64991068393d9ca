package generator

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSecondDocumentAndWebhooksWarn: a second YAML document and webhooks
// are located warnings, not dropped silently (issue 17 item 9).
func TestSecondDocumentAndWebhooksWarn(t *testing.T) {
	_, diags, err := load(t, specWith("", "")+"---\nopenapi: 3.0.0\n")
	require.NoError(t, err)
	require.Equal(t, []string{`spec.yaml#: the file holds a second YAML document (on line 44); only the first is read`}, diags)

	_, diags, err = load(t, "---\n"+specWith("", "")+"...\n")
	require.NoError(t, err)
	require.Empty(t, diags, "one document between markers is not a second one")

	_, diags, err = load(t, `openapi: 3.1.0
info: {title: Hooks, version: '1'}
webhooks:
  newPet:
    post:
      responses:
        '200': {description: ok}
`)
	require.NoError(t, err)
	require.Equal(t, []string{`spec.yaml#/webhooks: webhooks are requests the API sends, not operations a client calls; ignored (the spec has no paths: the client has no operations)`}, diags)
}
