package generator

import (
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// emitWaiters writes, per waiter of op, its runtime.Waiter, its acceptor
// function (the JMESPath paths compiled to plain Go) and the Client method
// that polls op through runtime.Wait.
func emitWaiters(f *jen.File, op *Operation, types map[string]*Type) {
	for _, w := range op.Waiters {
		emitWaiter(f, op, w, types)
	}
}

func emitWaiter(f *jen.File, op *Operation, w *Waiter, types map[string]*Type) {
	lower := strings.ToLower(w.Name[:1]) + w.Name[1:]
	v, state := "waiter"+w.Name, lower+"State"
	f.Comment(v + " is the " + w.Name + " waiter's name and declared delays.")
	f.Var().Id(v).Op("=").Qual(runtimePath, "Waiter").Values(jen.Dict{
		jen.Id("Name"):     jen.Lit(w.Name),
		jen.Id("MinDelay"): durationLit(w.MinDelay),
		jen.Id("MaxDelay"): durationLit(w.MaxDelay),
	})
	f.Line()

	f.Comment(state + " applies the " + w.Name + " acceptors, in order, to one poll of " + op.Name + ".")
	f.Func().Id(state).Params(jen.Id("in").Op("*").Id(op.Input), jen.Id("out").Op("*").Id(op.Output), jen.Err().Error()).
		Params(jen.Qual(runtimePath, "WaiterState"), jen.Error()).BlockFunc(func(g *jen.Group) {
		for i, a := range w.Acceptors {
			g.Comment(acceptorText(i, a))
			g.Add(acceptorCode(a, types))
		}
		g.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(runtimePath, "WaiterError"), jen.Err()))
		g.Return(jen.Qual(runtimePath, "WaiterRetry"), jen.Nil())
	})
	f.Line()

	notes := []string{
		w.Method + " polls " + op.Name + " with in until the " + w.Name + " waiter reaches success (it returns the last poll's output, nil when an error matched) or failure, or until maxWait has passed. Each poll is one call of " + op.Name + " with its retries: a throttled poll is retried by the client, not counted as a state.",
		"Between polls it waits smithy's waiter delay: from " + w.MinDelay.String() + " doubling up to " + w.MaxDelay.String() + ", with jitter (runtime.WaiterDelay); runtime.WaiterOptions change the delays. It returns a *runtime.WaiterFailureError when a failure acceptor matches, a *runtime.WaiterTimeoutError when maxWait ends first, and the poll's error when no acceptor matches it.",
	}
	var acc []string
	for i, a := range w.Acceptors {
		acc = append(acc, acceptorText(i, a))
	}
	notes = append(notes, "Acceptors: "+strings.Join(acc, "; ")+".")
	f.Add(docComment([]string{w.Doc}, notes, w.Source))
	f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(w.Method).Params(
		jen.Id("ctx").Qual("context", "Context"),
		jen.Id("in").Op("*").Id(op.Input),
		jen.Id("maxWait").Qual("time", "Duration"),
		jen.Id("opts").Op("...").Func().Params(jen.Op("*").Qual(runtimePath, "WaiterOptions")),
	).Params(jen.Op("*").Id(op.Output), jen.Error()).Block(
		jen.Var().Id("wo").Qual(runtimePath, "WaiterOptions"),
		jen.For(jen.List(jen.Id("_"), jen.Id("o")).Op(":=").Range().Id("opts")).Block(jen.Id("o").Call(jen.Op("&").Id("wo"))),
		jen.If(jen.Id("in").Op("==").Nil()).Block(jen.Id("in").Op("=").Op("&").Id(op.Input).Values()),
		jen.Var().Id("last").Op("*").Id(op.Output),
		jen.Id("poll").Op(":=").Func().Params(jen.Id("ctx").Qual("context", "Context")).Params(jen.Qual(runtimePath, "WaiterState"), jen.Error()).Block(
			jen.List(jen.Id("out"), jen.Err()).Op(":=").Id("c").Dot(op.Name).Call(jen.Id("ctx"), jen.Id("in")),
			jen.Id("last").Op("=").Id("out"),
			jen.Return(jen.Id(state).Call(jen.Id("in"), jen.Id("out"), jen.Err())),
		),
		jen.If(jen.Err().Op(":=").Qual(runtimePath, "Wait").Call(jen.Id("ctx"), jen.Id(v), jen.Id("wo"), jen.Id("maxWait"),
			jen.Id("c").Dot("options").Dot("Clock"), jen.Id("c").Dot("options").Dot("Rand"), jen.Id("poll")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err())),
		jen.Return(jen.Id("last"), jen.Nil()),
	)
	f.Line()
}

