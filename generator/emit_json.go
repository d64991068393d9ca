package generator

import (
	"github.com/dave/jennifer/jen"
)

// JSON methods of structs with additional properties and of unions; the
// helpers they call are in runtime/openapi.

// emitAdditionalMethods writes MarshalJSON and UnmarshalJSON of a struct
// with additional properties: the fixed fields and AdditionalProperties
// travel as one JSON object, so a decode then encode loses no member.
func emitAdditionalMethods(f *jen.File, t *Type) {
	plain := jen.Type().Id("plain").Id(t.Name)
	marshal := jen.Qual(openapiPath, "MarshalObject").Call(jen.Id("plain").Call(jen.Id("v")), jen.Id("v").Dot("AdditionalProperties"))
	known := []jen.Code{jen.Id("b"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")), jen.Op("&").Id("v").Dot("AdditionalProperties")}
	for _, fl := range t.Fields {
		known = append(known, jen.Lit(fl.JSONName))
	}
	unmarshal := jen.Qual(openapiPath, "UnmarshalObject").Call(known...)
	f.Comment("MarshalJSON writes the fields and AdditionalProperties as one JSON object.")
	if list := memberList(t, "v"); len(list) > 0 {
		// Fields whose names no struct tag can hold are added by their
		// exact names (emitMemberMethods).
		f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			plain,
			jen.List(jen.Id("b"), jen.Err()).Op(":=").Add(marshal),
			jen.Return(jen.Qual(openapiPath, "AddMembers").Call(append([]jen.Code{jen.Id("b"), jen.Err()}, list...)...)),
		)
		f.Line()
		f.Comment("UnmarshalJSON reads the fields and keeps the object's other members in AdditionalProperties.")
		f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
			jen.Type().Id("plain").Id(t.Name),
			jen.Return(jen.Qual(openapiPath, "DecodeMembers").Call(append([]jen.Code{jen.Id("b"), unmarshal}, list...)...)),
		)
		return
	}
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		plain,
		jen.Return(marshal),
	)
	f.Line()
	f.Comment("UnmarshalJSON reads the fields and keeps the object's other members in AdditionalProperties.")
	f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.Return(unmarshal),
	)
}

