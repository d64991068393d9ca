package generator

import (
	"go/doc/comment"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// appendStructDecl appends to b a struct type declaration (doc comment
// lines doc, type name, fields) exactly as jennifer renders it and
// go/format then prints it, without either (issue 24: formatting is a
// fifth of generating a small spec, and most of types.go is struct
// declarations). It returns the import paths the fields' types name; ok is
// false, and b is returned unchanged, when the declaration has a shape it
// does not print (a comment go/format would rewrite, a field without tag
// or type, a tag holding a tab, no fields): the caller renders it with
// jennifer then. TestStructDeclIsGofmt holds it to go/format on random
// shapes, TestGeneratedStructsAreGofmt on every spec's types.
//
// What go/format does, and this follows (go/printer's fieldList and
// text/tabwriter with DiscardEmptyColumns): a top-level doc comment is
// reformatted as a go/doc comment (docCommentCanonical checks it is left
// alone); every comment line is "// " and the text, trailing white space
// trimmed; the fields are one per line, indented by a tab, and aligned in
// columns within sections that comment lines end; a struct of one field
// separates its name, type and tag by single blanks. A named field is the
// cells name, type, an empty cell (dropped when empty in the whole column
// block) and the tag, its line comment after a tab; a field with a line
// comment and no tag is the cells name and type, the comment after them.
func appendStructDecl(b []byte, name string, doc []string, fields []fieldSpec) (_ []byte, imports []string, ok bool) {
	if len(fields) == 0 || !docCommentCanonical(doc) {
		return b, nil, false
	}
	for _, f := range fields {
		if f.name == "" || f.typ == nil || len(f.tags) == 0 && f.trailing == "" || !commentSafe(f.trailing) {
			return b, nil, false
		}
		for _, l := range f.doc {
			if !commentSafe(l) {
				return b, nil, false
			}
		}
	}
	start := len(b)
	for _, l := range doc {
		b = appendCommentLine(b, l)
	}
	b = append(b, "type "...)
	b = append(b, name...)
	b = append(b, " struct {\n"...)
	sep := byte('\v')
	if len(fields) == 1 {
		sep = ' '
	}
	var section [][]string // the cells of the fields since the last comment line
	var text []byte
	for _, f := range fields {
		if len(f.doc) > 0 {
			b = appendAligned(b, section)
			section = section[:0]
			for _, l := range f.doc {
				b = append(b, '\t')
				b = appendCommentLine(b, l)
			}
		}
		text = text[:0]
		var ok bool
		if text, imports, ok = f.typ.appendText(text, imports); !ok {
			return b[:start], nil, false
		}
		typ := string(text)
		var cells []string
		tag := ""
		if len(f.tags) > 0 {
			if tag, ok = tagLiteral(f.tags); !ok {
				return b[:start], nil, false
			}
		}
		trailing := ""
		if f.trailing != "" {
			trailing = trimRight("// " + f.trailing)
		}
		switch {
		case sep == ' ' && tag != "" && trailing != "":
			cells = []string{f.name + " " + typ + " " + tag, trailing}
		case sep == ' ' && tag != "":
			cells = []string{f.name + " " + typ + " " + tag}
		case sep == ' ':
			cells = []string{f.name + " " + typ, trailing}
		case tag != "" && trailing != "":
			cells = []string{f.name, typ, "", tag, trailing}
		case tag != "":
			cells = []string{f.name, typ, "", tag}
		default:
			cells = []string{f.name, typ, trailing}
		}
		section = append(section, cells)
	}
	b = appendAligned(b, section)
	b = append(b, "}\n"...)
	slices.Sort(imports)
	return b, slices.Compact(imports), true
}

// appendCommentLine appends "// l" as go/printer writes a // comment:
// without trailing white space.
func appendCommentLine(b []byte, l string) []byte {
	b = append(b, trimRight("// "+l)...)
	return append(b, '\n')
}

// trimRight is go/printer's: white space (unicode.IsSpace) cut from the
// end of a comment.
func trimRight(s string) string {
	return strings.TrimRightFunc(s, unicode.IsSpace)
}

// commentSafe reports whether jennifer writes l as the comment "// l" and
// go/printer keeps its text: valid UTF-8 without control characters or a
// byte order mark (which the scanner refuses or rewrites), not starting
// "//" or "/*" (which jennifer writes verbatim).
func commentSafe(l string) bool {
	if strings.HasPrefix(l, "//") || strings.HasPrefix(l, "/*") || !utf8.ValidString(l) || strings.ContainsRune(l, '\uFEFF') {
		return false
	}
	for i := 0; i < len(l); i++ {
		if c := l[i]; c < 0x20 || c == 0x7f {
			return false
		}
	}
	return true
}

// docCommentCanonical reports whether a top-level doc comment of lines is
// printed by go/printer as appendCommentLine writes it: go/printer
// reformats it as a go/doc comment (go/printer's formatDocComment). A
// comment of plain paragraphs is left as it is (plainDocComment); any
// other is checked by formatting it as go/printer does.
func docCommentCanonical(lines []string) bool {
	for _, l := range lines {
		if !commentSafe(l) {
			return false
		}
	}
	if len(lines) == 0 || plainDocComment(lines) {
		return true
	}
	// The text go/printer reformats: jennifer writes each line but the
	// last as "// " and the line and a blank (before the next line's
	// break); go/printer cuts "//" and one blank.
	var text strings.Builder
	for i, l := range lines {
		text.WriteString(l)
		if i < len(lines)-1 {
			text.WriteByte(' ')
		}
		text.WriteByte('\n')
	}
	var p comment.Parser
	var pr comment.Printer
	var want strings.Builder
	for _, line := range strings.SplitAfter(string(pr.Comment(p.Parse(text.String()))), "\n") {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			line = "//"
		case line[0] == '\t':
			line = "//" + line
		default:
			line = "// " + line
		}
		want.WriteString(trimRight(line))
		want.WriteByte('\n')
	}
	var got []byte
	for _, l := range lines {
		got = appendCommentLine(got, l)
	}
	return want.String() == string(got)+"//\n" // SplitAfter's last, empty, element
}

