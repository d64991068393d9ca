package generator

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A path key at fault is one error, however many operations its path item
// holds (fresh-user review finding 7: a ".." path with GET and DELETE
// printed the same located error twice, "2 error(s)").
func TestPathKeyErrorOncePerPath(t *testing.T) {
	_, diags, err := loadSpecText(t, "", `openapi: 3.0.3
info: {title: T, version: '1'}
paths:
  /items/../{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: GetItem, responses: {'200': {description: ok}}}
    delete: {operationId: DeleteItem, responses: {'204': {description: ok}}}
  /ok/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: string}}]
    get: {operationId: GetOK, responses: {'200': {description: ok}}}
`)
	require.Error(t, err)
	require.True(t, strings.HasSuffix(err.Error(), "/spec.yaml: 1 error(s) in the spec"), err.Error())
	require.Equal(t, []string{`error: spec.yaml#/paths/~1items~1..~1%7Bid%7D: path "/items/../{id}" has a ".." segment: it would name another resource`}, diags)
}
