package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// emitTypes writes types.go: one struct or enum per model Type.
func emitTypes(f *jen.File, svc *Service) {
	for _, t := range svc.Types {
		f.Add(docComment(t.Name+" is generated from "+t.Source+".", t.Doc))
		switch t.Kind {
		case KindEnum:
			emitEnum(f, t)
		default:
			f.Type().Id(t.Name).Struct(structFields(t.Fields, t.Output)...)
		}
		f.Line()
	}
}

// emitEnum writes a named string type and one constant per value.
func emitEnum(f *jen.File, t *Type) {
	f.Type().Id(t.Name).String()
	f.Line()
	f.Comment("Values of " + t.Name + ".")
	f.Const().DefsFunc(func(g *jen.Group) {
		for _, v := range t.Values {
			g.Comment(v.Name + " is the " + t.Name + " value " + fmt.Sprintf("%q", v.Value) + ".")
			g.Id(v.Name).Id(t.Name).Op("=").Lit(v.Value)
		}
	})
}

// structFields renders fields; output types get ResultMetadata first.
func structFields(fields []Field, output bool) []jen.Code {
	var out []jen.Code
	if output {
		out = append(out, jen.Comment("ResultMetadata describes how the call went: attempts made, request ID."),
			jen.Id("ResultMetadata").Qual(runtimePath, "ResponseMetadata").Tag(map[string]string{"json": "-"}), jen.Line())
	}
	for i, fl := range fields {
		var s jen.Statement
		if lines := commentLines(fl.Doc); len(lines) > 0 {
			if i > 0 || output {
				s.Line()
			}
			for _, l := range lines {
				s.Comment(l).Line()
			}
		}
		tag := fl.JSONName
		switch {
		case fl.In != "":
			tag = "-"
		case !fl.Required:
			// omitzero, not omitempty: nil means absent, while an empty
			// non-nil slice or map is sent (DynamoDB's {"L": []}).
			tag += ",omitzero"
		}
		s.Id(fl.Name).Add(fieldType(fl)).Tag(map[string]string{"json": tag})
		out = append(out, &s)
	}
	return out
}

// fieldType is a field's Go type: struct types are always pointers (so
// recursive shapes compile); optional scalars and enums are pointers;
// slices, maps, []byte and json.RawMessage are nil-able values.
func fieldType(fl Field) jen.Code {
	t := fl.Type
	pointer := t.Kind == RefNamed && t.Struct ||
		!fl.Required && (t.Kind == RefNamed || t.Kind == RefScalar && t.Scalar != ScalarBytes && t.Scalar != ScalarRawJSON && t.Scalar != ScalarReader)
	if pointer {
		return jen.Op("*").Add(typeExpr(t))
	}
	return typeExpr(t)
}

// typeExpr is the Go type of r as a value (slice elements and map values of
// struct type are values).
func typeExpr(r TypeRef) *jen.Statement {
	switch r.Kind {
	case RefNamed:
		return jen.Id(r.Name)
	case RefSlice:
		return jen.Index().Add(typeExpr(*r.Elem))
	case RefMap:
		return jen.Map(jen.String()).Add(typeExpr(*r.Elem))
	}
	switch r.Scalar {
	case ScalarBytes:
		return jen.Index().Byte()
	case ScalarTime:
		return jen.Qual("time", "Time")
	case ScalarEpochSeconds:
		return jen.Qual(runtimePath, "EpochSeconds")
	case ScalarRawJSON:
		return jen.Qual("encoding/json", "RawMessage")
	case ScalarReader:
		return jen.Qual("io", "Reader")
	}
	return jen.Id(r.Scalar)
}
