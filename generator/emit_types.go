package generator

import (
	"strings"

	"github.com/dave/jennifer/jen"
)

// typesByName indexes svc.Types by Go name.
func typesByName(svc *Service) map[string]*Type {
	types := make(map[string]*Type, len(svc.Types))
	for _, t := range svc.Types {
		types[t.Name] = t
	}
	return types
}

// emitTypes writes types.go: one struct, enum or union per model Type, then
// their JSON methods.
func emitTypes(out *pieces, svc *Service) {
	types := typesByName(svc)
	roles := typeRoles(svc)
	sent := sentTypes(svc, types)
	for _, t := range svc.Types {
		f := out.next()
		var notes []string
		if s := typeSentence(t, roles[t.Name]); s != "" {
			notes = append(notes, s)
		}
		if t.Embed != "" {
			notes = append(notes, "It embeds "+t.Embed+", the decoded response body, so its fields are read on the output directly.")
		}
		doc := docLines([]string{t.Doc}, notes, t.Source)
		if directStructs && t.Kind != KindEnum && t.Kind != KindUnion && t.Embed == "" && out.canDirect() {
			// Printed as go/format prints it (appendStructDecl), unless
			// its shape is one that does not: then by jennifer, below.
			fields := fieldSpecs(t.Fields, t.Output, t.XML)
			if t.Additional == nil && noCompare(t) != nil {
				fields = append([]fieldSpec{{name: "_", typ: &goType{name: "[0]func()"}, trailing: noCompareNote}}, fields...)
			}
			if t.Additional != nil {
				fields = append(fields, fieldSpec{doc: []string{additionalNote}, name: "AdditionalProperties",
					typ: &goType{op: "map[string]", elem: typeOf(*t.Additional)}, tags: skipTag(t.XML)})
			}
			if decl, imports, ok := appendStructDecl(nil, t.Name, doc, fields); ok {
				out.addDirect(decl, imports)
				if t.Additional != nil {
					emitAdditionalMethods(f, t)
				} else {
					if len(members(t)) > 0 {
						emitMemberMethods(f, t)
					}
					if t.XML {
						emitPrefixedAttrMethods(f, t)
					}
				}
				f.Line()
				continue
			}
		}
		f.Add(docStatement(doc))
		switch t.Kind {
		case KindEnum:
			emitEnum(f, t, sent[t.Name])
		case KindUnion:
			emitUnion(f, t, types)
		default:
			if t.Embed != "" {
				f.Type().Id(t.Name).Struct(append(append(noCompare(t), structFields(t.Fields, t.Output, t.XML)...),
					jen.Comment(t.Embed+" is the decoded response body; its fields and JSON methods are promoted."), jen.Id(t.Embed))...)
				break
			}
			if t.Additional == nil {
				f.Type().Id(t.Name).Struct(append(noCompare(t), structFields(t.Fields, t.Output, t.XML)...)...)
				if len(members(t)) > 0 {
					emitMemberMethods(f, t)
				}
				if t.XML {
					emitPrefixedAttrMethods(f, t)
				}
				break
			}
			f.Type().Id(t.Name).Struct(append(structFields(t.Fields, t.Output, t.XML),
				jen.Comment(additionalNote),
				jen.Id("AdditionalProperties").Map(jen.String()).Add(typeExpr(*t.Additional)).Tag(skipTag(t.XML)))...)
			emitAdditionalMethods(f, t)
		}
		f.Line()
	}
}

// directStructs turns on printing struct declarations without jennifer
// and go/format (appendStructDecl); tests turn it off to compare.
var directStructs = true

// typeRoles says, by type name, which operation a type is the input or
// output of ("the input of GetItem"); the first operation in name order
// wins.
func typeRoles(svc *Service) map[string]string {
	roles := map[string]string{}
	for _, op := range svc.Operations {
		for name, role := range map[string]string{op.Input: "the input of ", op.Output: "the output of "} {
			if roles[name] == "" {
				roles[name] = role + op.Name
			}
		}
	}
	return roles
}