// acceptorText describes an acceptor in one line ("success when
// Table.TableStatus stringEquals \"ACTIVE\"").
func acceptorText(i int, a Acceptor) string {
	s := strconv.Itoa(i+1) + ". " + a.State + " when "
	switch a.Kind {
	case MatchSuccess:
		if a.Success {
			return s + "the poll succeeds"
		}
		return s + "the poll fails"
	case MatchErrorType:
		return s + "the poll fails with error code " + a.ErrorType
	}
	return s + a.Kind + " " + strconv.Quote(a.Path.Expr) + " " + a.Comparator + " " + strconv.Quote(a.Expected)
}

// acceptorState is the runtime state an acceptor moves to.
func acceptorState(a Acceptor) jen.Code {
	switch a.State {
	case "success":
		return jen.Qual(runtimePath, "WaiterSuccess")
	case "failure":
		return jen.Qual(runtimePath, "WaiterFailure")
	}
	return jen.Qual(runtimePath, "WaiterRetry")
}

// acceptorCode renders `if <matches> { return state, err }`.
func acceptorCode(a Acceptor, types map[string]*Type) jen.Code {
	ret := jen.Return(acceptorState(a), jen.Err())
	if a.State != "failure" {
		ret = jen.Return(acceptorState(a), jen.Nil())
	}
	switch a.Kind {
	case MatchSuccess:
		if a.Success {
			return jen.If(jen.Err().Op("==").Nil()).Block(ret)
		}
		return jen.If(jen.Err().Op("!=").Nil()).Block(ret)
	case MatchErrorType:
		return jen.If(jen.Err().Op("!=").Nil().Op("&&").Qual(runtimePath, "ErrorCodeIs").Call(jen.Err(), jen.Lit(a.ErrorType))).Block(ret)
	}
	p := a.Path
	root := jen.Id(p.Root)
	var body []jen.Code
	switch {
	case p.CompareOp != "" || p.Length:
		body = append(body, jen.Id("n").Op(":=").Lit(0))
		body = append(body, walkPath(root, p.Steps, func(v *jen.Statement) []jen.Code {
			if p.Projected {
				return []jen.Code{jen.Id("n").Op("++")}
			}
			return []jen.Code{jen.Id("n").Op("=").Len(v)}
		})...)
		cmp := jen.Id("n").Op(p.CompareOp).Lit(int(p.CompareTo))
		if p.CompareOp == "" {
			// A bare length compared as a boolean is not in the subset;
			// checkComparator refuses it, so this is unreachable.
			cmp = jen.Id("n").Op("!=").Lit(0)
		}
		body = append(body, jen.If(cmp.Op("==").Lit(a.Expected == "true")).Block(ret))
	case !guardedPath(p.Steps) && (a.Comparator == "booleanEquals" || a.Comparator == "stringEquals"):
		// No pointer on the way: the value is always there.
		var v *jen.Statement
		walkPath(root, p.Steps, func(leaf *jen.Statement) []jen.Code { v = leaf; return nil })
		want := jen.Lit(a.Expected)
		if a.Comparator == "booleanEquals" {
			want = jen.Lit(a.Expected == "true")
		} else {
			v = asString(v, p.Leaf)
		}
		body = append(body, jen.If(v.Op("==").Add(want)).Block(ret))
	case a.Comparator == "booleanEquals":
		body = append(body, jen.Id("found").Op(":=").False(), jen.Id("v").Op(":=").False())
		body = append(body, walkPath(root, p.Steps, func(v *jen.Statement) []jen.Code {
			return []jen.Code{jen.List(jen.Id("v"), jen.Id("found")).Op("=").List(v, jen.True())}
		})...)
		body = append(body, jen.If(jen.Id("found").Op("&&").Id("v").Op("==").Lit(a.Expected == "true")).Block(ret))
	case a.Comparator == "stringEquals":
		body = append(body, jen.Id("found").Op(":=").False(), jen.Id("v").Op(":=").Lit(""))
		body = append(body, walkPath(root, p.Steps, func(v *jen.Statement) []jen.Code {
			return []jen.Code{jen.List(jen.Id("v"), jen.Id("found")).Op("=").List(asString(v, p.Leaf), jen.True())}
		})...)
		body = append(body, jen.If(jen.Id("found").Op("&&").Id("v").Op("==").Lit(a.Expected)).Block(ret))
	default: // allStringEquals, anyStringEquals over a projection
		body = append(body, jen.Var().Id("vs").Index().String())
		body = append(body, walkPath(root, p.Steps, func(v *jen.Statement) []jen.Code {
			return []jen.Code{jen.Id("vs").Op("=").Append(jen.Id("vs"), asString(v, p.Leaf))}
		})...)
		if a.Comparator == "allStringEquals" {
			// JMESPath: all of an empty list is false (aws-sdk-go-v2 too).
			body = append(body, jen.Id("all").Op(":=").Len(jen.Id("vs")).Op(">").Lit(0),
				jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id("vs")).Block(
					jen.Id("all").Op("=").Id("all").Op("&&").Id("v").Op("==").Lit(a.Expected)),
				jen.If(jen.Id("all")).Block(ret))
		} else {
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id("vs")).Block(
				jen.If(jen.Id("v").Op("==").Lit(a.Expected)).Block(ret)))
		}
	}
	return jen.If(jen.Err().Op("==").Nil()).Block(body...)
}

