// Package generator turns an OpenAPI 3 spec, with the root-level x-retry and
// x-protocol extensions, into a typed Go client that calls the retrygen
// runtime.
//
// # Pipeline
//
// A spec becomes Go code in four steps: load → build → model → emit. Each
// step has its own files; [LoadService] runs the first three and
// [Generate] the last.
//
//   - load (load.go; loadyaml.go, loadjson.go, yamlscan.go, loadrefs.go,
//     loaddegrade.go, overlay.go, load31.go, jsonescape.go, kinload.go,
//     kinvalidate.go): read the spec as YAML or JSON (JSON and the YAML real
//     specs use by scanners of our own, other YAML by yaml.v3) within a node budget, bundle the files its relative $refs name, apply
//     OpenAPI Overlay 1.0 documents in order, skip operations with a defect
//     of their own, convert what kin-openapi does not resolve of OpenAPI 3.1,
//     and load the tree leniently with kin-openapi. xretry.go (with
//     yamlnode.go and defaults.go) parses x-retry straight into the
//     runtime's own values, [runtime.Service] and [runtime.Operation], so a
//     rule has one definition: the runtime's.
//   - build (build.go, build_*.go, naming.go, auth.go): turn kin-openapi's
//     structures into the model, deciding every Go name once (naming.go).
//     build_types.go makes a schema a named type or an inline one,
//     build_allof.go merges allOf, build_union.go makes oneOf/anyOf unions,
//     build_params.go and build_body.go make an operation's input,
//     build_body.go its output, build_errors.go its modelled errors, and
//     build_uses.go decides whether a 2xx schema is the output itself or
//     embedded in it; build_paginate.go resolves an operation's
//     x-pagination (or x-speakeasy-pagination, x-ms-pageable, the Link
//     heuristic) to member paths, and build_waiters.go compiles its
//     x-waiters, JMESPath subset included, checking both against the
//     input and output types.
//   - model (model.go): [Service], [Operation], [Type], [Field],
//     [ErrorShape]: plain data, free of kin-openapi, sorted so output is
//     deterministic. Its retry settings are [runtime.Service] and
//     [runtime.Operation] values; an error shape's class is the runtime's
//     ([runtime.Service.CodeClass]).
//   - emit (emit.go, emit_*.go, comment.go): render the model with
//     jennifer into client.go (emit_client.go, emit_auth.go), operations.go
//     (emit_operations.go; emit_paginate.go and emit_waiters.go for the
//     page and item iterators and WaitUntil… methods), types.go (emit_types.go; emit_json.go for the
//     JSON methods of unions and of objects with additional properties) and
//     errors.go (emit_errors.go). Generated code calls the runtime for
//     retries and runtime/openapi for the wire encoding. emit_literal.go writes a runtime value as
//     the Go literal that builds it, so the generated client holds exactly
//     the value the generator built. Spec text reaches Go source only
//     through jen.Comment (comment.go, one line at a time) and jen.Lit; doc
//     comments start with the spec's own words and end with
//     "Source: #/…", the JSON pointer of what they document.
//
// A component schema "#/components/schemas/Pet" with properties becomes, in
// build_types.go, a [Type] of kind [KindStruct] named by naming.go ("Pet"),
// one [Field] per property (required ones plain values, optional ones
// pointers, slices or maps); emit_types.go then writes `type Pet struct`.
// An operation "#/paths/~1pets/get" becomes an [Operation] with an input
// struct (parameters and body), an output struct (carrying
// ResultMetadata), a `var opGetPet = runtime.Operation{…}` and a Client
// method.
//
// Problems are reported as [Diagnostic] values located by a JSON pointer
// into the spec (RFC 6901); [Service.Summary] is the line `retrygen generate`
// prints.
package generator
