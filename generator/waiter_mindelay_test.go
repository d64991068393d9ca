package generator

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWaiterBadMinDelayIsOneError (new-user trial 3, F14): minDelay: 0
// gave its own error and a second one about the default minDelay (2s) the
// user never wrote being above maxDelay: 1. A delay refused is not
// compared again.
func TestWaiterBadMinDelayIsOneError(t *testing.T) {
	_, ds, err := loadSpecText(t, "", `openapi: 3.0.3
info: {title: W, version: "1"}
paths:
  /t:
    get:
      operationId: getT
      x-waiters:
        Ready:
          minDelay: 0
          maxDelay: 1
          acceptors:
            - state: success
              matcher: {output: {path: "status", expected: ok, comparator: stringEquals}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object, properties: {status: {type: string}}}}}}
`)
	require.Error(t, err)
	errs := slices.DeleteFunc(slices.Clone(ds), func(d string) bool { return !strings.HasPrefix(d, "error: ") })
	require.Len(t, errs, 1, ds)
	require.Contains(t, errs[0], "/x-waiters/Ready/minDelay")
}