// typeSentence is the generator's sentence naming a type: its role for an
// operation's input or output ("GetItemInput is the input of GetItem."),
// else, when the spec has no description to lead with, what kind of
// schema it is ("TableStatus is an enumeration of the spec: one constant per
// value."); "" when the spec's description says it all.
func typeSentence(t *Type, role string) string {
	switch {
	case role != "":
		return t.Name + " is " + role + "."
	case t.Doc != "":
		return ""
	case t.Kind == KindEnum:
		return t.Name + " is an enumeration of the spec: one constant per value."
	case t.Kind == KindUnion && t.DiscriminatorOnly:
		return t.Name + " is a base schema of the spec with a discriminator: one field per schema that allOf it, chosen by " + t.Discriminator + "."
	case t.Kind == KindUnion:
		return t.Name + " is a union of the spec (oneOf/anyOf): one field per variant."
	}
	return t.Name + " is an object of the spec."
}

// noCompare is the first field of a generated struct that would otherwise
// be comparable: a zero-size array of funcs (protoc-gen-go's DoNotCompare)
// makes it not comparable, so the compiler writes no equality function
// per type (the GitHub client had 1,730; its build took 7 % less memory
// without them, issue 24). No generated struct is comparable: the others
// hold a slice, map, openapi.Nullable or response metadata already.
// Compare fields, or use reflect.DeepEqual.
func noCompare(t *Type) []jen.Code {
	if t.Output || t.Additional != nil {
		return nil // runtime.ResponseMetadata holds the body's bytes; a map
	}
	for _, fl := range t.Fields {
		switch r := fl.Type; {
		case fl.ThreeState(), r.Kind == RefSlice, r.Kind == RefMap,
			r.Kind == RefScalar && (r.Scalar == ScalarBytes || r.Scalar == ScalarRawJSON):
			return nil
		}
	}
	return []jen.Code{jen.Id("_").Index(jen.Lit(0)).Func().Params().Comment(noCompareNote)}
}

// noCompareNote is the line comment of noCompare's field.
const noCompareNote = "not comparable: no equality function to compile"

// additionalNote is the doc comment of the AdditionalProperties field.
const additionalNote = "AdditionalProperties holds the object's other members (additionalProperties)."

// sentTypes is the set of model types a request can carry: the operations'
// inputs and every type their fields, union variants, elements and
// additional properties reach.
func sentTypes(svc *Service, types map[string]*Type) map[string]bool {
	sent := map[string]bool{}
	var ref func(r *TypeRef)
	var visit func(name string)
	ref = func(r *TypeRef) {
		for ; r != nil; r = r.Elem {
			if r.Kind == RefNamed {
				visit(r.Name)
			}
		}
	}
	visit = func(name string) {
		t := types[name]
		if t == nil || sent[name] {
			return
		}
		sent[name] = true
		for i := range t.Fields {
			ref(&t.Fields[i].Type)
		}
		for i := range t.Variants {
			ref(&t.Variants[i].Type)
		}
		ref(t.Additional)
		if t.Embed != "" {
			visit(t.Embed)
		}
	}
	for _, op := range svc.Operations {
		visit(op.Input)
	}
	return sent
}

// emitEnum writes a named string (or int64) type and one constant per
// value; a one-value enum a request can carry (sent) gets the marshal
// method that sends its value when left unset (emitConstMarshal).
func emitEnum(f *jen.File, t *Type, sent bool) {
	decl := jen.Type().Id(t.Name).String()
	if t.IntEnum {
		decl = jen.Type().Id(t.Name).Int64()
	}
	// One comment documents the block: each constant's value is its wire
	// value, so a comment per constant would repeat its line. The only
	// value of a one-value enum (Stripe has 1,867) is one declaration with a
	// line comment, not a block of four lines (issue 24).
	if len(t.Values) == 1 && t.Values[0].Doc == "" {
		v := t.Values[0]
		var lit jen.Code = jen.Lit(v.Value)
		if t.IntEnum {
			lit = jen.Lit(int(v.Int))
		}
		f.Add(decl)
		f.Const().Id(v.Name).Id(t.Name).Op("=").Add(lit).Comment("the only value of " + t.Name + ", as sent on the wire")
		if sent && !zeroOnly(t) && !t.Partial {
			f.Line()
			emitConstMarshal(f, t)
		}
		return
	}
	f.Add(decl)
	f.Line()
	f.Comment("Values of " + t.Name + ", as sent on the wire.")
	f.Const().DefsFunc(func(g *jen.Group) {
		for i, v := range t.Values {
			if v.Doc != "" {
				if i > 0 {
					g.Line()
				}
				for _, l := range withDefs(specDocLines(v.Doc)) {
					g.Comment(l)
				}
			}
			if t.IntEnum {
				g.Id(v.Name).Id(t.Name).Op("=").Lit(int(v.Int))
				continue
			}
			g.Id(v.Name).Id(t.Name).Op("=").Lit(v.Value)
		}
	})
	if len(t.Values) == 1 && sent && !zeroOnly(t) && !t.Partial {
		emitConstMarshal(f, t)
	}
}

