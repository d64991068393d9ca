package generator

import (
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// waitersExtension is the operation-level extension declaring waiters: a
// mapping from waiter name to smithy's waiter shape
// (smithy.waiters#waitable: documentation, minDelay and maxDelay in
// seconds, acceptors).
const waitersExtension = "x-waiters"

// Smithy's default waiter delays (smithy.waiters#waitable).
const (
	defaultWaiterMinDelay = 2 * time.Second
	defaultWaiterMaxDelay = 120 * time.Second
)

// Waiter is one waiter of an operation (smithy's @waitable), its acceptors
// compiled to plain Go at generation time.
type Waiter struct {
	// Name is the waiter's name ("TableExists"); Method the Client method
	// ("WaitUntilTableExists").
	Name, Method string
	// Doc is the documentation; Source the JSON pointer of the declaration.
	Doc, Source string
	// MinDelay and MaxDelay bound the delay between polls.
	MinDelay, MaxDelay time.Duration
	// Acceptors in declaration order: the first that matches wins.
	Acceptors []Acceptor
}

// Acceptor matcher kinds.
const (
	MatchOutput      = "output"
	MatchInputOutput = "inputOutput"
	MatchSuccess     = "success"
	MatchErrorType   = "errorType"
)

// Acceptor is one acceptor: when its matcher matches, the waiter moves to
// State ("success", "failure" or "retry").
type Acceptor struct {
	State string
	// Kind is MatchOutput, MatchInputOutput, MatchSuccess or
	// MatchErrorType.
	Kind string
	// Success is the success matcher's value (true: the poll succeeded).
	Success bool
	// ErrorType is the error code an errorType matcher names.
	ErrorType string
	// Path is the compiled path (output, inputOutput); Comparator and
	// Expected compare its value.
	Path       *WaiterPath
	Comparator string
	Expected   string
}

// WaiterPath is a compiled JMESPath expression of the subset AWS waiters
// use: a member path from the output (or, for inputOutput, from "input." or
// "output."), with "[]" flattening lists, optionally inside length(…), and
// optionally compared with a number literal (`length(Foo[]) > `0“).
type WaiterPath struct {
	// Expr is the expression as declared.
	Expr string
	// Root is "in" or "out".
	Root string
	// Steps are the members and flattens, in order.
	Steps []PathStep
	// Leaf is the type of the values the path selects.
	Leaf TypeRef
	// LeafPtr is whether the last member is a pointer.
	LeafPtr bool
	// Projected: the path has a "[]" and selects a list of values.
	Projected bool
	// Length wraps the path in length(…).
	Length bool
	// CompareOp and CompareTo: a comparison with a number ("" for none);
	// the result is then a boolean.
	CompareOp string
	CompareTo int64
}

// PathStep is a member access (Field set) or a list flatten ("[]").
type PathStep struct {
	Field   *Step
	Flatten bool
}

// waiters reads the operation's x-waiters and compiles each waiter's
// acceptors against o's input and output types; every bad value is a
// located error.
func (b *builder) waiters(o *Operation, opNode *yaml.Node, ptr string, types map[string]*Type, methods namespace) {
	n := mapValue(opNode, waitersExtension)
	if n == nil {
		return
	}
	ptr = child(ptr, waitersExtension)
	x := extReader{b.d}
	if n.Kind != yaml.MappingNode {
		b.d.errorf(ptr, "must be a mapping from waiter name to waiter, got %s", describe(n))
		return
	}
	if o.OutputBody == OutputRawField || o.OutputBody == OutputNone {
		b.d.warnf(ptr, "the output %s is not decoded, so %s gets no waiters", o.Output, o.Name)
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		name, v := n.Content[i].Value, n.Content[i+1]
		wptr := child(ptr, name)
		if goName(name, false) != name {
			b.d.errorf(wptr, "a waiter name must be an exported Go identifier (smithy: ^[A-Z]+[A-Za-z0-9]*$), got %q", name)
			continue
		}
		w := &Waiter{Name: name, Source: wptr, MinDelay: defaultWaiterMinDelay, MaxDelay: defaultWaiterMaxDelay}
		before := b.d.errors()
		var accNode *yaml.Node
		refused := false // a delay already refused is not compared (trial F14)
		x.mapping(v, wptr, map[string]func(*yaml.Node, string){
			"documentation": func(v *yaml.Node, p string) { w.Doc = x.str(v, p) },
			"minDelay": func(v *yaml.Node, p string) {
				s, ok := x.intAtLeast(v, p, 1, "seconds")
				if ok {
					w.MinDelay = time.Duration(s) * time.Second
				}
				refused = refused || !ok
			},
			"maxDelay": func(v *yaml.Node, p string) {
				s, ok := x.intAtLeast(v, p, 1, "seconds")
				if ok {
					w.MaxDelay = time.Duration(s) * time.Second
				}
				refused = refused || !ok
			},
			"acceptors":  func(v *yaml.Node, p string) { accNode = v },
			"deprecated": func(v *yaml.Node, p string) { x.boolean(v, p) },
			"tags":       func(v *yaml.Node, p string) { x.strs(v, p) },
		})
		if !refused && w.MinDelay > w.MaxDelay {
			b.d.errorf(child(wptr, "minDelay"), "must be at most maxDelay (%v), got %v", w.MaxDelay, w.MinDelay)
		}
		if accNode == nil || accNode.Kind != yaml.SequenceNode || len(accNode.Content) == 0 {
			b.d.errorf(child(wptr, "acceptors"), "must be a non-empty list of acceptors")
			continue
		}
		for j, a := range accNode.Content {
			if acc, ok := b.acceptor(a, child(child(wptr, "acceptors"), strconv.Itoa(j)), o, types); ok {
				w.Acceptors = append(w.Acceptors, acc)
			}
		}
		if b.d.errors() > before {
			continue
		}
		w.Method, _ = methods.claim("WaitUntil" + name)
		o.Waiters = append(o.Waiters, w)
	}
}

// acceptor reads one acceptor.
func (b *builder) acceptor(n *yaml.Node, ptr string, o *Operation, types map[string]*Type) (Acceptor, bool) {
	x := extReader{b.d}
	var a Acceptor
	before := b.d.errors()
	var matcher *yaml.Node
	x.mapping(n, ptr, map[string]func(*yaml.Node, string){
		"state":   func(v *yaml.Node, p string) { a.State = x.oneOf(v, p, "success", "failure", "retry") },
		"matcher": func(v *yaml.Node, p string) { matcher = v },
	})
	if a.State == "" && b.d.errors() == before {
		b.d.errorf(child(ptr, "state"), "missing: one of success, failure, retry")
	}
	mptr := child(ptr, "matcher")
	if matcher == nil || matcher.Kind != yaml.MappingNode || len(matcher.Content) != 2 {
		b.d.errorf(mptr, "must be a mapping with exactly one of output, inputOutput, success, errorType")
		return a, false
	}
	a.Kind = matcher.Content[0].Value
	v, vptr := matcher.Content[1], child(mptr, a.Kind)
	switch a.Kind {
	case MatchSuccess:
		a.Success = x.boolean(v, vptr)
	case MatchErrorType:
		a.ErrorType = x.str(v, vptr)
	case MatchOutput, MatchInputOutput:
		var expr string
		x.mapping(v, vptr, map[string]func(*yaml.Node, string){
			"path": func(v *yaml.Node, p string) { expr = x.str(v, p) },
			"expected": func(v *yaml.Node, p string) {
				if v.Kind != yaml.ScalarNode {
					b.d.errorf(p, "must be a string, got %s", describe(v))
				}
				a.Expected = v.Value
			},
			"comparator": func(v *yaml.Node, p string) {
				a.Comparator = x.oneOf(v, p, "stringEquals", "booleanEquals", "allStringEquals", "anyStringEquals")
			},
		})
		if expr == "" || a.Comparator == "" {
			if b.d.errors() == before {
				b.d.errorf(vptr, "needs path, expected and comparator")
			}
			return a, false
		}
		p, err := compileWaiterPath(expr, a.Kind == MatchInputOutput, types[o.Input], types[o.Output], types)
		if err != "" {
			b.d.errorf(child(vptr, "path"), "%s", err)
			return a, false
		}
		a.Path = p
		b.checkComparator(a, child(vptr, "comparator"), types)
	default:
		b.d.errorf(child(mptr, a.Kind), "unknown matcher %q (known: output, inputOutput, success, errorType)", a.Kind)
	}
	return a, b.d.errors() == before
}

// checkComparator checks that the comparator fits what the path selects.
func (b *builder) checkComparator(a Acceptor, ptr string, types map[string]*Type) {
	p := a.Path
	boolean := p.CompareOp != "" || p.Leaf.Kind == RefScalar && p.Leaf.Scalar == ScalarBool && !p.Length
	switch a.Comparator {
	case "booleanEquals":
		if !boolean || p.Projected && !p.Length {
			b.d.errorf(ptr, "booleanEquals needs a path selecting one boolean; %q selects %s", p.Expr, describePath(p))
		}
		if a.Expected != "true" && a.Expected != "false" {
			b.d.errorf(ptr, "booleanEquals expects \"true\" or \"false\", got %q", a.Expected)
		}
	case "stringEquals":
		if p.Projected || p.Length || !isStringish(p.Leaf, types) {
			b.d.errorf(ptr, "stringEquals needs a path selecting one string; %q selects %s", p.Expr, describePath(p))
		}
	default: // allStringEquals, anyStringEquals
		if !p.Projected || p.Length || !isStringish(p.Leaf, types) {
			b.d.errorf(ptr, "%s needs a path selecting a list of strings (with []); %q selects %s", a.Comparator, p.Expr, describePath(p))
		}
	}
}

func describePath(p *WaiterPath) string {
	switch {
	case p.CompareOp != "":
		return "a boolean (a comparison)"
	case p.Length:
		return "a number (length)"
	case p.Projected:
		return "a list of " + describeRef(p.Leaf)
	}
	return "one " + describeRef(p.Leaf)
}

// compileWaiterPath compiles the JMESPath subset AWS waiters use into a
// WaiterPath over the output (or, inputOutput, over "input."/"output."
// prefixed paths), or returns a message naming what is wrong.
func compileWaiterPath(expr string, inputOutput bool, in, out *Type, types map[string]*Type) (*WaiterPath, string) {
	p := &WaiterPath{Expr: expr, Root: "out"}
	s := strings.TrimSpace(expr)
	if strings.ContainsAny(s, "?|&@*'\"{}") {
		return nil, "the JMESPath subset is member names, \".\", \"[]\", length(…) and a comparison with a number; " + strconv.Quote(expr) + " is outside it"
	}
	for _, op := range []string{"==", "!=", ">=", "<=", ">", "<"} {
		if lhs, rhs, ok := strings.Cut(s, op); ok {
			rhs = strings.TrimSpace(rhs)
			if len(rhs) < 3 || rhs[0] != '`' || rhs[len(rhs)-1] != '`' {
				return nil, "the JMESPath subset compares only with a number literal (`0`); got " + strconv.Quote(rhs)
			}
			n, err := strconv.ParseInt(strings.TrimSpace(rhs[1:len(rhs)-1]), 10, 64)
			if err != nil {
				return nil, "the JMESPath subset compares only with an integer literal; got " + strconv.Quote(rhs)
			}
			p.CompareOp, p.CompareTo, s = op, n, strings.TrimSpace(lhs)
			break
		}
	}
	if inner, ok := strings.CutPrefix(s, "length("); ok && strings.HasSuffix(inner, ")") {
		p.Length, s = true, strings.TrimSpace(strings.TrimSuffix(inner, ")"))
	}
	if p.CompareOp != "" && !p.Length {
		return nil, "the JMESPath subset compares only length(…) with a number"
	}
	t := out
	if inputOutput {
		root, rest, _ := strings.Cut(s, ".")
		switch root {
		case "input":
			p.Root, t = "in", in
		case "output":
		default:
			return nil, "an inputOutput path starts with input. or output., got " + strconv.Quote(expr)
		}
		s = rest
	}
	if s == "" {
		return nil, "empty path"
	}
	var leaf *Step
	for _, seg := range strings.Split(s, ".") {
		name, flat := strings.CutSuffix(seg, "[]")
		if strings.ContainsAny(name, "[]()?*|&@`'\" ") || name == "" {
			return nil, "the JMESPath subset is member names, \".\", \"[]\", length(…) and a comparison with a number; " + strconv.Quote(seg) + " is outside it"
		}
		if t == nil || t.Kind != KindStruct {
			return nil, "path " + strconv.Quote(expr) + ": " + strconv.Quote(name) + " is not inside an object"
		}
		fl, ok := pathResolver{types: types}.field(t, name)
		if !ok {
			return nil, "path " + strconv.Quote(expr) + ": " + t.Name + " has no member " + name + " (members: " + strings.Join(pathResolver{types: types}.members(t), ", ") + ")"
		}
		st := Step{Go: fl.Name, Ptr: fieldIsPointer(fl), Type: fl.Type}
		p.Steps = append(p.Steps, PathStep{Field: &st})
		leaf = &st
		ref := fl.Type
		if flat {
			if ref.Kind != RefSlice {
				return nil, "path " + strconv.Quote(expr) + ": " + name + "[] flattens a list, but " + name + " is " + describeRef(ref)
			}
			p.Steps = append(p.Steps, PathStep{Flatten: true})
			p.Projected = true
			ref = *ref.Elem
		}
		t = nil
		if ref.Kind == RefNamed {
			t = types[ref.Name]
		}
		p.Leaf = ref
	}
	p.LeafPtr = leaf.Ptr && !p.Steps[len(p.Steps)-1].Flatten
	if p.Length && p.Leaf.Kind != RefSlice && p.Leaf.Kind != RefMap && !p.Projected && !(p.Leaf.Kind == RefScalar && p.Leaf.Scalar == ScalarString) {
		return nil, "length(…) needs a list, map or string; " + strconv.Quote(s) + " is " + describeRef(p.Leaf)
	}
	return p, ""
}
