package document

import (
	_ "embed"
	"html/template"
)

// The pieces every document's HTML page shares, so that the pages look
// alike without a second copy to keep in step: report's results page and
// package probe's fidelity page parse them.

//go:embed page.css
var pageStyle string

// PageStyle returns the style sheet of serbench's HTML pages, to go
// between <style> and </style>. It fetches nothing (no url(), no
// @import): the pages open offline.
func PageStyle() template.CSS { return template.CSS(pageStyle) }

//go:embed env.tmpl
var envTemplate string

// EnvTemplate returns the text of the html/template "env": the
// environment section of a page, a definition list of an env.Env (its
// Platform, Engine, CPU, kernel, governor, GOGC, start time, settings and
// ModuleList). A page parses it with its own template and calls
// {{template "env" .Env}}.
func EnvTemplate() string { return envTemplate }