// plainDocComment reports whether lines are paragraphs go/doc/comment
// prints back unchanged: separated by one blank line; no line blank at
// either end, indented (code, lists), ending in white space, or starting
// with "#" (a heading) or "[" (a link definition), or holding “ or ”
// (printed as typographic quotes); no one-line paragraph between two
// others (an old-style heading).
func plainDocComment(lines []string) bool {
	if lines[0] == "" || lines[len(lines)-1] == "" {
		return false
	}
	para := 0 // lines in the paragraph so far
	for i, l := range lines {
		if l == "" {
			if para == 0 || para == 1 && i > 1 {
				return false // two blank lines, or a one-line paragraph after another
			}
			para = 0
			continue
		}
		r, _ := utf8.DecodeLastRuneInString(l)
		if l[0] == ' ' || l[0] == '\t' || l[0] == '#' || l[0] == '[' || unicode.IsSpace(r) ||
			strings.Contains(l, "``") || strings.Contains(l, "''") {
			return false
		}
		para++
	}
	return true
}

// appendAligned appends the lines of one alignment section, each indented
// by a tab: the cells of a line but its last are aligned in columns as
// text/tabwriter aligns them for go/printer (padding 1, an empty column
// block dropped), the last written as it is.
func appendAligned(b []byte, lines [][]string) []byte {
	if len(lines) == 0 {
		return b
	}
	widths := make([][]int, len(lines)) // per line, the width of each of its aligned cells
	for i, l := range lines {
		widths[i] = make([]int, len(l)-1)
	}
	alignColumns(lines, widths, 0, 0, len(lines))
	for i, l := range lines {
		b = append(b, '\t')
		for j, c := range l {
			b = append(b, c...)
			if j < len(l)-1 {
				for n := utf8.RuneCountInString(c); n < widths[i][j]; n++ {
					b = append(b, ' ')
				}
			}
		}
		// go/printer's trimmer drops the padding that ends a line.
		for len(b) > 0 && b[len(b)-1] == ' ' {
			b = b[:len(b)-1]
		}
		b = append(b, '\n')
	}
	return b
}

// alignColumns sets the widths of column col and the ones after it for
// lines[line0:line1], as text/tabwriter's format does: a column block is
// a run of lines with a cell (not the last) in that column; its width is
// its widest cell plus one, or zero when all its cells are empty.
func alignColumns(lines [][]string, widths [][]int, col, line0, line1 int) {
	for this := line0; this < line1; this++ {
		if col >= len(lines[this])-1 {
			continue
		}
		start := this
		width, empty := 0, true
		for ; this < line1 && col < len(lines[this])-1; this++ {
			c := lines[this][col]
			if w := utf8.RuneCountInString(c) + 1; w > width {
				width = w
			}
			if c != "" {
				empty = false
			}
		}
		if empty {
			width = 0
		}
		for i := start; i < this; i++ {
			widths[i][col] = width
		}
		alignColumns(lines, widths, col+1, start, this)
		this-- // the loop's this++ comes back to the line that ended the block
	}
}

// tagLiteral is the struct tag of tags as jennifer writes it: key:"value"
// pairs sorted by key, in a raw string literal when strconv.CanBackquote
// allows, else a quoted one; ok is false for a raw literal holding a tab
// (go/printer would count it as a cell's text, which appendAligned does
// not model).
func tagLiteral(tags map[string]string) (string, bool) {
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var s strings.Builder
	for i, k := range keys {
		if i > 0 {
			s.WriteByte(' ')
		}
		s.WriteString(k)
		s.WriteByte(':')
		s.WriteString(strconv.Quote(tags[k]))
	}
	str := s.String()
	if strconv.CanBackquote(str) {
		if strings.ContainsRune(str, '\t') {
			return "", false
		}
		return "`" + str + "`", true
	}
	return strconv.Quote(str), true
}

// appendText appends t as go/format prints it, and adds the import paths
// of the packages it names to imports; ok is false for a package other
// than the ones jennifer imports under the last element of their path
// (scalarPackages and runtime), or a type without a name.
func (t *goType) appendText(b []byte, imports []string) (_ []byte, _ []string, ok bool) {
	if t.op != "" {
		if t.elem == nil {
			return b, imports, false
		}
		b = append(b, t.op...)
		return t.elem.appendText(b, imports)
	}
	if t.name == "" {
		return b, imports, false
	}
	if t.pkg != "" {
		switch t.pkg {
		case runtimePath, openapiPath, "time", "io", "encoding/json":
		default:
			return b, imports, false
		}
		b = append(b, t.pkg[strings.LastIndexByte(t.pkg, '/')+1:]...)
		b = append(b, '.')
		imports = append(imports, t.pkg)
	}
	b = append(b, t.name...)
	if t.elem != nil {
		b = append(b, '[')
		if b, imports, ok = t.elem.appendText(b, imports); !ok {
			return b, imports, false
		}
		b = append(b, ']')
	}
	return b, imports, true
}
