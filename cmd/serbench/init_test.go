package main

import (
	"bytes"
	"context"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/scaffold"
)

const orderSource = `package order

import "time"

// Order is the six-field struct of docs/your-type.md.
type Order struct {
	ID       string    ` + "`json:\"id\"`" + `
	Created  time.Time ` + "`json:\"created\"`" + `
	Customer string    ` + "`json:\"customer\"`" + `
	Items    int       ` + "`json:\"items\"`" + `
	Paid     bool      ` + "`json:\"paid\"`" + `
	Total    float64   ` + "`json:\"total\"`" + `
	Tags     []string  ` + "`json:\"tags\"`" + `
	note     string
}
`

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// init writes the starter file (golden), lists the next steps, and never
// overwrites a file.
func TestInit(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "order.go"), orderSource)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "msgp,easyjson", "-dir", dir}); err != nil {
		t.Fatalf("%v (stderr %s)", err, stderr.Bytes())
	}
	got, err := os.ReadFile(filepath.Join(dir, scaffold.InitFile))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "init-order.go.txt"), got)
	for _, want := range []string{"go get github.com/serbench/serbench", "go get -tool github.com/tinylib/msgp@v1.6.5",
		"go get -tool github.com/mailru/easyjson/easyjson@v0.9.2", "go generate", "go mod tidy", "serbench show new.txt"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout does not mention %q:\n%s", want, stdout.Bytes())
		}
	}
	// -skip is written into the options, and the header's command line.
	skipped := t.TempDir()
	writeText(t, filepath.Join(skipped, "order.go"), orderSource)
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-skip", "Tags, Customer", "-dir", skipped}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(skipped, scaffold.InitFile)); !bytes.Contains(b, []byte(`	Skip: []string{"Tags", "Customer"},`)) || !bytes.Contains(b, []byte("serbench init -type Order -skip Tags,Customer.")) {
		t.Errorf("init -skip wrote:\n%s", b)
	}
	// A type that is not a composite gets new(T), which always compiles.
	other := t.TempDir()
	writeText(t, filepath.Join(other, "cents.go"), "package money\n\ntype Cents int64\n")
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Cents", "-dir", other}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(other, scaffold.InitFile)); !bytes.Contains(b, []byte("var sampleCents = new(Cents)")) || bytes.Contains(b, []byte("codec.Codec")) {
		t.Errorf("init for a non-struct type wrote:\n%s", b)
	}
	// The FromJSON snippet of the comment, in place of the literal, is a
	// valid package-level declaration.
	snippet := regexp.MustCompile(`(?s)\n//\tvar sampleOrder = func.*?\n//\t}\(\)\n`).Find(got)
	decl := strings.ReplaceAll(strings.ReplaceAll(string(snippet), "\n//\t", "\n"), "\n//", "\n")
	if snippet == nil {
		t.Errorf("no FromJSON snippet in:\n%s", got)
	} else if _, err := parser.ParseFile(token.NewFileSet(), "x.go", "package order\n"+decl, 0); err != nil {
		t.Errorf("the FromJSON snippet does not parse: %v\n%s", err, decl)
	}
	// Another package's type, named by import path: the file imports it
	// and writes its literal.
	foreign := t.TempDir()
	writeText(t, filepath.Join(foreign, "doc.go"), "package links\n")
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "net/url.URL", "-dir", foreign}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(foreign, scaffold.InitFile)); !bytes.Contains(b, []byte("\t\"net/url\"\n")) || !regexp.MustCompile(`var sampleURL = &url.URL{\n\tScheme: +"example scheme",`).Match(b) {
		t.Errorf("init -type net/url.URL wrote:\n%s", b)
	}
	// Pointer fields of a basic type get a placeholder through the file's
	// serbenchPtr; a pointer to a struct of the package, a time wrapper
	// included, a literal filled the same way, down to a depth of 2; a
	// recursive field and a struct deeper than that are left to the user.
	ptrs := t.TempDir()
	writeText(t, filepath.Join(ptrs, "user.go"), `package api

import "time"

type User struct {
	Login   *string
	ID      *int64
	Plan    *Plan
	Created *Timestamp
	Parent  *User
}

type Plan struct {
	Name  string
	Owner *Owner
}

type Owner struct {
	Login string
	Org   *Org
}

type Org struct{ Name string }

type Timestamp struct{ time.Time }
`)
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "User", "-dir", ptrs}); err != nil {
		t.Fatal(err)
	}
	const sample = `var sampleUser = &User{
	Login: serbenchPtr[string]("example login"),
	ID:    serbenchPtr[int64](42),
	Plan: &Plan{
		Name: "example name",
		Owner: &Owner{
			Login: "example login",
			// Org: set a value,
		},
	},
	Created: &Timestamp{
		Time: time.Date(2026, time.November, 23, 9, 30, 0, 0, time.UTC),
	},
	// Parent: set a value,
}
`
	if b, _ := os.ReadFile(filepath.Join(ptrs, scaffold.InitFile)); !bytes.Contains(b, []byte(sample)) || !bytes.Contains(b, []byte("\t\"time\"\n")) ||
		!bytes.Contains(b, []byte("func serbenchPtr[T any](v T) *T { return &v }")) {
		t.Errorf("init on pointer fields wrote:\n%s\nwant the sample\n%s", b, sample)
	}
	// A second init fails and leaves the file as it was.
	writeText(t, filepath.Join(dir, scaffold.InitFile), "package order // mine\n")
	err = run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-dir", dir})
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second init: err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, scaffold.InitFile)); string(b) != "package order // mine\n" {
		t.Errorf("init overwrote the user's file: %q", b)
	}
}

