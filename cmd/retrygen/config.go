package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/retrygen/retrygen/generator"
	"github.com/retrygen/retrygen/templates"
)

// genConfig is the file of `retrygen generate -config FILE` (YAML or JSON),
// described by templates/schema/retrygen-config.schema.json. Relative paths
// in it are relative to the file's directory.
type genConfig struct {
	Spec     string   `yaml:"spec"`
	Overlays []string `yaml:"overlays"`
	Output   string   `yaml:"output"`
	Package  string   `yaml:"package"`
	Strict   bool     `yaml:"strict"`
	// LinkPagination opts in to the Link-header heuristic
	// (generator.Selection.LinkPagination).
	LinkPagination bool `yaml:"linkPagination"`
	// Include, Exclude and Rename decode straight into the generator's
	// types: yaml.v3 keys an untagged field by its lowercased name
	// (operations, tags, paths, types, fields), the schema's keys.
	Include generator.Selector `yaml:"include"`
	Exclude generator.Selector `yaml:"exclude"`
	Rename  generator.Renames  `yaml:"rename"`
}

// configError lists every problem of a config file, one located line each:
// "FILE:LINE:COL: #/POINTER: MESSAGE".
type configError struct {
	file  string
	lines []string
}

func (e *configError) Error() string {
	return fmt.Sprintf("%s: %d error(s) in the config file:\n  %s", e.file, len(e.lines), strings.Join(e.lines, "\n  "))
}

// loadConfig reads and validates the config file at path against
// templates.ConfigSchema; unknown keys and wrong types are located errors
// (a *configError). Relative paths are made relative to the current
// directory.
func loadConfig(path string) (*genConfig, error) {
	pdoc, err := generator.ReadInputYAML(path) // a regular file, aliases budgeted
	if err != nil {
		return nil, err
	}
	doc := *pdoc
	if len(doc.Content) == 0 {
		return nil, &configError{file: path, lines: []string{path + ":1:1: #: the file is empty; it must be a mapping"}}
	}
	findings, err := generator.CheckSchema(templates.ConfigSchema, "", &doc)
	if err != nil {
		return nil, err
	}
	if len(findings) > 0 {
		e := &configError{file: path}
		for _, f := range findings {
			e.lines = append(e.lines, fmt.Sprintf("%s:%d:%d: #%s: %s", path, f.Line, f.Column, f.Pointer, f.Message))
		}
		return nil, e
	}
	var c genConfig
	if err := doc.Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dir := filepath.Dir(path)
	rel := func(p string) string {
		if p == "" || filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(dir, p)
	}
	c.Spec, c.Output = rel(c.Spec), rel(c.Output)
	for i, o := range c.Overlays {
		c.Overlays[i] = rel(o)
	}
	return &c, nil
}

// selection turns the config's include, exclude and rename keys into the
// generator's Selection; diagnostics about it name file.
func (c *genConfig) selection(file string) *generator.Selection {
	if c == nil {
		return nil
	}
	return &generator.Selection{File: file, Include: c.Include, Exclude: c.Exclude, Rename: c.Rename, LinkPagination: c.LinkPagination}
}