// zeroOnly reports whether an enum's only value is its type's zero value
// ("" or 0, Stripe's "empty string unsets" variants): left unset it is sent
// as that value already, so it needs no marshal method.
func zeroOnly(t *Type) bool {
	if len(t.Values) != 1 {
		return false
	}
	if t.IntEnum {
		return t.Values[0].Int == 0
	}
	return t.Values[0].Value == ""
}

// emitConstMarshal writes the marshal method of an enum of one value (a
// const): its zero value is sent as that value, so a required field the
// caller leaves unset still sends what the spec allows ("kind":"thing",
// never "kind":""). A string enum gets MarshalText (JSON, XML and map
// keys), an integer one MarshalJSON. Decoding is unchanged. Only types a
// request can carry get it: in a response-only type the value comes from
// the server, and the two methods per type were a fifth of the Stripe
// client's compile time and memory (issue 24).
func emitConstMarshal(f *jen.File, t *Type) {
	only := t.Values[0].Name
	if t.IntEnum {
		f.Comment("MarshalJSON writes " + t.Name + ", " + only + " when it is zero: " + t.Name + " may hold that value only, so a field left unset still sends it.")
		f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.If(jen.Id("v").Op("==").Lit(0)).Block(jen.Id("v").Op("=").Id(only)),
			jen.Return(jen.Qual("strconv", "AppendInt").Call(jen.Nil(), jen.Int64().Call(jen.Id("v")), jen.Lit(10)), jen.Nil()),
		)
		f.Line()
		return
	}
	f.Comment("MarshalText writes " + t.Name + ", " + only + " when it is empty: " + t.Name + " may hold that value only, so a field left unset still sends it.")
	// One shared body (openapi.ConstText), not two statements per enum (issue 24).
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalText").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Qual(openapiPath, "ConstText").Call(jen.String().Call(jen.Id("v")), jen.String().Call(jen.Id(only)))),
	)
	f.Line()
}

// skipTag is the struct tag of a field no body carries.
func skipTag(xml bool) map[string]string {
	if xml {
		return map[string]string{"json": "-", "xml": "-"}
	}
	return map[string]string{"json": "-"}
}

// structFields renders fields; output types get ResultMetadata first. The
// fields of a type written as XML also get xml tags (xmlTag).
func structFields(fields []Field, output, xml bool) []jen.Code {
	specs := fieldSpecs(fields, output, xml)
	out := make([]jen.Code, 0, len(specs))
	for _, fs := range specs {
		out = append(out, fs.jen())
	}
	return out
}

// fieldSpec is one field of a generated struct: its doc comment lines,
// name, type, struct tag (by key) and line comment ("" for none).
type fieldSpec struct {
	doc      []string
	name     string
	typ      *goType
	tags     map[string]string
	trailing string
}

// jen is fs as jennifer code.
func (fs fieldSpec) jen() jen.Code {
	var s jen.Statement
	for _, l := range fs.doc {
		s.Comment(l).Line()
	}
	s.Id(fs.name).Add(fs.typ.jen()).Tag(fs.tags)
	if fs.trailing != "" {
		s.Comment(fs.trailing)
	}
	return &s
}

