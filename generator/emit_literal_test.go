package generator

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"

	"github.com/retrygen/retrygen/runtime"
)

// renderLiteral renders `var v = LIT` in a file of package p and returns
// the formatted declaration.
func renderLiteral(t *testing.T, v any, fill map[string]jen.Code) string {
	t.Helper()
	lit, err := runtimeLiteral(v, fill)
	require.NoError(t, err)
	f := jen.NewFile("p")
	f.ImportName(runtimePath, "runtime")
	f.Var().Id("v").Op("=").Add(lit)
	src, err := render(f, "v.go")
	require.NoError(t, err)
	_, decl, ok := strings.Cut(string(src), "var v = ")
	require.True(t, ok, "%s", src)
	return decl
}

func TestRuntimeLiteral(t *testing.T) {
	svc := runtime.Service{
		Name:        "Svc \"quoted\"",
		DefaultMode: runtime.ModeLegacy,
		Defaults:    runtime.ModeDefaults{MaxAttempts: 4, ThrottlingBaseDelay: time.Second, MaxBackoff: 1500 * time.Millisecond},
		PerMode: map[runtime.Mode]runtime.ModeDefaults{
			runtime.ModeStandard: {Jitter: runtime.JitterEqual},
			runtime.ModeAdaptive: {TransientBaseDelay: 20 * time.Second},
		},
		ThrottlingCodes: []string{"B", "A"},
		ThrottleControl: &runtime.ThrottleControl{RetryStatuses: []int{429}, MaxDelay: 1500 * time.Microsecond},
	}
	require.Equal(t, `runtime.Service{
	Name:        "Svc \"quoted\"",
	DefaultMode: runtime.ModeLegacy,
	Defaults: runtime.ModeDefaults{
		MaxAttempts:         4,
		ThrottlingBaseDelay: time.Second,
		MaxBackoff:          1500 * time.Millisecond,
	},
	PerMode: map[runtime.Mode]runtime.ModeDefaults{
		runtime.ModeAdaptive: {TransientBaseDelay: 20 * time.Second},
		runtime.ModeStandard: {Jitter: runtime.JitterEqual},
	},
	ThrottlingCodes: []string{"B", "A"},
	ThrottleControl: &runtime.ThrottleControl{
		MaxDelay:      time.Duration(1500000),
		RetryStatuses: []int{429},
	},
}
`, renderLiteral(t, svc, nil), "declaration order, zero fields left out, map keys sorted, constants by name")

	op := runtime.Operation{Name: "Op", LongPolling: true}
	require.Equal(t, "runtime.Operation{\n\tName:        \"Op\",\n\tLongPolling: true,\n\tNewError:    newOpError,\n}\n",
		renderLiteral(t, op, map[string]jen.Code{"NewError": jen.Id("newOpError"), "NewErrorForStatus": nil}))

	_, err := runtimeLiteral(runtime.Operation{NewError: func(string) runtime.ModeledError { return nil }}, nil)
	require.ErrorContains(t, err, "cannot render field NewError of runtime.Operation")
}

// TestRuntimeLiteralCoversEveryField sets every field of the runtime values
// the generator emits: a field added to the runtime that the emitter cannot
// render fails here, not in a user's generate run.
func TestRuntimeLiteralCoversEveryField(t *testing.T) {
	for _, v := range []any{runtime.Service{}, runtime.Operation{}} {
		rv := reflect.New(reflect.TypeOf(v)).Elem()
		fill := map[string]jen.Code{}
		for i := range rv.NumField() {
			f := rv.Type().Field(i)
			if f.Type.Kind() == reflect.Func {
				fill[f.Name] = jen.Id("fn")
				continue
			}
			setNonZero(t, rv.Field(i))
		}
		decl := renderLiteral(t, rv.Interface(), fill)
		for i := range rv.NumField() {
			require.Contains(t, decl, "\t"+rv.Type().Field(i).Name+":", "every field of %s is rendered", rv.Type())
		}
	}
}

// setNonZero gives v a non-zero value of its kind.
func setNonZero(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.Type() == reflect.TypeFor[runtime.Mode]() {
			v.Set(reflect.ValueOf(runtime.ModeAdaptive))
			return
		}
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Uint8:
		if v.CanInt() {
			v.SetInt(1)
		} else {
			v.SetUint(1)
		}
	case reflect.Float64:
		v.SetFloat(1.5)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		setNonZero(t, s.Index(0))
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		setNonZero(t, k)
		setNonZero(t, e)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		setNonZero(t, p.Elem())
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			setNonZero(t, v.Field(i))
		}
	default:
		t.Fatalf("setNonZero: no value for %s", v.Type())
	}
}

// TestRuntimeConstNames checks runtimeConst's naming rule against the
// runtime's declarations: every retry mode and jitter names a constant of
// the runtime package with exactly that value.
func TestRuntimeConstNames(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedTypes | packages.NeedName}, runtimePath)
	require.NoError(t, err)
	require.Len(t, pkgs, 1)
	require.Empty(t, pkgs[0].Errors)
	scope := pkgs[0].Types.Scope()
	var values []any
	for _, m := range runtime.Modes() {
		values = append(values, m)
	}
	for _, j := range runtime.Jitters() {
		values = append(values, j)
	}
	for _, v := range values {
		code, err := runtimeConst(reflect.ValueOf(v))
		require.NoError(t, err)
		name := strings.TrimPrefix(fmt.Sprintf("%#v", code), "runtime.")
		c, ok := scope.Lookup(name).(*types.Const)
		require.True(t, ok, "runtime declares the constant %s", name)
		var want constant.Value
		switch v := v.(type) {
		case runtime.Mode:
			want = constant.MakeString(string(v))
		case runtime.Jitter:
			want = constant.MakeUint64(uint64(v))
		}
		require.True(t, constant.Compare(c.Val(), token.EQL, want), "%s = %s, want %v", name, c.Val(), want)
	}
}

func TestRuntimeLiteralNilPointerElement(t *testing.T) {
	lit, err := runtimeLiteral([]*runtime.ModeDefaults{nil, {MaxAttempts: 2}}, nil)
	require.NoError(t, err)
	require.Equal(t, "[]*runtime.ModeDefaults{nil, {MaxAttempts: 2}}", fmt.Sprintf("%#v", lit))
}