func TestInitErrors(t *testing.T) {
	dir := t.TempDir()
	empty := t.TempDir()
	writeText(t, filepath.Join(dir, "order.go"), orderSource)
	writeText(t, filepath.Join(dir, "generic.go"), "package order\n\ntype Box[T any] struct{ V T }\n")
	writeText(t, filepath.Join(dir, "stamp.go"), "package order\n\nimport \"time\"\n\ntype Stamp = time.Time\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"init", "-dir", dir}, "-type is required"},
		{[]string{"init", "-type", "Order", "-codegen", "msgp,capnp", "-dir", dir}, `unknown generator "capnp"`},
		{[]string{"init", "-type", "Order", "-dir", empty}, "no Go files"},
		{[]string{"init", "-type", "Invoice", "-dir", dir}, "no type Invoice declared in package order"},
		{[]string{"init", "-type", "Box", "-dir", dir}, "is generic"},
		{[]string{"init", "-type", "Order", "-dir", dir, "extra"}, "unexpected argument"},
		{[]string{"init", "-type", "Invoice", "-dir", dir}, "it declares: Box, Order"},
		// Another package's type: a missing one names the package and
		// its exported types; a generator that writes methods onto a
		// local declaration is refused up front, for an alias too.
		{[]string{"init", "-type", "time.Moment", "-dir", dir}, "no type Moment declared in package time; it declares: Duration, Location, Month, ParseError, Ticker, Time, Timer, Weekday"},
		{[]string{"init", "-type", "time.Time", "-codegen", "msgp", "-dir", dir}, "-codegen msgp writes methods onto a type declared in your package, and time.Time is declared in another (time (time.go))"},
		{[]string{"init", "-type", "Stamp", "-codegen", "easyjson", "-dir", dir}, "and Stamp is declared in another (stamp.go, an alias of time.Time)"},
		{[]string{"init", "-type", "example.invalid/nope.T", "-dir", dir}, "init: -type example.invalid/nope.T: package example.invalid/nope does not resolve from"},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%v: err = %v, want one line mentioning %q", tc.args, err, tc.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, scaffold.InitFile)); !os.IsNotExist(err) {
		t.Errorf("a failed init left %s behind", scaffold.InitFile)
	}
}
