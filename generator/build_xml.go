package generator

import (
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// XMLObject is the OpenAPI XML Object (OpenAPI 3.0 §4.7.26) of a property,
// merged from the property's schema and its allOf members (the first name,
// namespace and prefix found win; attribute and wrapped are true when any
// says so).
type XMLObject struct {
	// Name replaces the property's name as the element or attribute name
	// (for a wrapped array: the wrapper's name).
	Name string
	// Namespace is the element's namespace URI; Prefix its prefix (kept for
	// documentation: encoding/xml writes a default xmlns instead).
	Namespace, Prefix string
	// Attribute: the property is an attribute, not an element.
	Attribute bool
	// Wrapped: an array's elements sit inside one wrapper element
	// (OpenAPI's default is false: the elements repeat in place).
	Wrapped bool
	// ItemName is the name the array's items' XML Object gives each
	// element ("" for none).
	ItemName string
	// PrefixedAttr: the property is an attribute written prefix:name with
	// xmlns:prefix="namespace" declared beside it (S3's Grantee
	// xsi:type), by the type's generated MarshalXML and UnmarshalXML:
	// encoding/xml would invent a prefix of its own (xmlAttributes).
	PrefixedAttr bool
	// Declared: some XML Object (the property's or an allOf member's) is
	// present; a map with one that does not say wrapped: true is
	// flattened (aws2openapi writes Smithy's @xmlFlattened as wrapped:
	// false), one with none is wrapped (Smithy's default).
	Declared bool
	// Skip: another property of the type already has this element name,
	// so this one is not written or read as XML (a warning says so).
	Skip bool
}

// xmlObjectOf reads the XML Object of a property schema.
func xmlObjectOf(sr *openapi3.SchemaRef) XMLObject {
	return xmlObjectAt(sr, true)
}

// xmlObjectAt is xmlObjectOf; withItems reads the items' element name too
// (one level only: an array may be its own items, FuzzGenerate's
// 700f72b67c83fd73).
func xmlObjectAt(sr *openapi3.SchemaRef, withItems bool) XMLObject {
	var x XMLObject
	if sr == nil || sr.Value == nil {
		return x
	}
	var visit func(s *openapi3.Schema, depth int)
	visit = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > 8 {
			return
		}
		if o := s.XML; o != nil {
			x.Declared = true
			x.Name = cmpOr(x.Name, o.Name)
			x.Namespace = cmpOr(x.Namespace, o.Namespace)
			x.Prefix = cmpOr(x.Prefix, o.Prefix)
			x.Attribute = x.Attribute || o.Attribute
			x.Wrapped = x.Wrapped || o.Wrapped
		}
		if withItems && s.Items != nil && x.ItemName == "" {
			x.ItemName = xmlObjectAt(s.Items, false).Name
		}
		for _, m := range s.AllOf {
			if m != nil {
				visit(m.Value, depth+1)
			}
		}
	}
	visit(sr.Value, 0)
	return x
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// xmlRoot is the root element's name of an XML body whose schema is sr:
// its XML Object's name, else its component's name, else fallback.
func xmlRoot(sr *openapi3.SchemaRef, fallback string) (name, namespace string) {
	x := xmlObjectOf(sr)
	if x.Name == "" {
		if n, ok := strings.CutPrefix(sr.Ref, componentPrefix); ok {
			x.Name = n
		}
	}
	return cmpOr(x.Name, fallback), x.Namespace
}

// xmlWrapper reports the property of an XML body's inline object schema
// that is the root element itself: the schema has no XML Object and exactly
// one property, an object (aws2openapi writes S3's PutBucketTagging body as
// {Tagging: {TagSet: …}}, the wire being <Tagging><TagSet>…). It returns
// the property's name, or "".
func xmlWrapper(sr *openapi3.SchemaRef) string {
	if sr == nil || sr.Ref != "" || sr.Value == nil || sr.Value.XML != nil || len(sr.Value.Properties) != 1 {
		return ""
	}
	for k, p := range sr.Value.Properties {
		if p != nil && p.Value != nil {
			typ, _ := schemaType(p.Value)
			if typ == "object" || len(p.Value.AllOf) > 0 {
				return k
			}
		}
	}
	return ""
}

// markXML marks the named struct types an XML body reaches from the types
// named (the input or output, or a wrapper field's type): their fields get
// xml struct tags, in the order the spec declares their properties.
func (b *builder) markXML(names ...string) {
	// The index grows with b.types instead of being rebuilt for each
	// body: that was a map of every type per XML operation (issue 24:
	// 4 % of generating S3).
	if b.typesByName == nil {
		b.typesByName = map[string]*Type{}
	}
	for _, t := range b.types[b.typesIndexed:] {
		b.typesByName[t.Name] = t
	}
	b.typesIndexed = len(b.types)
	byName := b.typesByName
	var visit func(name string)
	var visitRef func(r TypeRef)
	visitRef = func(r TypeRef) {
		switch r.Kind {
		case RefNamed:
			visit(r.Name)
		case RefSlice, RefMap:
			if r.Elem != nil {
				visitRef(*r.Elem)
			}
		}
	}
	visit = func(name string) {
		t := byName[name]
		if t == nil || t.XML || t.Kind != KindStruct {
			return
		}
		t.XML = true
		b.xmlAttributes(t, byName)
		b.xmlOrder(t)
		b.xmlClashes(t)
		for _, f := range t.Fields {
			visitRef(f.Type)
		}
		if t.Embed != "" {
			visit(t.Embed)
		}
	}
	for _, n := range names {
		visit(n)
	}
}

// xmlOrder sorts t's fields into the order the spec declares its
// properties (XML elements are ordered; kin-openapi's property maps are
// not), following allOf members and $refs; fields it cannot place (header
// and path fields of an input) keep their place after the others.
func (b *builder) xmlOrder(t *Type) {
	b.xmlOrderFrom(t, t.Source)
}

// xmlOrderFrom is xmlOrder with the order of the schema at ptr.
func (b *builder) xmlOrderFrom(t *Type, ptr string) {
	order := b.propertyOrder(ptr, 0)
	if len(order) == 0 {
		return
	}
	rank := func(f Field) int {
		if f.In != "" {
			return -1
		}
		if i := slices.Index(order, f.JSONName); i >= 0 {
			return i
		}
		return len(order)
	}
	slices.SortStableFunc(t.Fields, func(x, y Field) int { return rank(x) - rank(y) })
}

// propertyOrder returns the property names of the schema at ptr (a JSON
// pointer into the spec), in the order written, allOf members' in turn.
func (b *builder) propertyOrder(ptr string, depth int) []string {
	n, ok := b.kept.order(ptr)
	if !ok || depth > 8 {
		return nil
	}
	if n.hasRef {
		if p, ok := strings.CutPrefix(n.ref, "#"); ok {
			return b.propertyOrder(p, depth+1)
		}
		return nil
	}
	out := slices.Clone(n.props)
	for i := range n.allOf {
		for _, k := range b.propertyOrder(child(child(ptr, "allOf"), strconv.Itoa(i)), depth+1) {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// xmlClashes marks Skip, with a warning, each field of an XML type whose
// name no xml struct tag can hold (validJSONName), or whose
// element or attribute name an earlier field already uses (encoding/xml
// refuses such a struct): S3's deprecated TopicConfiguration has both
// Event and Events, whose unwrapped items are also <Event>.
func (b *builder) xmlClashes(t *Type) {
	seen := map[string]string{}
	for i, f := range t.Fields {
		tag := xmlTag(f)
		if tag == "-" {
			continue
		}
		if name := cmpOr(f.XML.Name, f.JSONName); !validJSONName(name) {
			// JSON carries it (openapi.Member); an xml struct tag cannot.
			t.Fields[i].XML.Skip = true
			b.d.warnf(t.Source, "XML: property %q of %s has a name no xml struct tag can hold; it is not written or read as XML", f.JSONName, t.Name)
			continue
		}
		key, _, _ := strings.Cut(tag, ">")
		key, _, _ = strings.Cut(key, ",")
		if strings.Contains(tag, ",attr") {
			key += ",attr"
		}
		if other, ok := seen[key]; ok {
			t.Fields[i].XML.Skip = true
			b.d.warnf(t.Source, "XML: property %q of %s has the element name of %q; it is not written or read as XML", f.JSONName, t.Name, other)
			continue
		}
		seen[key] = f.JSONName
	}
}

// outputXMLRoot is the element name the XML Object of op's first 2xx
// response schema gives (the one output decodes), "" when it gives none.
func outputXMLRoot(op *openapi3.Operation) string {
	if op.Responses == nil {
		return ""
	}
	m := op.Responses.Map()
	for _, code := range sortedKeys(m) {
		if r := m[code].Value; is2xx(code) && r != nil && len(r.Content) > 0 {
			mt, _, _ := pickMedia(r.Content)
			if mo := r.Content[mt]; mo != nil {
				return xmlObjectOf(mo.Schema).Name
			}
			return ""
		}
	}
	return ""
}

// xmlAttributes corrects two XML Object readings of t's fields that
// encoding/xml cannot carry (new-user trial 3, F13):
//
//   - attribute: true on a property whose value is not a scalar (an
//     object, array or map) is ignored with a located warning, and the
//     namespace beside it with it: OpenAPI 3.0 §4.7.26 gives attribute to
//     primitive properties only, and encoding/xml refuses a struct (or
//     drops it) as an attribute. aws2openapi writes S3's Grantee so: the
//     Smithy @xmlNamespace(prefix: "xsi") of the structure and the
//     @xmlAttribute of its member Type, both put on the Grantee schema;
//   - a string property whose xml.name is prefix:name, in a component
//     schema whose own XML Object gives a namespace and says attribute
//     (that same pattern), is the attribute name in that namespace,
//     written prefix:name with xmlns:prefix declared (PrefixedAttr):
//     <Grantee xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="CanonicalUser">.
func (b *builder) xmlAttributes(t *Type, byName map[string]*Type) {
	var own XMLObject
	if name, ok := strings.CutPrefix(t.Source, "/components/schemas/"); ok && b.api.Components != nil {
		if sr := b.api.Components.Schemas[name]; sr != nil && sr.Value != nil && sr.Value.XML != nil {
			own = XMLObject{Namespace: sr.Value.XML.Namespace, Attribute: sr.Value.XML.Attribute}
		}
	}
	for i, f := range t.Fields {
		x := &t.Fields[i].XML
		if f.In != "" {
			continue
		}
		scalar := f.Type.Kind == RefScalar || f.Type.Kind == RefNamed && byName[f.Type.Name] != nil && byName[f.Type.Name].Kind == KindEnum
		if x.Attribute && !scalar {
			b.d.warnf(t.Source, "XML: property %q of %s has attribute: true, but its value is not a scalar (OpenAPI: attributes are primitive values); it travels as the element <%s>, its namespace %q not applied",
				f.JSONName, t.Name, cmpOr(x.Name, f.JSONName), x.Namespace)
			x.Attribute, x.Namespace = false, ""
			continue
		}
		if f.Type.Kind == RefMap && !xmlMapField(f) && !x.Skip {
			b.d.warnf(t.Source, "XML: map property %q of %s is nullable (three-state); it is not written or read as XML", f.JSONName, t.Name)
			x.Skip = true
			continue
		}
		prefix, local, ok := strings.Cut(x.Name, ":")
		if !ok || prefix == "" || local == "" || x.Attribute || own.Namespace == "" || !own.Attribute {
			continue
		}
		stringKind := f.Type.Kind == RefScalar && f.Type.Scalar == ScalarString ||
			f.Type.Kind == RefNamed && byName[f.Type.Name] != nil && byName[f.Type.Name].Kind == KindEnum && !byName[f.Type.Name].IntEnum
		if !stringKind || f.ThreeState() || !validJSONName(local) || !validJSONName(prefix) {
			b.d.warnf(t.Source, "XML: property %q of %s is named %q, an attribute in namespace %q, but is not a plain string; it is not written or read as XML", f.JSONName, t.Name, x.Name, own.Namespace)
			x.Skip = true
			continue
		}
		x.Attribute, x.PrefixedAttr, x.Prefix, x.Name, x.Namespace = true, true, prefix, local, own.Namespace
	}
}

// xmlMapField reports whether a map field travels in XML bodies as an
// openapi.XMLMap (wrapped <entry><key>/<value>) or openapi.XMLFlatMap (one
// element per entry): any map but a nullable one (three-state, or a
// nullable map type), which keeps xml:"-" with a warning (xmlAttributes).
func xmlMapField(f Field) bool {
	return f.Type.Kind == RefMap && f.Type.Elem != nil && !f.Type.Nullable && !f.ThreeState() && f.In == ""
}
