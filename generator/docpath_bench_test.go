package generator

import (
	"os"
	"path/filepath"
	"testing"
)

// docPathSpecs are the specs whose descriptions BenchmarkDocPath turns
// into doc comments: AWS's S3 (HTML, many shared member docs) and SQS
// (HTML with <note>, links and lists), as issue 24 profiled them.
var docPathSpecs = []struct{ name, spec, overlay string }{
	{"S3", "../../shared/specs/aws-s3-2006-03-01.openapi.yaml", ""},
	{"SQS", "../specs/aws-sqs-2012-11-05.openapi.yaml", "../specs/sqs.overlay.yaml"},
}

// docPathCalls runs the emitter's doc comment calls on every spec text of
// svc: the package doc, each type's and error's docComment (with the
// generator's sentence as its note), each field's fieldDoc, each enum
// value's specDocLines, each operation's docComment of summary and
// description. It returns the number of lines made, so the work cannot be
// optimised away.
func docPathCalls(svc *Service) int {
	n := 0
	lines, defs := specDocLines(svc.Doc)
	n += len(lines) + len(defs)
	roles := typeRoles(svc)
	for _, t := range svc.Types {
		var notes []string
		if s := typeSentence(t, roles[t.Name]); s != "" {
			notes = append(notes, s)
		}
		if docComment([]string{t.Doc}, notes, t.Source) != nil {
			n++
		}
		for _, fl := range t.Fields {
			n += len(fieldDoc(fl))
		}
		for _, v := range t.Values {
			if v.Doc != "" {
				n += len(withDefs(specDocLines(v.Doc)))
			}
		}
	}
	for _, e := range svc.Errors {
		if docComment([]string{e.Doc}, append([]string{errorSentence(e)}, hiddenMetadata(e)...), e.Source) != nil {
			n++
		}
		for _, fl := range e.Fields {
			n += len(fieldDoc(fl))
		}
	}
	for _, op := range svc.Operations {
		if docComment([]string{op.Summary, op.Doc}, nil, op.Source) != nil {
			n++
		}
	}
	return n
}

// BenchmarkDocPath measures the doc comment path (docText, commentLines,
// specDocLines, fieldDoc, docComment) on the S3 and SQS models, the
// spec's loading left out (issue 24: a seventh of generating SQS), each
// text's lines made once (specDocs) as in one generation.
func BenchmarkDocPath(b *testing.B) {
	for _, s := range docPathSpecs {
		b.Run(s.name, func(b *testing.B) {
			if _, err := os.Stat(s.spec); err != nil {
				b.Skip("spec not present: ", s.spec)
			}
			var overlays []string
			if s.overlay != "" {
				overlays = []string{s.overlay}
			}
			svc, _, err := LoadService(filepath.FromSlash(s.spec), overlays)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				end := specDocs.begin() // as Generate does
				docPathCalls(svc)
				end()
			}
		})
	}
}
