// Package generator turns an OpenAPI 3 spec, with the root-level x-retry and
// x-protocol extensions, into a typed Go client that calls the retrygen
// runtime.
//
// The pipeline has three steps, each in its own files:
//
//   - load (load.go, load31.go, overlay.go, xretry.go): read the spec as
//     YAML or JSON, apply OpenAPI Overlay 1.0 documents in order, convert the
//     OpenAPI 3.1 references kin-openapi does not resolve, parse x-retry,
//     and load the result leniently with kin-openapi;
//   - build (build_*.go, naming.go): turn kin-openapi's
//     structures into the intermediate model of model.go, deciding every Go
//     name once (the naming rules are in naming.go);
//   - emit (emit_*.go): render the model with jennifer. The emitter never
//     sees kin-openapi types, and spec text reaches Go source only through
//     jen.Comment (one line at a time) and jen.Lit.
//
// Problems are reported as [Diagnostic] values located by a JSON pointer
// into the spec (RFC 6901).
package generator
