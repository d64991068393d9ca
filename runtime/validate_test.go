package runtime

import (
	"reflect"
	"testing"
)

// TestCheckParamAppendsOnlyRefusals: CheckParam appends exactly the refused
// checks in call order and InvalidParams turns none into a nil error (an
// untyped nil, so err == nil holds) and some into *InvalidParamsError.
func TestCheckParamAppendsOnlyRefusals(t *testing.T) {
	var errs []InvalidParamError
	errs = CheckParam(errs, false, "In.A", EmptyPathParameter)
	if errs != nil {
		t.Fatalf("an accepted check appended: %v", errs)
	}
	if err := InvalidParams(errs); err != nil {
		t.Fatalf("InvalidParams(nil) = %#v, want nil", err)
	}
	errs = CheckParam(errs, true, "In.A", EmptyPathParameter)
	errs = CheckParam(errs, false, "In.A", DotSegmentPathParameter)
	errs = CheckParam(errs, true, "In.B", MissingRequiredField)
	want := []InvalidParamError{{Field: "In.A", Reason: EmptyPathParameter}, {Field: "In.B", Reason: MissingRequiredField}}
	if !reflect.DeepEqual(errs, want) {
		t.Fatalf("errs = %v, want %v", errs, want)
	}
	err := InvalidParams(errs)
	if got := err.Error(); got != "2 validation error(s) found. - empty path parameter, In.A. - missing required field, In.B." {
		t.Fatalf("Error() = %q", got)
	}
	if allocs := testing.AllocsPerRun(100, func() { _ = InvalidParams(CheckParam(nil, false, "In.A", EmptyPathParameter)) }); allocs != 0 {
		t.Fatalf("a valid input allocates %v times, want 0", allocs)
	}
}
