package generator

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/speakeasy-api/openapi-overlay/pkg/overlay"
	"gopkg.in/yaml.v3"
)

// applyOverlays applies OpenAPI Overlay 1.0 documents to the spec's YAML tree,
// in order, one action at a time. An overlay that cannot be read, is not a
// valid Overlay 1.0 document, or whose aliases or updates exceed the node
// and byte budget (the library copies updates with their aliases expanded,
// once per matched node: see chargeUpdate) fails generation: the returned
// error names the overlay file, and the action. Every action whose target selects
// nothing (or is not JSONPath) is reported, one per line:
// `overlay.yaml: actions[N] (line L): target "…": did not match any node`.
// The library's warnings become warnings located at the overlay. setBy
// (may be nil) receives the JSON pointer of every node an overlay added or
// changed → the overlay's base name, so errors there name it.
func applyOverlays(root *yaml.Node, paths []string, budget *nodeBudget, setBy map[string]string) ([]Diagnostic, error) {
	var out []Diagnostic
	for _, p := range paths {
		raw, err := ReadInputFile(p)
		if err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		doc, err := parseYAML(p, raw)
		if err != nil {
			return nil, fmt.Errorf("overlay %w", err)
		}
		if err := budget.chargeAliases(p, doc); err != nil {
			return nil, fmt.Errorf("overlay %w", err)
		}
		o := &overlay.Overlay{} // decoded from doc: the file is read and parsed once
		if err := doc.Decode(o); err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		if err := o.Validate(); err != nil {
			return nil, fmt.Errorf("overlay %s: %w", p, err)
		}
		var actionNodes []*yaml.Node
		if a := mapValue(doc.Content[0], "actions"); a != nil && a.Kind == yaml.SequenceNode {
			actionNodes = a.Content
		}
		before := scalarValues(root)
		var failed []error
		for i, action := range o.Actions {
			where := fmt.Sprintf("%s: actions[%d]", p, i)
			if i < len(actionNodes) {
				where += fmt.Sprintf(" (line %d)", actionNodes[i].Line)
			}
			where += ": target " + strconv.Quote(action.Target)
			var warnings []string
			q, perr := o.NewPath(action.Target, &warnings)
			switch {
			case perr != nil:
				failed = append(failed, fmt.Errorf("%s: not a JSONPath: %v", where, perr))
				continue
			}
			var matched []*yaml.Node
			if action.Target != "" {
				if matched = q.Query(root); len(matched) == 0 {
					failed = append(failed, fmt.Errorf("%s: did not match any node", where))
					continue
				}
			}
			if err := budget.chargeUpdate(where, action, matched); err != nil {
				return out, err
			}
			if applyAction(o, action, root, matched) {
				out = append(out, Diagnostic{File: p, Severity: SeverityWarning, Message: where + ": changes nothing"})
			}
			if len(warnings) > 0 {
				out = append(out, Diagnostic{File: p, Severity: SeverityWarning, Message: where + ": not RFC 9535 JSONPath; read with the library's older JSONPath dialect"})
			}
		}
		if len(failed) > 0 {
			return out, errors.Join(failed...)
		}
		tags := map[string]string{} // a scalar's text in the updates → its tag ("" when it has several)
		for _, a := range o.Actions {
			for n := range scalarValues(&a.Update) {
				if t, ok := tags[n.Value]; ok && t != n.ShortTag() {
					tags[n.Value] = ""
				} else if !ok {
					tags[n.Value] = n.ShortTag()
				}
			}
		}
		markSetBy(root, nil, before, tags, filepath.Base(p), setBy)
	}
	return out, nil
}

// applyAction applies one action of o to root with the library (targets
// are the nodes its target selects) and reports whether the library found
// that it changed nothing. An update is applied to each selected node on its
// own (target "$" on that node): the library tells "does nothing" by
// marshalling the tree it is given before and after, which on the whole
// spec was 2 GB of YAML text for Stripe's overlay and most of the
// generator's peak memory (issue 24); marshalling only the selected nodes
// gives the same answer, since nothing else is written. A selected mapping
// updated by a mapping is narrowed further (see updateMapping).
func applyAction(o *overlay.Overlay, action overlay.Action, root *yaml.Node, targets []*yaml.Node) (nothing bool) {
	one := *o
	if action.Remove || action.Target == "" {
		one.Actions = []overlay.Action{action}
		_, warnings := one.ApplyToStrict(root)
		return doesNothing(warnings)
	}
	update := action
	update.Target = "$"
	one.Actions = []overlay.Action{update}
	nothing = true
	for _, n := range targets {
		if n.Kind == yaml.MappingNode && action.Update.Kind == yaml.MappingNode {
			nothing = updateMapping(&one, n, &action.Update) && nothing
			continue
		}
		_, warnings := one.ApplyToStrict(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{n}})
		nothing = nothing && doesNothing(warnings)
	}
	return nothing
}

