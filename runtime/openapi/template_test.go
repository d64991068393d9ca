package openapi

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSplitTemplate(t *testing.T) {
	for _, tc := range []struct {
		name, template string
		want           []TemplatePart
	}{
		{"literal only", "/pets", []TemplatePart{{Text: "/pets"}}},
		{"empty", "", nil},
		{"placeholder between literals", "/pets/{id}.json", []TemplatePart{{Text: "/pets/"}, {Text: "{id}", Name: "id"}, {Text: ".json"}}},
		{"adjacent placeholders", "{a}{b}", []TemplatePart{{Text: "{a}", Name: "a"}, {Text: "{b}", Name: "b"}}},
		{"unclosed brace is literal", "/x/{id", []TemplatePart{{Text: "/x/{id"}}},
		{"closing brace before opening is literal", "/}x{y}", []TemplatePart{{Text: "/}x"}, {Text: "{y}", Name: "y"}}},
		{"server URL", "https://sqs.{region}.amazonaws.com", []TemplatePart{{Text: "https://sqs."}, {Text: "{region}", Name: "region"}, {Text: ".amazonaws.com"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, SplitTemplate(tc.template))
		})
	}
}
