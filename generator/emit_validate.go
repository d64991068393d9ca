package generator

import (
	"github.com/dave/jennifer/jen"
)

// inputCheck is one condition under which an operation's input is refused
// before sending: cond (in terms of `in`, already known non-nil) and the
// runtime reason; a nil cond refuses only a nil input.
type inputCheck struct {
	field  string
	cond   *jen.Statement
	reason string
	// nilOK: a nil input does not fail this check (another check of the
	// field already names it).
	nilOK bool
	// places, when set, is a list of places refused for reason
	// (runtime.CheckParams) instead of cond.
	places *jen.Statement
}

// inputChecks are the checks of op's input (after aws-sdk-go-v2's
// generated validators): every path parameter must be non-empty (a string
// or string enum "", a list with no items, a nil pointer, a union that
// renders empty) and a string one
// not "." or ".." (which would name another resource; the runtime's
// Client.Do refuses any other dot segment), every required
// member that can be nil (pointer, slice, map, bytes, a union with no variant
// set; not nullable ones, whose nil is sent as null) must be set. Required values that cannot be
// nil (a string in the body, a number) are refused only when the whole
// input is nil: their zero is a value. types is the service's types by
// name (typesByName).
func inputChecks(op *Operation, types map[string]*Type) []inputCheck {
	in := types[op.Input]
	if in == nil {
		return nil
	}
	var out []inputCheck
	for _, fl := range in.Fields {
		v := jen.Id("in").Dot(fl.Name)
		nilable := isNilable(fl)
		union := fl.Type.Kind == RefNamed && types[fl.Type.Name] != nil && types[fl.Type.Name].Kind == KindUnion
		switch {
		case fl.In == "path" && union:
			// Rendered empty (no variant set, or the set one ""): the
			// runtime's rule, openapi.PathParam's.
			out = append(out, inputCheck{fl.Name, jen.Qual(openapiPath, "EmptyPathParam").Call(jen.Op("&").Add(v)), "EmptyPathParameter", false, nil})
		case fl.In == "path" && fl.Type.Kind == RefSlice:
			out = append(out, inputCheck{fl.Name, jen.Len(v).Op("==").Lit(0), "EmptyPathParameter", false, nil})
		case fl.In == "path" && nilable:
			out = append(out, inputCheck{fl.Name, v.Op("==").Nil(), "EmptyPathParameter", false, nil})
		case fl.In == "path" && (fl.Type.Kind == RefScalar && fl.Type.Scalar == ScalarString ||
			fl.Type.Kind == RefNamed && types[fl.Type.Name] != nil && types[fl.Type.Name].Kind == KindEnum && !types[fl.Type.Name].IntEnum):
			out = append(out, inputCheck{fl.Name, v.Op("==").Lit(""), "EmptyPathParameter", false, nil},
				inputCheck{fl.Name, jen.Parens(jen.Id("in").Dot(fl.Name).Op("==").Lit(".").Op("||").Id("in").Dot(fl.Name).Op("==").Lit("..")), "DotSegmentPathParameter", true, nil})
		case fl.In == "path":
			// A number or boolean: never empty.
		case !fl.Required || fl.Nullable || fl.Type.Scalar == ScalarReader:
			// Optional; nil sent as null; a raw body (optional or not, it is read as given).
		case union:
			// No variant set: it would be sent as null (or no body).
			out = append(out, inputCheck{fl.Name, jen.Qual(openapiPath, "UnionUnset").Call(jen.Op("&").Add(v)), "MissingRequiredField", false, nil})
		case nilable:
			out = append(out, inputCheck{fl.Name, v.Op("==").Nil(), "MissingRequiredField", false, nil})
		default:
			out = append(out, inputCheck{fl.Name, nil, "MissingRequiredField", false, nil})
		}
	}
	if nestedRequiredUnion(in, types) {
		// A required union below the input's own members with no variant
		// set would go out as null (Prism refuses it): named by its JSON
		// path (openapi.UnsetUnions).
		out = append(out, inputCheck{reason: "MissingRequiredField",
			places: jen.Qual(openapiPath, "UnsetUnions").Call(jen.Id("in"), jen.Lit(op.Input))})
	}
	return out
}

// nestedRequiredUnion reports whether a value of in can hold, below its
// own members, a required union member that is not nullable, or a union
// list or map element: what openapi.UnsetUnions names.
func nestedRequiredUnion(in *Type, types map[string]*Type) bool {
	seen := map[string]bool{}
	var reaches func(r TypeRef) bool
	isUnion := func(r TypeRef) bool {
		return r.Kind == RefNamed && types[r.Name] != nil && types[r.Name].Kind == KindUnion
	}
	reaches = func(r TypeRef) bool {
		switch r.Kind {
		case RefSlice, RefMap:
			return r.Elem != nil && (isUnion(*r.Elem) && !r.Elem.Nullable || reaches(*r.Elem))
		case RefNamed:
			t := types[r.Name]
			if t == nil || seen[r.Name] {
				return false
			}
			seen[r.Name] = true
			for _, v := range t.Variants {
				if reaches(v.Type) {
					return true
				}
			}
			for _, fl := range t.Fields {
				if fl.In == "" && (fl.Required && !fl.Nullable && isUnion(fl.Type) || reaches(fl.Type)) {
					return true
				}
			}
		}
		return false
	}
	for _, fl := range in.Fields {
		if (fl.In == "" || fl.In == "body") && reaches(fl.Type) {
			return true
		}
	}
	return false
}

// isNilable reports whether a field's Go type (fieldType) can be nil.
func isNilable(fl Field) bool {
	t := fl.Type
	switch {
	case t.Kind == RefSlice || t.Kind == RefMap:
		return true
	case t.Kind == RefScalar && (t.Scalar == ScalarBytes || t.Scalar == ScalarRawJSON || t.Scalar == ScalarReader):
		return true
	}
	return fieldIsPointer(fl)
}

// emitValidate writes validateOP, which returns a *runtime.InvalidParamsError
// naming every refused member of the input (all of them when the input is
// nil), or nil; it allocates nothing when the input is valid.
func emitValidate(f *jen.File, op *Operation, checks []inputCheck) {
	name := "validate" + op.Name
	f.Comment(name + " returns a *runtime.InvalidParamsError naming every member of in")
	f.Comment("that " + op.Name + " refuses before sending (a nil in misses them all), or nil.")
	f.Func().Id(name).Params(jen.Id("in").Op("*").Id(op.Input)).Error().BlockFunc(func(g *jen.Group) {
		for i, c := range checks {
			cond := jen.Id("in").Op("==").Nil()
			switch {
			case c.nilOK:
				cond = jen.Id("in").Op("!=").Nil().Op("&&").Add(c.cond)
			case c.cond != nil:
				cond = cond.Op("||").Add(c.cond)
			}
			// One line per check through runtime.CheckParam: validators
			// were a sixth of a large client's operations file (issue 24).
			errs, assign := jen.Id("errs"), "="
			if i == 0 {
				errs, assign = jen.Nil(), ":="
			}
			if c.places != nil {
				g.Id("errs").Op(assign).Qual(runtimePath, "CheckParams").Call(errs, c.places, jen.Qual(runtimePath, c.reason))
				continue
			}
			g.Id("errs").Op(assign).Qual(runtimePath, "CheckParam").Call(errs, cond, jen.Lit(op.Input+"."+c.field), jen.Qual(runtimePath, c.reason))
		}
		g.Return(jen.Qual(runtimePath, "InvalidParams").Call(jen.Id("errs")))
	})
	f.Line()
}