// fieldSpecs is structFields before rendering.
func fieldSpecs(fields []Field, output, xml bool) []fieldSpec {
	var out []fieldSpec
	if output {
		out = append(out, fieldSpec{doc: []string{"ResultMetadata describes how the call went: attempts made, request ID."},
			name: "ResultMetadata", typ: &goType{pkg: runtimePath, name: "ResponseMetadata"}, tags: skipTag(xml)})
	}
	for _, fl := range fields {
		// No blank line between fields, documented or not (protoc-gen-go's
		// layout): it was a tenth of a client's lines (issue 24). A field
		// the spec does not describe gets its one line of notes ("Maximum
		// length: 64. Required.") as a line comment after it.
		lines := fieldDoc(fl)
		trailing := ""
		if len(lines) == 1 && strings.TrimSpace(fl.Doc) == "" {
			trailing, lines = lines[0], nil
		}
		tag := fl.JSONName
		switch {
		case fl.In != "" || !validJSONName(fl.JSONName):
			tag = "-" // not in the body, or moved by openapi.Member (emitMemberMethods)
		case !fl.Required:
			// omitzero, not omitempty: nil means absent, while an empty
			// non-nil slice or map is sent (DynamoDB's {"L": []}).
			tag += ",omitzero"
		case tag == "-":
			tag = "-," // encoding/json's spelling of the name "-"
		}
		tags := map[string]string{"json": tag}
		if xml {
			tags["xml"] = xmlTag(fl)
		}
		typ := fieldGoType(fl)
		if xml && xmlMapField(fl) && xmlTag(fl) != "-" {
			// encoding/xml refuses Go maps: AWS's map serialization.
			kind := "XMLMap"
			if fl.XML.Declared && !fl.XML.Wrapped {
				kind = "XMLFlatMap"
			}
			typ = &goType{pkg: openapiPath, name: kind, elem: typeOf(*fl.Type.Elem)}
		}
		out = append(out, fieldSpec{doc: lines, name: fl.Name, typ: typ, tags: tags, trailing: trailing})
	}
	return out
}

// fieldDoc is a field's doc comment lines: the property's description,
// then its facts (factsDoc) and "Required." for a required property (with
// how nil travels when it is nullable too). Facts and "Required." continue
// the description's last paragraph (notesAfter), as protoc-gen-go and
// hand-written SDKs write them, not a paragraph of their own each: with
// thousands of fields that was a tenth of a client (issue 24).
func fieldDoc(fl Field) []string {
	lines, defs := specDocLines(fl.Doc)
	facts, fdefs := specDocLines(fl.Facts)
	defs = append(defs, fdefs...)
	var notes, deprecated []string
	for i, l := range facts {
		if strings.HasPrefix(l, "Deprecated:") {
			deprecated = facts[i:]
			break
		}
		if l != "" {
			notes = append(notes, l)
		}
	}
	switch {
	case fl.Required && fl.Nullable:
		notes = append(notes, "Required; nil is sent as null.")
	case fl.Required:
		notes = append(notes, "Required.")
	}
	if len(notes) > 0 {
		lines = notesAfter(lines, strings.Join(notes, " "))
	}
	if len(deprecated) > 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, deprecated...)
	}
	return withDefs(lines, defs)
}

// notesAfter appends the generator's note to doc comment lines: on a line
// of its own that continues the last paragraph when that ends in plain
// prose, else (after a list, a code block, a heading, or nothing) as a
// paragraph of its own, so gofmt leaves the comment as written.
func notesAfter(lines []string, note string) []string {
	if len(lines) == 0 {
		return []string{note}
	}
	if plainProse(lines[len(lines)-1]) && !listOrCodeParagraph(lines) {
		return append(lines, note)
	}
	return append(lines, "", note)
}

// plainProse reports whether a doc comment line is prose a following line
// can continue: not blank, not indented (code, list), not a heading.
func plainProse(l string) bool {
	return l != "" && l[0] != ' ' && l[0] != '\t' && !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "* ") && !strings.HasPrefix(l, "+ ")
}

// listOrCodeParagraph reports whether the last paragraph of lines holds an
// indented line (a list or code block that an unindented line would end
// in a way gofmt rewrites).
func listOrCodeParagraph(lines []string) bool {
	for i := len(lines) - 1; i >= 0 && lines[i] != ""; i-- {
		if !plainProse(lines[i]) {
			return true
		}
	}
	return false
}

// fieldType is a field's Go type: an optional nullable JSON member is an
// openapi.Nullable (absent, null or a value: Field.ThreeState); optional and nullable structs, unions,
// scalars and enums are pointers, and required structs that close a cycle
// of values (Indirect); required ones are plain values; slices, maps,
// []byte and json.RawMessage are nil-able values.
func fieldType(fl Field) jen.Code {
	return fieldGoType(fl).jen()
}