// emitUnion writes a oneOf/anyOf type: one pointer field per variant and
// Raw, with MarshalJSON (the first set variant, else Raw) and UnmarshalJSON
// (openapi.Union.Decode with the union's description, a package-level
// variable union<Name>).
func emitUnion(f *jen.File, t *Type, types map[string]*Type) {
	var fields []jen.Code
	for _, v := range t.Variants {
		fields = append(fields, jen.Id(v.Name).Op("*").Add(typeExpr(v.Type)))
	}
	if len(t.Fields) > 0 {
		if t.DiscriminatorOnly {
			fields = append(fields, jen.Comment("The base schema's properties: decoded from every value, whichever variant it is."))
		} else {
			fields = append(fields, jen.Comment("The properties declared beside the oneOf/anyOf travel in the same object."))
		}
		fields = append(fields, structFields(t.Fields, false, false)...)
	}
	fields = append(fields, jen.Comment("Raw is the JSON value as received; MarshalJSON writes it when no variant is set."),
		jen.Id("Raw").Qual("encoding/json", "RawMessage"))
	f.Type().Id(t.Name).Struct(fields...)
	f.Line()

	// One shared encoder (openapi.Union.Marshal) given the variant fields,
	// not a switch per union (Stripe has 1,634 unions, issue 24); it also
	// writes the tags of the variant written (trial F11).
	marshalUnion := jen.Id("union" + t.Name).Dot("Marshal").CallFunc(func(g *jen.Group) {
		g.Id("u").Dot("Raw")
		for _, v := range t.Variants {
			g.Id("u").Dot(v.Name)
		}
	})
	if len(t.Fields) == 0 {
		f.Comment("MarshalJSON writes the first variant that is set, with the tags that name it, else Raw (null when empty).")
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Return(marshalUnion),
		)
	} else {
		copyFields := jen.Dict{}
		for _, fl := range t.Fields {
			copyFields[jen.Id(fl.Name)] = jen.Id("u").Dot(fl.Name)
		}
		mergeFields := jen.Return(jen.Qual(openapiPath, "MergeFields").Call(jen.Id("b"), jen.Id("fields").Values(copyFields)))
		if list := memberList(t, "u"); len(list) > 0 {
			// Fields whose names no struct tag can hold are added by their
			// exact names (openapi.AddMembers).
			mergeFields = jen.List(jen.Id("b"), jen.Err()).Op("=").Qual(openapiPath, "MergeFields").Call(jen.Id("b"), jen.Id("fields").Values(copyFields)).Line().
				Return(jen.Qual(openapiPath, "AddMembers").Call(append([]jen.Code{jen.Id("b"), jen.Err()}, list...)...))
		}
		f.Comment("MarshalJSON writes the first variant that is set, with the tags that name it, else Raw (null when empty), with the fields merged in (openapi.MergeFields).")
		f.Func().Params(jen.Id("u").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Type().Id("fields").Struct(structFields(t.Fields, false, false)...),
			jen.List(jen.Id("b"), jen.Err()).Op(":=").Add(marshalUnion),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
			mergeFields,
		)
	}
	f.Line()

	// The description is written on one line, not one line per key or
	// per variant: it is data, and thousands of unions (Stripe has 1,634)
	// made it a tenth of the client (issue 24).
	desc := []jen.Code{field("Name", jen.Lit(t.Name))}
	discriminated := t.Discriminator != "" && hasTags(t)
	if discriminated {
		desc = append(desc, field("Discriminator", jen.Lit(t.Discriminator)))
		if t.DiscriminatorOnly {
			desc = append(desc, field("DiscriminatorOnly", jen.True()))
		}
	}
	kinds := map[string]int{}
	for _, v := range t.Variants {
		kinds[jsonType(v.Type, types)]++
	}
	var variants []jen.Code
	for _, v := range t.Variants {
		d := []jen.Code{field("Name", jen.Lit(v.Name))}
		if len(v.Tags) > 0 && discriminated {
			d = append(d, field("Tags", litStrings(v.Tags)))
		}
		kind := jsonType(v.Type, types)
		if kind != "" {
			d = append(d, field("Type", jen.Lit(kind)))
		}
		// Properties only matter when another variant has the same JSON
		// type.
		if st := types[v.Type.Name]; kinds[kind] > 1 && v.Type.Kind == RefNamed && st != nil && st.Kind == KindStruct {
			req, consts, enums, props := variantEvidence(st)
			if len(req) > 0 {
				d = append(d, field("Required", litStrings(req)))
			}
			if len(consts) > 0 {
				d = append(d, field("Const", litStrings(consts)))
			}
			if len(enums) > 0 {
				d = append(d, field("Enum", litStrings(enums)))
			}
			if len(props) > 0 {
				d = append(d, field("Properties", litStrings(props)))
			}
			if st.Additional != nil {
				d = append(d, field("Open", jen.True()))
			}
		} else if kinds[kind] > 1 && kind == "object" {
			d = append(d, field("Open", jen.True())) // a map or an untyped object keeps every member
		}
		variants = append(variants, jen.Values(d...))
	}
	desc = append(desc, field("Variants", jen.Index().Qual(openapiPath, "Variant").Values(variants...)))
	f.Var().Id("union"+t.Name).Op("=").Qual(openapiPath, "Union").Values(desc...)

	// Each variant decodes through the one shared Union.DecodeInto (a
	// pointer to its field), not an openapi.Into[T] per variant type, which
	// compiled to three functions per type.
	var decoders []jen.Code
	for _, v := range t.Variants {
		decoders = append(decoders, jen.Op("&").Id("u").Dot(v.Name))
	}
	// One line: how the variant is chosen is openapi.Union.DecodeInto's doc,
	// not repeated on each of thousands of unions (issue 24).
	doc := "UnmarshalJSON keeps b in Raw and decodes the one variant openapi.Union.DecodeInto chooses; it returns an *openapi.UnionError when none fits."
	if t.DiscriminatorOnly && discriminated {
		doc = "UnmarshalJSON keeps b in Raw and decodes the variant " + t.Discriminator + " names (none, when it names none) with openapi.Union.DecodeInto; it returns an *openapi.UnionError."
	}
	f.Comment(doc)
	init := jen.Dict{
		jen.Id("Raw"): jen.Append(jen.Qual("encoding/json", "RawMessage").Call(jen.Nil()), jen.Id("b").Op("...")),
	}
	var pre []jen.Code
	if len(t.Fields) > 0 {
		pre = append(pre,
			jen.Type().Id("fields").Struct(structFields(t.Fields, false, false)...),
			jen.Var().Id("f").Id("fields"),
			jen.If(jen.Err().Op(":=").Qual(openapiPath, "DecodeFields").Call(jen.Id("b"), jen.Op("&").Id("f")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		)
		for _, fl := range t.Fields {
			init[jen.Id(fl.Name)] = jen.Id("f").Dot(fl.Name)
		}
	}
	if len(pre) == 0 && len(memberList(t, "u")) == 0 {
		// Only variants and Raw: one shared body (openapi.Union.Unmarshal).
		f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
			jen.Return(jen.Id("union" + t.Name).Dot("Unmarshal").Call(append([]jen.Code{jen.Id("b"), jen.Op("&").Id("u").Dot("Raw")}, decoders...)...)),
		)
		return
	}
	post := []jen.Code{jen.Op("*").Id("u").Op("=").Id(t.Name).Values(init)}
	if list := memberList(t, "u"); len(list) > 0 {
		post = append(post, jen.If(jen.Err().Op(":=").Qual(openapiPath, "DecodeMembers").Call(append([]jen.Code{jen.Id("b"), jen.Nil()}, list...)...), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(append(append(pre, post...),
		jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("union"+t.Name).Dot("DecodeInto").Call(append([]jen.Code{jen.Id("b")}, decoders...)...),
		jen.Return(jen.Err()),
	)...)
}

// field is `name: value` inside a composite literal written on one line.
func field(name string, value jen.Code) *jen.Statement {
	return jen.Id(name).Op(":").Add(value)
}

// litStrings is a []string literal.
func litStrings(ss []string) *jen.Statement {
	var vals []jen.Code
	for _, s := range ss {
		vals = append(vals, jen.Lit(s))
	}
	return jen.Index().String().Values(vals...)
}

// jsonType is the JSON type a value of r arrives as (openapi.JSONObject, …),
// "" when it may be any.
func jsonType(r TypeRef, types map[string]*Type) string {
	switch r.Kind {
	case RefSlice:
		return "array"
	case RefMap:
		return "object"
	case RefNamed:
		t := types[r.Name]
		switch {
		case t == nil || t.Kind == KindUnion:
			return ""
		case t.Kind == KindEnum && t.IntEnum:
			return "number"
		case t.Kind == KindEnum:
			return "string"
		}
		return "object"
	}
	switch r.Scalar {
	case ScalarString, ScalarBytes, ScalarTime, ScalarDate:
		return "string"
	case ScalarBool:
		return "boolean"
	case ScalarInt32, ScalarInt64, ScalarFloat32, ScalarFloat64, ScalarEpochSeconds:
		return "number"
	}
	return ""
}

// variantEvidence returns the JSON names of st's required properties (what
// a response must carry: writeOnly ones are left out), as name/JSON value
// pairs its properties that may hold one value only (Field.Const), as
// name/JSON array pairs those that may hold one of several (Field.Enum), and
// the JSON names of all its properties.
func variantEvidence(st *Type) (required, consts, enums, props []string) {
	for _, fl := range st.Fields {
		if fl.In != "" {
			continue
		}
		props = append(props, fl.JSONName)
		if fl.Required && !fl.WriteOnly {
			required = append(required, fl.JSONName)
		}
		if fl.Const != "" {
			consts = append(consts, fl.JSONName, fl.Const)
		}
		if fl.Enum != "" {
			enums = append(enums, fl.JSONName, fl.Enum)
		}
	}
	return required, consts, enums, props
}

// hasTags reports whether any variant of a union has a discriminator value.
func hasTags(t *Type) bool {
	for _, v := range t.Variants {
		if len(v.Tags) > 0 {
			return true
		}
	}
	return false
}

// members returns the fields of t whose JSON names no struct tag can hold
// (validJSONName): each is tagged `json:"-"` and moved by its type's JSON
// methods as an openapi.Member.
func members(t *Type) []Field {
	var out []Field
	for _, fl := range t.Fields {
		if fl.In == "" && !validJSONName(fl.JSONName) {
			out = append(out, fl)
		}
	}
	return out
}

// memberList is the openapi.Member arguments of t's members: the exact
// name, a pointer to the field of recv, and whether a zero value is left out
// (an optional property, as the omitzero tag of the other fields).
func memberList(t *Type, recv string) []jen.Code {
	var out []jen.Code
	for _, fl := range members(t) {
		out = append(out, jen.Line().Qual(openapiPath, "Member").Values(field("Name", jen.Lit(fl.JSONName)), field("Field", jen.Op("&").Id(recv).Dot(fl.Name)), field("OmitZero", jen.Lit(!fl.Required))))
	}
	return out
}

// emitMemberMethods writes MarshalJSON and UnmarshalJSON of a struct some
// of whose properties have names no struct tag can hold: encoding/json
// moves the other fields (decoded by openapi.Unmarshal, names matched
// exactly) and openapi.AddMembers / DecodeMembers those, by their exact
// names.
func emitMemberMethods(f *jen.File, t *Type) {
	list := memberList(t, "v")
	f.Comment("MarshalJSON writes the fields, those whose JSON names no struct tag can hold by their exact names.")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("plain").Call(jen.Id("v"))),
		jen.Return(jen.Qual(openapiPath, "AddMembers").Call(append([]jen.Code{jen.Id("b"), jen.Err()}, list...)...)),
	)
	f.Line()
	f.Comment("UnmarshalJSON reads the fields, those whose JSON names no struct tag can hold by their exact names.")
	f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.Return(jen.Qual(openapiPath, "DecodeMembers").Call(append([]jen.Code{jen.Id("b"), jen.Qual(openapiPath, "Unmarshal").Call(jen.Id("b"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")))}, list...)...)),
	)
}