// updateMapping applies one (an update with target "$") to the mapping n
// and reports whether the library found that it changed nothing. The
// library merges a mapping into a mapping key by key: a key n already has is
// merged into that key's value in place, any other is appended to n. So it
// is given a mapping holding only n's entries whose keys the update names
// (the same value nodes): it marshals those, not all of n (the spec's root
// for a root-level x-retry, 2 × 8 MB of YAML text on Stripe's spec), and
// what it appends is appended to n in the same order.
func updateMapping(one *overlay.Overlay, n, update *yaml.Node) (nothing bool) {
	keys := map[string]bool{}
	for i := 0; i+1 < len(update.Content); i += 2 {
		keys[update.Content[i].Value] = true
	}
	narrow := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if keys[n.Content[i].Value] {
			narrow.Content = append(narrow.Content, n.Content[i], n.Content[i+1])
		}
	}
	had := len(narrow.Content)
	_, warnings := one.ApplyToStrict(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{narrow}})
	n.Content = append(n.Content, narrow.Content[had:]...)
	return doesNothing(warnings)
}

// doesNothing reports whether the library's warnings for one action say it
// changed nothing.
func doesNothing(warnings []string) bool {
	for _, w := range warnings {
		if strings.HasSuffix(w, ": does nothing") {
			return true
		}
	}
	return false
}

// chargeUpdate takes from the budget what an action's update may write:
// the update, its aliases expanded, once per node its target matched
// (actions on "$..*" compound: each matches what the one before added). A
// removal adds nothing. The error names the action (where).
func (nb *nodeBudget) chargeUpdate(where string, action overlay.Action, matched []*yaml.Node) error {
	if action.Remove || action.Update.IsZero() {
		return nil
	}
	one := expandedSize(&action.Update, map[*yaml.Node]treeSize{})
	for range matched {
		if !nb.take(one) {
			return fmt.Errorf("%s: writing its update (%d nodes, %d bytes) to each of the %d nodes it matches takes the spec past %s that aliases, referenced files and overlays may add; refusing it",
				where, one.nodes, one.bytes, len(matched), budgetText)
		}
	}
	return nil
}

// scalarValues maps every scalar node of the tree (aliases not followed) to
// its text.
func scalarValues(root *yaml.Node) map[*yaml.Node]string {
	// Counted first: the map made at its size is not rehashed a dozen
	// times on its way to Stripe's 270,000 scalars (issue 24).
	var count func(n *yaml.Node) int
	count = func(n *yaml.Node) int {
		c := 0
		if n.Kind == yaml.ScalarNode {
			c = 1
		}
		if n.Kind != yaml.AliasNode {
			for _, k := range n.Content {
				c += count(k)
			}
		}
		return c
	}
	m := make(map[*yaml.Node]string, count(root))
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			m[n] = n.Value
		}
		if n.Kind != yaml.AliasNode {
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	walk(root)
	return m
}

// markSetBy records in setBy the pointer of every node an overlay added or
// whose text it changed. The overlay library copies only the text of a
// scalar onto a scalar (`longPolling: "yes"` over `true` leaves the tag
// !!bool on "yes"); a changed scalar gets the tag that text has in the
// overlay's updates (resolved from the text when it has several there), so
// it is read as the spec would have been had it said so.
func markSetBy(n *yaml.Node, path []string, before map[*yaml.Node]string, tags map[string]string, overlay string, setBy map[string]string) {
	// path holds the tokens of n's pointer; the pointer is built only for
	// what is recorded (issue 24: one string per node of the spec).
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			markSetBy(c, path, before, tags, overlay, setBy)
		}
		return
	case yaml.ScalarNode:
		old, seen := before[n]
		if seen && old != n.Value {
			n.Style = 0
			if n.Tag = tags[n.Value]; n.Tag == "" {
				n.Tag = n.ShortTag() // resolved from the text
			}
		}
		if (!seen || old != n.Value) && setBy != nil {
			setBy[pointer(path...)] = overlay
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if _, seen := before[k]; !seen && setBy != nil {
				setBy[pointer(append(path, k.Value)...)] = overlay
			}
			markSetBy(n.Content[i+1], append(path, k.Value), before, tags, overlay, setBy)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			markSetBy(c, append(path, strconv.Itoa(i)), before, tags, overlay, setBy)
		}
	}
}
