package generator

import (
	"github.com/dave/jennifer/jen"
)

// JSON methods of structs with additional properties and of unions, and the
// generic helpers they call (written once per package, in types.go).

// emitAdditionalMethods writes MarshalJSON and UnmarshalJSON of a struct
// with additional properties: the fixed fields and AdditionalProperties
// travel as one JSON object, so a decode then encode loses no member.
func emitAdditionalMethods(f *jen.File, t *Type) {
	plain := jen.Type().Id("plain").Id(t.Name)
	f.Comment("MarshalJSON writes the fields and AdditionalProperties as one JSON object.")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		plain,
		jen.Return(jen.Id("marshalObject").Call(jen.Id("plain").Call(jen.Id("v")), jen.Id("v").Dot("AdditionalProperties"))),
	)
	f.Line()
	known := []jen.Code{jen.Id("b"), jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")), jen.Op("&").Id("v").Dot("AdditionalProperties")}
	for _, fl := range t.Fields {
		known = append(known, jen.Lit(fl.JSONName))
	}
	f.Comment("UnmarshalJSON reads the fields and keeps the object's other members in AdditionalProperties.")
	f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Type().Id("plain").Id(t.Name),
		jen.Return(jen.Id("unmarshalObject").Call(known...)),
	)
}

// emitObjectHelpers writes marshalObject and unmarshalObject.
func emitObjectHelpers(f *jen.File) {
	jsonQ := func(name string) *jen.Statement { return jen.Qual("encoding/json", name) }
	raw := jsonQ("RawMessage")
	f.Comment("marshalObject encodes fixed (a struct) and adds the members of extra it does not have, as one")
	f.Comment("JSON object with sorted keys.")
	f.Func().Id("marshalObject").Types(jen.Id("T").Any()).Params(jen.Id("fixed").Any(), jen.Id("extra").Map(jen.String()).Id("T")).
		Params(jen.Index().Byte(), jen.Error()).Block(
		jen.List(jen.Id("b"), jen.Err()).Op(":=").Add(jsonQ("Marshal")).Call(jen.Id("fixed")),
		jen.If(jen.Err().Op("!=").Nil().Op("||").Len(jen.Id("extra")).Op("==").Lit(0)).Block(jen.Return(jen.Id("b"), jen.Err())),
		jen.Id("m").Op(":=").Map(jen.String()).Add(raw.Clone()).Values(),
		jen.If(jen.Err().Op(":=").Add(jsonQ("Unmarshal")).Call(jen.Id("b"), jen.Op("&").Id("m")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("extra")).Block(
			jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("m").Index(jen.Id("k")), jen.Id("ok")).Block(jen.Continue()),
			jen.If(jen.List(jen.Id("m").Index(jen.Id("k")), jen.Err()).Op("=").Add(jsonQ("Marshal")).Call(jen.Id("v")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err())),
		),
		jen.Return(jsonQ("Marshal").Call(jen.Id("m"))),
	)
	f.Line()
	f.Comment("unmarshalObject decodes the JSON object b into fixed (a struct) and every member whose name is not")
	f.Comment("in known into *extra (nil when there is none). Names are compared exactly; encoding/json fills")
	f.Comment("fixed case-insensitively, so a member spelled in another case is kept in both.")
	f.Func().Id("unmarshalObject").Types(jen.Id("T").Any()).Params(jen.Id("b").Index().Byte(), jen.Id("fixed").Any(),
		jen.Id("extra").Op("*").Map(jen.String()).Id("T"), jen.Id("known").Op("...").String()).Error().Block(
		jen.If(jen.Err().Op(":=").Add(jsonQ("Unmarshal")).Call(jen.Id("b"), jen.Id("fixed")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Var().Id("m").Map(jen.String()).Add(raw.Clone()),
		jen.If(jen.Err().Op(":=").Add(jsonQ("Unmarshal")).Call(jen.Id("b"), jen.Op("&").Id("m")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("known")).Block(jen.Delete(jen.Id("m"), jen.Id("k"))),
		jen.Op("*").Id("extra").Op("=").Nil(),
		jen.For(jen.List(jen.Id("k"), jen.Id("raw")).Op(":=").Range().Id("m")).Block(
			jen.Var().Id("v").Id("T"),
			jen.If(jen.Err().Op(":=").Add(jsonQ("Unmarshal")).Call(jen.Id("raw"), jen.Op("&").Id("v")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
			jen.If(jen.Op("*").Id("extra").Op("==").Nil()).Block(jen.Op("*").Id("extra").Op("=").Map(jen.String()).Id("T").Values()),
			jen.Parens(jen.Op("*").Id("extra")).Index(jen.Id("k")).Op("=").Id("v"),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// emitUnion writes a oneOf/anyOf type: one pointer field per variant and
// Raw, with MarshalJSON (the first set variant, else Raw) and UnmarshalJSON
// (the variant the discriminator selects, else the first variant that
// decodes strictly; Raw always keeps the JSON as received).
func emitUnion(f *jen.File, t *Type) {
	var fields []jen.Code
	for _, v := range t.Variants {
		fields = append(fields, jen.Id(v.Name).Op("*").Add(typeExpr(v.Type)))
	}
	fields = append(fields, jen.Line().Comment("Raw is the JSON value as received; MarshalJSON writes it when no variant is set."),
		jen.Id("Raw").Qual("encoding/json", "RawMessage"))
	f.Type().Id(t.Name).Struct(fields...)
	f.Line()

	f.Comment("MarshalJSON writes the first variant that is set, else Raw (null when empty).")
	f.Func().Params(jen.Id("u").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch().BlockFunc(func(g *jen.Group) {
			for _, v := range t.Variants {
				g.Case(jen.Id("u").Dot(v.Name).Op("!=").Nil()).Block(jen.Return(jen.Qual("encoding/json", "Marshal").Call(jen.Id("u").Dot(v.Name))))
			}
		}),
		jen.Return(jen.Qual("encoding/json", "Marshal").Call(jen.Id("u").Dot("Raw"))),
	)
	f.Line()

	decode := func(v Variant, strict bool) *jen.Statement {
		return jen.Id("decodeVariant").Call(jen.Id("b"), jen.Op("&").Id("u").Dot(v.Name), jen.Lit(strict))
	}
	body := []jen.Code{jen.Op("*").Id("u").Op("=").Id(t.Name).Values(jen.Dict{
		jen.Id("Raw"): jen.Append(jen.Qual("encoding/json", "RawMessage").Call(jen.Nil()), jen.Id("b").Op("...")),
	})}
	if t.Discriminator != "" && hasTags(t) {
		body = append(body, jen.Switch(jen.Id("discriminatorValue").Call(jen.Id("b"), jen.Lit(t.Discriminator))).BlockFunc(func(g *jen.Group) {
			for _, v := range t.Variants {
				if len(v.Tags) == 0 {
					continue
				}
				var tags []jen.Code
				for _, tag := range v.Tags {
					tags = append(tags, jen.Lit(tag))
				}
				g.Case(tags...).Block(jen.Id("_").Op("=").Add(decode(v, false)), jen.Return(jen.Nil()))
			}
		}))
	}
	try := jen.Id("_").Op("=")
	for i, v := range t.Variants {
		if i > 0 {
			try.Op("||")
		}
		try.Add(decode(v, true))
	}
	body = append(body, try, jen.Return(jen.Nil()))
	f.Comment("UnmarshalJSON keeps b in Raw and decodes it into the variant the discriminator selects, or else")
	f.Comment("into the first variant, in spec order, that decodes without unknown members. It never fails.")
	f.Func().Params(jen.Id("u").Op("*").Id(t.Name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(body...)
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

// emitUnionHelpers writes decodeVariant and discriminatorValue.
func emitUnionHelpers(f *jen.File) {
	f.Comment("decodeVariant decodes b into a new T and stores it in *dst when that succeeds; strict rejects")
	f.Comment("unknown object members, so trying variants in order picks the first that fits.")
	f.Func().Id("decodeVariant").Types(jen.Id("T").Any()).Params(jen.Id("b").Index().Byte(), jen.Id("dst").Op("**").Id("T"), jen.Id("strict").Bool()).Bool().Block(
		jen.Id("d").Op(":=").Qual("encoding/json", "NewDecoder").Call(jen.Qual("bytes", "NewReader").Call(jen.Id("b"))),
		jen.If(jen.Id("strict")).Block(jen.Id("d").Dot("DisallowUnknownFields").Call()),
		jen.Id("v").Op(":=").New(jen.Id("T")),
		jen.If(jen.Id("d").Dot("Decode").Call(jen.Id("v")).Op("!=").Nil()).Block(jen.Return(jen.False())),
		jen.Op("*").Id("dst").Op("=").Id("v"),
		jen.Return(jen.True()),
	)
	f.Line()
	f.Comment("discriminatorValue returns the string member name of the JSON object b, or \"\".")
	f.Func().Id("discriminatorValue").Params(jen.Id("b").Index().Byte(), jen.Id("name").String()).String().Block(
		jen.Var().Id("m").Map(jen.String()).Qual("encoding/json", "RawMessage"),
		jen.Var().Id("s").String(),
		jen.If(jen.Qual("encoding/json", "Unmarshal").Call(jen.Id("b"), jen.Op("&").Id("m")).Op("!=").Nil().Op("||").
			Qual("encoding/json", "Unmarshal").Call(jen.Id("m").Index(jen.Id("name")), jen.Op("&").Id("s")).Op("!=").Nil()).Block(jen.Return(jen.Lit(""))),
		jen.Return(jen.Id("s")),
	)
	f.Line()
}
