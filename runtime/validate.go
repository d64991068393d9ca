package runtime

import (
	"strconv"
	"strings"
)

// Reasons an [InvalidParamError] gives, after smithy-go's validation
// package (ParamRequiredError) and aws-sdk-go-v2's REST serializers ("input
// member X must not be empty").
const (
	// MissingRequiredField: a required member that can be nil (pointer,
	// slice, map) is nil, or the whole input is nil.
	MissingRequiredField = "missing required field"
	// EmptyPathParameter: a path parameter is "" (or an empty list), which
	// would send another route ("/pets/" for "/pets/{petId}").
	EmptyPathParameter = "empty path parameter"
)

// InvalidParamError is one input member refused before sending.
type InvalidParamError struct {
	// Field is "Input.Member" ("GetItemInput.Key").
	Field string
	// Reason is [MissingRequiredField] or [EmptyPathParameter].
	Reason string
}

// Error renders "REASON, FIELD." as smithy-go's ParamRequiredError does.
func (e InvalidParamError) Error() string { return e.Reason + ", " + e.Field + "." }

// InvalidParamsError is returned by a generated operation method, wrapped in
// an [*OperationError] (see [Client.InvalidInput]), when its input misses a
// required member or has an empty path parameter. It is checked before the
// first attempt: nothing is sent and no retry quota is spent. After
// aws-sdk-go-v2's smithy validation.InvalidParamsError.
type InvalidParamsError struct {
	// Errs are the refused members, in the input's field order.
	Errs []InvalidParamError
}

// Error renders "N validation error(s) found. - REASON, FIELD. - …", smithy's
// text on one line.
func (e *InvalidParamsError) Error() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(e.Errs)) + " validation error(s) found.")
	for _, pe := range e.Errs {
		b.WriteString(" - " + pe.Error())
	}
	return b.String()
}

// InvalidInput wraps err, an input refused before any attempt (an
// [*InvalidParamsError], or the error of encoding the request body, such as
// json.Marshal's for a NaN), as [Client.Do] wraps its errors: an
// [*OperationError] naming the service and op ("pkg: Op: ERR"). Nothing is
// sent and no retry quota is spent.
func (c *Client) InvalidInput(op *Operation, err error) error {
	return &OperationError{Service: c.svc.errorName(), Operation: op.Name, Err: err}
}

// CheckParam returns errs with the refusal {field, reason} appended when
// refused is true, else errs unchanged (no allocation). A generated
// operation's validator calls it once per check, in the input's field
// order: field is "Input.Member", reason [MissingRequiredField],
// [EmptyPathParameter] or [DotSegmentPathParameter].
//
// It is never inlined: a large client calls it thousands of times (GitHub's
// 4,245), and inlining each call made the generated package's compilation
// take ~15 % more memory than the if statements it replaced (issue 24); a
// validator runs once per call, so the call costs nothing that matters.
//
//go:noinline
func CheckParam(errs []InvalidParamError, refused bool, field, reason string) []InvalidParamError {
	if refused {
		errs = append(errs, InvalidParamError{Field: field, Reason: reason})
	}
	return errs
}

// CheckParams returns errs with the refusal {field, reason} appended for
// each of fields, else errs unchanged: a generated validator's check that
// names places it found (openapi.UnsetUnions' JSON paths,
// "Input.Messages[1].content", reason [MissingRequiredField]).
//
//go:noinline
func CheckParams(errs []InvalidParamError, fields []string, reason string) []InvalidParamError {
	for _, f := range fields {
		errs = append(errs, InvalidParamError{Field: f, Reason: reason})
	}
	return errs
}

// InvalidParams returns an [*InvalidParamsError] holding errs, or a nil
// error when errs is empty: what a generated operation's validator returns
// after its [CheckParam] calls.
func InvalidParams(errs []InvalidParamError) error {
	if len(errs) == 0 {
		return nil
	}
	return &InvalidParamsError{Errs: errs}
}
