package runtime

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// smithyAPIError is the part of smithy-go's APIError interface a
// standard-library-only runtime can satisfy (ErrorFault returns a smithy-go
// type).
type smithyAPIError interface {
	error
	ErrorCode() string
	ErrorMessage() string
}

// modeledForTest is shaped like a generated error type: it embeds
// ErrorMetadata and declares Error.
type modeledForTest struct {
	ErrorMetadata `json:"-"`
}

func (e *modeledForTest) Error() string { return e.ErrorMetadata.String() }

// TestAPIErrorsHaveSmithyMethods checks that APIError and a generated-style
// modelled error answer ErrorCode and ErrorMessage through errors.As on the
// wrapped error a call returns, as code written for aws-sdk-go-v2 expects.
func TestAPIErrorsHaveSmithyMethods(t *testing.T) {
	md := ErrorMetadata{HTTPStatusCode: 400, Code: "ValidationException", Message: "bad key", RequestID: "R1"}
	for name, err := range map[string]error{
		"APIError":     &APIError{ErrorMetadata: md},
		"modeled type": &modeledForTest{ErrorMetadata: md},
	} {
		t.Run(name, func(t *testing.T) {
			wrapped := &OperationError{Service: "svc", Operation: "Op", Err: fmt.Errorf("failed after 1 attempt: %w", err)}
			var ae smithyAPIError
			require.True(t, errors.As(wrapped, &ae))
			require.Equal(t, "ValidationException", ae.ErrorCode())
			require.Equal(t, "bad key", ae.ErrorMessage())
			require.Equal(t, "api error ValidationException (HTTP 400, request ID R1): bad key", ae.Error())
		})
	}
	var empty APIError
	require.Equal(t, "", empty.ErrorCode())
	require.Equal(t, "", empty.ErrorMessage())
}