// guardedPath reports whether reading steps needs a nil check or a loop.
func guardedPath(steps []PathStep) bool {
	for _, s := range steps {
		if s.Flatten || s.Field.Ptr {
			return true
		}
	}
	return false
}

// asString converts a string or string-enum value to string.
func asString(v *jen.Statement, t TypeRef) *jen.Statement {
	if t.Kind == RefNamed {
		return jen.String().Call(v)
	}
	return v
}

// walkPath renders the reads of a compiled path: members (pointers checked
// for nil, a nil one selecting nothing, consecutive checks joined with &&;
// a pointer leaf dereferenced) and flattens (a loop over the list); leaf
// receives each selected value.
func walkPath(root *jen.Statement, steps []PathStep, leaf func(v *jen.Statement) []jen.Code) []jen.Code {
	var conds []jen.Code
	v := root
	for i, s := range steps {
		if s.Flatten {
			elem := jen.Id("e" + strconv.Itoa(len(steps)-i))
			loop := jen.For(jen.List(jen.Id("_"), elem.Clone()).Op(":=").Range().Add(v)).Block(walkPath(elem, steps[i+1:], leaf)...)
			return guarded(conds, []jen.Code{loop})
		}
		v = v.Clone().Dot(s.Field.Go)
		if s.Field.Ptr {
			conds = append(conds, v.Clone().Op("!=").Nil())
			if i == len(steps)-1 || steps[i+1].Flatten {
				v = jen.Op("*").Add(v)
			}
		}
	}
	return guarded(conds, leaf(v))
}

// guarded wraps body in `if c1 && c2 … { body }` (no conditions: body).
func guarded(conds []jen.Code, body []jen.Code) []jen.Code {
	if len(conds) == 0 {
		return body
	}
	return []jen.Code{jen.If(jen.Op("").Add(joinAnd(conds))).Block(body...)}
}

// joinAnd joins conditions with &&.
func joinAnd(conds []jen.Code) *jen.Statement {
	s := jen.Add(conds[0])
	for _, c := range conds[1:] {
		s = s.Op("&&").Add(c)
	}
	return s
}
