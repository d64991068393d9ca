package generator

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Severity says whether a [Diagnostic] stops generation.
type Severity uint8

const (
	// SeverityWarning: something was skipped or degraded (a pattern that is
	// not RE2, a schema typed as json.RawMessage); generation continues.
	SeverityWarning Severity = iota
	// SeverityError: the input is wrong (a bad x-retry value); generation
	// fails.
	SeverityError
)

// Diagnostic is a located finding about the spec or an overlay.
type Diagnostic struct {
	// File is the spec or overlay path as the user gave it.
	File string
	// Pointer is a JSON pointer (RFC 6901) into File's document, starting
	// with "/" ("" for the whole document).
	Pointer string
	// Severity is warning or error.
	Severity Severity
	// Message says what is wrong and, for warnings, what was done instead.
	Message string
}

// String renders "FILE#POINTER: MESSAGE", the pointer in URI fragment form
// (RFC 6901 §6: "#" becomes "%23"), with every control character of FILE
// and MESSAGE escaped (see EscapeControls) so spec text cannot drive the
// terminal.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s#%s: %s", EscapeControls(d.File), fragment(d.Pointer), EscapeControls(d.Message))
}

// EscapeControls writes each C0 control byte and DEL as \xNN, each C1
// control (U+0080–U+009F) as \uNNNN and each byte that is not UTF-8 as
// \xNN, and returns other text unchanged: a diagnostic stays one line and
// carries no raw ESC, BEL or CSI from the spec (ECMA-48 §5). cmd/retrygen
// prints every error through it too.
func EscapeControls(s string) string {
	clean := true
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == utf8.RuneError {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1, r < 0x20, r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// fragment percent-encodes every byte of a JSON pointer that may not appear in
// a URI fragment (RFC 3986 §3.5).
func fragment(ptr string) string {
	const allowed = "-._~!$&'()*+,;=:@/?"
	var b strings.Builder
	for i := 0; i < len(ptr); i++ {
		c := ptr[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(allowed, c) >= 0) {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// pointer joins reference tokens into a JSON pointer, escaping "~" as "~0"
// and "/" as "~1" (RFC 6901 §3).
func pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		if strings.ContainsAny(t, "~/") {
			t = pointerEscaper.Replace(t)
		}
		b.WriteString(t)
	}
	return b.String()
}

// pointerEscaper escapes a JSON pointer reference token (RFC 6901 §3).
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointerUnescaper undoes pointerEscaper: "~1" → "/", then "~0" → "~"
// (RFC 6901 §4).
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// diags collects diagnostics for one file.
type diags struct {
	file string
	// errorNote ends every error message (e.g. naming the overlays that
	// were applied, since a bad value may come from one of them).
	errorNote string
	// setBy maps the pointer of every node an overlay added or changed to
	// that overlay's name: an error there names it instead of errorNote.
	setBy map[string]string
	list  []Diagnostic
	// at is the JSON pointer of what the builder is building (an
	// operation, a component schema), named by an InternalError.
	at string
}

func (d *diags) warnf(ptr, format string, args ...any) {
	d.list = append(d.list, Diagnostic{File: d.file, Pointer: ptr, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
}

func (d *diags) errorf(ptr, format string, args ...any) {
	d.list = append(d.list, Diagnostic{File: d.file, Pointer: ptr, Severity: SeverityError, Message: fmt.Sprintf(format, args...) + d.note(ptr)})
}

// note ends an error at ptr: "(set by overlay NAME)" when an overlay wrote
// the node at ptr or an ancestor, else errorNote.
func (d *diags) note(ptr string) string {
	for p := ptr; ; {
		if o, ok := d.setBy[p]; ok {
			return " (set by overlay " + o + ")"
		}
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			return d.errorNote
		}
		p = p[:i]
	}
}

// errors counts the error diagnostics.
func (d *diags) errors() int {
	n := 0
	for _, x := range d.list {
		if x.Severity == SeverityError {
			n++
		}
	}
	return n
}

// warnIn reports a warning located in another file of the spec (a file a
// $ref names).
func (d *diags) warnIn(file, ptr, format string, args ...any) {
	d.list = append(d.list, Diagnostic{File: file, Pointer: ptr, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
}

// errorIn reports an error located in another file of the spec.
func (d *diags) errorIn(file, ptr, format string, args ...any) {
	d.list = append(d.list, Diagnostic{File: file, Pointer: ptr, Severity: SeverityError, Message: fmt.Sprintf(format, args...) + d.errorNote})
}

// InternalError is a panic in the generator, recovered: a bug in retrygen,
// not in the spec. It names the spec location being built when it happened.
type InternalError struct {
	// File is the spec; Pointer the JSON pointer of the operation or
	// component being built ("" before building began).
	File, Pointer string
	// Panic is the recovered value; Stack the goroutine's stack then.
	Panic any
	Stack string
}

// Error renders "internal error while building FILE#POINTER: PANIC (please
// report this with the spec)"; the stack is left to the caller.
func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error while building %s#%s: %v (please report this with the spec)", e.File, fragment(e.Pointer), e.Panic)
}

// testHookBuilding, set by tests only, is called with every location the
// builder starts on (to make it panic there).
var testHookBuilding func(ptr string)

// building records that the builder starts on ptr (an operation, a
// component schema), for an InternalError.
func (d *diags) building(ptr string) {
	d.at = ptr
	if testHookBuilding != nil {
		testHookBuilding(ptr)
	}
}
