package generator

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// exampleData reports whether the value v of key k in the mapping at ptr is
// example data, which is JSON of the API, not of the spec: nothing inside
// it is a keyword or a reference (OpenAPI 3.0 §4.7.20, Example Object
// "value"; a schema's or media type's "example"; JSON Schema's "examples"
// array). A property, component or other name that happens to be
// "example" or "value" is not data.
func exampleData(ptr, k string, v *yaml.Node) bool {
	parent := ptr[:max(strings.LastIndexByte(ptr, '/'), 0)]
	return exampleValue(namedMap(ptr), strings.HasSuffix(parent, "/examples"), k, v)
}

// exampleDataPath is exampleData at the pointer of the tokens path, named
// being namedMapPath(path).
func exampleDataPath(path []string, named bool, k string, v *yaml.Node) bool {
	return exampleValue(named, len(path) >= 2 && path[len(path)-2] == "examples", k, v)
}

// exampleValue is exampleData once the pointer is read: named, whether the
// mapping is a map of names (namedMap); inExamples, whether its parent is
// an "examples" map (the mapping is an Example Object).
func exampleValue(named, inExamples bool, k string, v *yaml.Node) bool {
	if named {
		return false
	}
	switch k {
	case "example":
		return true
	case "examples":
		return v.Kind == yaml.SequenceNode // a map of Example Objects may hold $refs
	case "value":
		return inExamples // an Example Object's value
	}
	return false
}