// fieldGoType is fieldType as a goType (the one rule, for jennifer and for
// structText).
func fieldGoType(fl Field) *goType {
	if fl.ThreeState() {
		elem := typeOf(fl.Type)
		if fl.Indirect {
			elem = &goType{op: "*", elem: elem}
		}
		return &goType{pkg: openapiPath, name: "Nullable", elem: elem}
	}
	if fieldIsPointer(fl) {
		return &goType{op: "*", elem: typeOf(fl.Type)}
	}
	return typeOf(fl.Type)
}

// fieldIsPointer reports whether fieldType makes fl a pointer.
func fieldIsPointer(fl Field) bool {
	if fl.ThreeState() {
		return false
	}
	t := fl.Type
	return t.Kind == RefNamed && t.Struct && fl.Indirect || t.Kind == RefScalar && t.Scalar == ScalarFile ||
		(!fl.Required || fl.Nullable) && (t.Kind == RefNamed || t.Kind == RefScalar && t.Scalar != ScalarBytes && t.Scalar != ScalarRawJSON && t.Scalar != ScalarReader && t.Scalar != ScalarReadCloser)
}

// typeExpr is the Go type of r as a value (slice elements and map values of
// struct type are values; a nullable one, TypeRef.Nullable, is a pointer).
func typeExpr(r TypeRef) *jen.Statement {
	return typeOf(r).jen()
}

// typeOf is typeExpr as a goType.
func typeOf(r TypeRef) *goType {
	if r.Nullable {
		r.Nullable = false
		return &goType{op: "*", elem: typeOf(r)}
	}
	switch r.Kind {
	case RefNamed:
		return &goType{name: r.Name}
	case RefSlice:
		return &goType{op: "[]", elem: typeOf(*r.Elem)}
	case RefMap:
		return &goType{op: "map[string]", elem: typeOf(*r.Elem)}
	}
	if r.Scalar == ScalarBytes {
		return &goType{op: "[]", elem: &goType{name: "byte"}}
	}
	// The other scalars are spelled as Go writes them: a predeclared
	// name, or PACKAGE.Name of one of scalarPackages.
	if pkg, name, ok := strings.Cut(r.Scalar, "."); ok {
		return &goType{pkg: scalarPackages[pkg], name: name}
	}
	return &goType{name: r.Scalar}
}

// scalarPackages is the import path of each package a Scalar names, by the
// package name it is spelled with (and jennifer imports it as).
var scalarPackages = map[string]string{
	"time":    "time",
	"openapi": openapiPath,
	"json":    "encoding/json",
	"io":      "io",
}

// goType is a Go type expression as the generator writes field types: an
// operator applied to elem (op "*", "[]" or "map[string]"), or a name,
// local or predeclared (pkg "") or of the package imported from pkg, with
// elem its one type argument when not nil.
type goType struct {
	op, pkg, name string
	elem          *goType
}

// jen is t as jennifer code.
func (t *goType) jen() *jen.Statement {
	switch t.op {
	case "*":
		return jen.Op("*").Add(t.elem.jen())
	case "[]":
		return jen.Index().Add(t.elem.jen())
	case "map[string]":
		return jen.Map(jen.String()).Add(t.elem.jen())
	}
	s := jen.Id(t.name)
	if t.pkg != "" {
		s = jen.Qual(t.pkg, t.name)
	}
	if t.elem != nil {
		s.Types(t.elem.jen())
	}
	return s
}

// xmlTag is a field's encoding/xml struct tag from its XML Object
// (OpenAPI 3.0 §4.7.26): the element (or, with attribute, the attribute)
// named by xml.name, else the property's name, in xml.namespace; an array
// repeats one element per item, named by the items' xml.name, else the
// array's own xml.name, else the property's name, inside a wrapper element
// (xml.name, else the property's name) when wrapped. Fields that are no
// property (parameters), maps and raw JSON are not written ("-").
func xmlTag(fl Field) string {
	switch {
	case fl.In != "" || fl.XML.Skip || fl.XML.PrefixedAttr || fl.Type.Kind == RefMap && !xmlMapField(fl) || fl.Type.Kind == RefScalar && fl.Type.Scalar == ScalarRawJSON:
		return "-"
	}
	x := fl.XML
	name := cmpOr(x.Name, fl.JSONName)
	ns, omit := "", ",omitempty"
	if x.Namespace != "" {
		ns = x.Namespace + " "
	}
	if fl.Required && !fl.Nullable {
		omit = "" // a required value is written even when zero
	}
	switch {
	case fl.Type.Kind == RefMap:
		return ns + name + ",omitempty" // openapi.XMLMap or XMLFlatMap: no entries, no element
	case x.Attribute:
		return ns + name + ",attr" + omit
	case fl.Type.Kind == RefSlice:
		if x.Wrapped {
			return ns + name + ">" + cmpOr(x.ItemName, fl.JSONName)
		}
		return ns + cmpOr(x.ItemName, name)
	}
	return ns + name + omit
}

