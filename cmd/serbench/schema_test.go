package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/derive"
)

// scratchOrder is the Order of scratchModule, for the schema the
// subcommand must print.
type scratchOrder struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Customer string    `json:"customer"`
	Items    int       `json:"items"`
	Paid     bool      `json:"paid"`
	Total    float64   `json:"total"`
}

// Command lines that cannot be parsed: status 2, before any go command.
func TestSchemaUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"schema"}, "-type is required"},
		{[]string{"schema", "-type", "Order", "-format", "xml"}, `unknown format "xml"`},
		{[]string{"schema", "-type", "Order", "a", "b"}, "at most one package folder"},
		{[]string{"schema", "-type", "Order", "-skip", "Tags,,Note"}, `-skip: an empty path in "Tags,,Note"`},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		if err == nil || exitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v (exit %d), want exit 2 mentioning %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}

// serbench schema runs the derivation in the user's package: the schema
// printed is the one package derive writes for the same type, and bad
// input is one line with status 1.
func TestSchemaInScratchModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a scratch module (-short)")
	}
	dir := scratchModule(t)
	goCmd(t, dir, "mod", "tidy")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	for _, f := range derive.Formats {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), &stdout, &stderr, []string{"schema", "-type", "Order", "-format", string(f), dir}); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, err := derive.Derive(reflect.TypeFor[scratchOrder](), f)
		if err != nil {
			t.Fatal(err)
		}
		// The same schema but for the Go names: package order, type Order.
		w := strings.NewReplacer("main.scratchOrder", "order.Order", "scratchOrder", "Order",
			"package serbench;", "package order;", "namespace serbench;", "namespace order;", `"namespace": "serbench"`, `"namespace": "order"`).Replace(want.Text)
		if stdout.String() != w {
			t.Errorf("%s: got\n%s\nwant\n%s", f, stdout.Bytes(), w)
		}
	}
	writeText(t, filepath.Join(dir, "bad.go"), "package order\n\ntype Bad struct {\n\tC chan int\n\tN int\n\tF func()\n}\n")
	for _, tc := range []struct {
		args  []string
		want  string
		lines int
	}{
		{[]string{"schema", "-type", "Nope", dir}, "no type Nope declared in package order", 1},
		{[]string{"schema", "-type", "Bad", dir}, "derive: proto: order.Bad: .C (chan int): a channel", 4},
		{[]string{"schema", "-type", "Bad", dir}, "\n(all of them: -skip C,F, with any paths -skip already gave)", 4},
		{[]string{"schema", "-type", "Bad", "-skip", "C,Nope", dir}, `derive: Options.Skip "Nope": the root type order.Bad has no field "Nope"; its fields: C, N, F`, 2},
	} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, tc.args)
		if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), tc.want) || strings.Count(err.Error(), "\n")+1 != tc.lines {
			t.Errorf("%q: %v (exit %d), want exit 1 and %d lines mentioning %q", tc.args, err, exitCode(err), tc.lines, tc.want)
		}
	}
	// -skip leaves the fields out: Bad has a schema.
	var out, errOut bytes.Buffer
	if err := run(context.Background(), &out, &errOut, []string{"schema", "-type", "Bad", "-skip", "C,F", "-format", "fbs", dir}); err != nil {
		t.Errorf("-skip C,F: %v", err)
	} else if s := out.String(); !strings.Contains(s, "Left out by Options.Skip: .C, .F.") || !strings.Contains(s, "table Bad {\n  n: long;\n}") {
		t.Errorf("-skip C,F: schema\n%s", s)
	}
	writeText(t, filepath.Join(dir, "broken.go"), "package order\n\nvar x int = \"s\"\n")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"schema", "-type", "Order", dir})
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "does not build: ./broken.go:3") || strings.Contains(err.Error(), "\n") {
		t.Errorf("broken package: %v (exit %d), want one line naming broken.go:3", err, exitCode(err))
	}
}

// serbench init -codegen protobuf without protoc: one line naming it and
// how to install it, and nothing written.
func TestInitProtobufNoProtoc(t *testing.T) {
	dir := t.TempDir()
	writeText(t, filepath.Join(dir, "order.go"), orderSource)
	t.Setenv("PATH", t.TempDir())
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "protobuf", "-dir", dir})
	if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), "needs protoc") || !strings.Contains(err.Error(), "apt-get install protobuf-compiler") || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v, want one line naming protoc and its install", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("init wrote files: %v", entries)
	}
}

// From a scratch module: serbench init -codegen protobuf,vtprotobuf -get,
// go generate, go test: the generated protobuf and vtprotobuf rows and the
// derived ones round-trip Order, with no hand edits.
func TestInitProtobufScratchModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs protoc, go generate and go test in a scratch module (-short)")
	}
	if _, err := exec.LookPath("protoc"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("protoc is not installed")
		}
		t.Skip("protoc is not installed")
	}
	dir := scratchModule(t)
	goCmd(t, dir, "mod", "tidy")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "protobuf,vtprotobuf", "-get", "-dir", dir}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	proto, err := os.ReadFile(filepath.Join(dir, "serbenchpb", "order.proto"))
	if err != nil || !strings.Contains(string(proto), "google.protobuf.Timestamp created = 2; // lossy:") {
		t.Fatalf("serbenchpb/order.proto: %v\n%s", err, proto)
	}
	goCmd(t, dir, "generate")
	goCmd(t, dir, "mod", "tidy")
	out := string(goCmd(t, dir, "test", "-run", "TestCodecs", "-v"))
	for _, want := range []string{"protobuf          kept    ", "vtprotobuf        kept    ", "protobuf/derived  kept    ", "avro/derived      kept    "} {
		if !strings.Contains(out, want) {
			t.Errorf("go test output lacks %q:\n%s", want, out)
		}
	}
	// vtprotobuf alone: it needs protoc-gen-go's types.
	err = run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "vtprotobuf", "-dir", t.TempDir()})
	if exitCode(err) != 2 || !strings.Contains(fmt.Sprint(err), "-codegen protobuf,vtprotobuf") {
		t.Errorf("-codegen vtprotobuf: %v", err)
	}
	// A second init writes nothing.
	err = run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "protobuf", "-dir", dir})
	if err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second init: %v", err)
	}
}
