package generator

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/retrygen/retrygen/templates"
)

// corpusSpec is the spec each x-retry document of the corpus is put into.
const corpusSpec = `openapi: 3.0.0
info: {title: Corpus, version: '1'}
paths:
  /things:
    post:
      operationId: PutThing
      responses:
        '200': {description: ok}
`

// TestXRetrySchemaAgreesWithGenerator runs one corpus of valid and invalid
// x-retry documents (testdata/xretry-corpus.yaml) through the published JSON
// Schema (templates/schema/x-retry.schema.json) and through the generator's
// own validation: both accept the valid documents and refuse the invalid
// ones, except where an entry names why only the generator can refuse it.
func TestXRetrySchemaAgreesWithGenerator(t *testing.T) {
	raw, err := os.ReadFile("testdata/xretry-corpus.yaml")
	require.NoError(t, err)
	var corpus yaml.Node
	require.NoError(t, yaml.Unmarshal(raw, &corpus))
	entries := corpus.Content[0].Content
	require.GreaterOrEqual(t, len(entries), 30)
	valid := 0
	for _, e := range entries {
		name := mapValue(e, "name").Value
		wantValid := mapValue(e, "valid").Value == "true"
		operation := mapValue(e, "level") != nil && mapValue(e, "level").Value == "operation"
		schemaAccepts := mapValue(e, "schemaAccepts") != nil
		doc := mapValue(e, "x-retry")
		t.Run(name, func(t *testing.T) {
			def := ""
			if operation {
				def = "operation"
			}
			findings, err := CheckSchema(templates.XRetrySchema, def, doc)
			require.NoError(t, err)
			require.Equal(t, wantValid || schemaAccepts, len(findings) == 0, "JSON Schema findings: %v", findings)

			var spec yaml.Node
			require.NoError(t, yaml.Unmarshal([]byte(corpusSpec), &spec))
			target := spec.Content[0]
			if operation {
				target = mapValue(mapValue(mapValue(target, "paths"), "/things"), "post")
			}
			target.Content = append(target.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "x-retry"}, doc)
			text, err := yaml.Marshal(&spec)
			require.NoError(t, err)
			_, diags, err := loadData("corpus.yaml", text, nil, nil)
			require.Equal(t, wantValid, err == nil, "generator: %v %v", err, diags)
		})
		if wantValid {
			valid++
		}
	}
	require.GreaterOrEqual(t, valid, 4, "the corpus holds valid documents too")
}