// emitPrefixedAttrMethods writes MarshalXML and UnmarshalXML for an XML
// struct with PrefixedAttr fields (S3's Grantee): the rest of the struct
// travels by its tags (a local type without the methods), the attributes
// are written prefix:name beside xmlns:prefix="namespace"
// (openapi.AppendXMLPrefixedAttr) and read by namespace and name
// (openapi.XMLAttrValue), whatever prefix the document binds.
func emitPrefixedAttrMethods(f *jen.File, t *Type) {
	var attrs []Field
	for _, fl := range t.Fields {
		if fl.XML.PrefixedAttr {
			attrs = append(attrs, fl)
		}
	}
	if len(attrs) == 0 {
		return
	}
	xmlPkg := "encoding/xml"
	f.Comment("MarshalXML writes " + t.Name + " with its namespaced attributes as the spec prefixes them")
	f.Comment("(encoding/xml would invent a prefix of its own); the other fields by their xml tags.")
	f.Func().Params(jen.Id("v").Id(t.Name)).Id("MarshalXML").Params(jen.Id("e").Op("*").Qual(xmlPkg, "Encoder"), jen.Id("start").Qual(xmlPkg, "StartElement")).Error().BlockFunc(func(g *jen.Group) {
		g.Type().Id("plain").Id(t.Name)
		for _, fl := range attrs {
			val := jen.Parens(jen.Op("*").String()).Call(jen.Id("v").Dot(fl.Name))
			if !fieldIsPointer(fl) {
				g.Id("s" + fl.Name).Op(":=").String().Call(jen.Id("v").Dot(fl.Name))
				val = jen.Op("&").Id("s" + fl.Name)
			}
			g.Id("start").Dot("Attr").Op("=").Qual(openapiPath, "AppendXMLPrefixedAttr").Call(jen.Id("start").Dot("Attr"),
				jen.Lit(fl.XML.Prefix), jen.Lit(fl.XML.Namespace), jen.Lit(fl.XML.Name), val)
		}
		g.Return(jen.Id("e").Dot("EncodeElement").Call(jen.Id("plain").Call(jen.Id("v")), jen.Id("start")))
	})
	f.Line()
	f.Comment("UnmarshalXML reads " + t.Name + ": its namespaced attributes by namespace and name, whatever")
	f.Comment("prefix the document binds; the other fields by their xml tags.")
	f.Func().Params(jen.Id("v").Op("*").Id(t.Name)).Id("UnmarshalXML").Params(jen.Id("d").Op("*").Qual(xmlPkg, "Decoder"), jen.Id("start").Qual(xmlPkg, "StartElement")).Error().BlockFunc(func(g *jen.Group) {
		g.Type().Id("plain").Id(t.Name)
		g.If(jen.Err().Op(":=").Id("d").Dot("DecodeElement").Call(jen.Parens(jen.Op("*").Id("plain")).Call(jen.Id("v")), jen.Op("&").Id("start")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		for _, fl := range attrs {
			get := jen.Qual(openapiPath, "XMLAttrValue").Call(jen.Id("start").Dot("Attr"), jen.Lit(fl.XML.Namespace), jen.Lit(fl.XML.Name))
			if fieldIsPointer(fl) {
				g.Id("v").Dot(fl.Name).Op("=").Parens(jen.Op("*").Add(typeExpr(fl.Type))).Call(get)
				continue
			}
			g.If(jen.Id("s").Op(":=").Add(get), jen.Id("s").Op("!=").Nil()).Block(
				jen.Id("v").Dot(fl.Name).Op("=").Add(typeExpr(fl.Type)).Call(jen.Op("*").Id("s")))
		}
		g.Return(jen.Nil())
	})
}
