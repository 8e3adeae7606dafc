package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/codec/stdjsonv2"
	"github.com/serbench/serbench/docs/schema"
	"github.com/serbench/serbench/toolchain"
)

// fakeRun is run whose -go "builds" every toolchain by linking to this
// test binary (TestMain serves the worker role), except go1.99.0, whose
// build fails as the go command's would, and a -mod version v9.9.9, whose
// go get fails: no toolchain or module is downloaded.
var fakeRun = runCommand{builder: func(context.Context) (toolchain.Builder, error) {
	return toolchain.BuilderFunc(func(ctx context.Context, s toolchain.Spec, out string) error {
		if s.Go == "go1.99.0" {
			return fmt.Errorf("toolchain %s: build failed: go: download go1.99.0 for linux/amd64: toolchain not available", s)
		}
		if s.Module.Version == "v9.9.9" {
			return fmt.Errorf("toolchain %s: go get %s failed: go: %s: invalid version: unknown revision v9.9.9", s, s.Module, s.Module)
		}
		exe, err := os.Executable()
		if err != nil {
			return err
		}
		return os.Symlink(exe, out)
	}), nil
}}

// serbenchFakeGo runs `serbench run args...` as fakeRun; args[0] is "run".
func serbenchFakeGo(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var o, e bytes.Buffer
	err = fakeRun.run(context.Background(), &o, &e, args[1:])
	return o.String(), e.String(), err
}

func TestRunGo(t *testing.T) {
	args := []string{"run", "-go", "go1.26.11,go1.99.0,go1.27.4", "-count", "2", "-benchtime", "1ms",
		"-codecs", "encoding/json,json-v2,encoding/json/v2", "-scenarios", "ws-message"}
	stdout, stderr, err := serbenchFakeGo(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"go1.26.11 ns/op", "go1.27.4 ns/op", "go1.27.4 / go1.26.11", "json-v2", "unmarshal",
		"go1.99.0: did not run: toolchain go1.99.0: build failed: go: download go1.99.0"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "serbench: toolchain go1.99.0: build failed") {
		t.Errorf("stderr lacks the failed build's line:\n%s", stderr)
	}

	stdout, _, err = serbenchFakeGo(t, append(args, "-format", "json")...)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate([]byte(stdout)); err != nil {
		t.Errorf("run -go -format json does not conform to docs/schema: %v", err)
	}
}

func TestRunGoBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"-go", "go1.99.0", "-quick"}, "no toolchain ran"},
		{[]string{"-go", "1.27"}, `-go: toolchain: "1.27": not a Go toolchain name`},
		{[]string{"-go", "go1.27.4", "-parallel"}, "-go does not combine with -parallel"},
		{[]string{"-go", "go1.27.4", "-format", "html"}, `unknown format "html"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, stderr, err := serbenchFakeGo(t, append([]string{"run"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("err = %v, want %q (stderr %s)", err, tc.err, stderr)
			}
		})
	}
}

func TestRunMod(t *testing.T) {
	quick := []string{"-count", "2", "-benchtime", "1ms", "-codecs", "encoding/json", "-scenarios", "ws-message"}
	for _, tc := range []struct {
		name  string
		args  []string
		want  []string
		lines string // on stderr
	}{
		{"versions", []string{"-mod", "github.com/bytedance/sonic@v1.15.4,v9.9.9,v1.15.5"},
			[]string{"sonic@v1.15.4 ns/op", "sonic@v1.15.5 ns/op", "sonic@v1.15.5 / sonic@v1.15.4",
				"sonic@v9.9.9: did not run: toolchain sonic@v9.9.9: go get github.com/bytedance/sonic@v9.9.9 failed"},
			"serbench: toolchain sonic@v9.9.9: go get"},
		{"with -go", []string{"-go", "go1.26.11,go1.27.4", "-mod", "github.com/bytedance/sonic@v1.15.4,v1.15.5"},
			[]string{"go1.26.11 sonic@v1.15.4 ns/op", "go1.27.4 sonic@v1.15.5 ns/op", "go1.27.4 sonic@v1.15.5 / go1.26.11 sonic@v1.15.4"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, err := serbenchFakeGo(t, append(append([]string{"run"}, tc.args...), quick...)...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, tc.lines) {
				t.Errorf("stderr lacks %q:\n%s", tc.lines, stderr)
			}
		})
	}
}

func TestRunModBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		err  string
	}{
		{[]string{"-mod", "github.com/bytedance/sonic"}, `-mod: toolchain: "github.com/bytedance/sonic": want MODULE@VERSION`},
		{[]string{"-mod", "github.com/bytedance/sonic@latest"}, `"latest" is not a version`},
		{[]string{"-mod", "github.com/bytedance/sonic@v9.9.9", "-quick"}, "-mod: no build ran"},
		{[]string{"-mod", "example.com/nope@v1.0.0"}, "-mod: serbench does not link example.com/nope"},
		{[]string{"-mod", "github.com/serbench/serbench@v1.0.0"}, "is serbench itself"},
		{[]string{"-mod", "github.com/bytedance/sonic@v1.15.4", "-parallel"}, "-mod does not combine with -parallel"},
		{[]string{"-go", "go1.26.11,go1.27.4,local", "-mod", "github.com/bytedance/sonic@v1.15.3,v1.15.4,v1.15.5"}, "3 toolchains × 3 versions = 9 builds"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, stderr, err := serbenchFakeGo(t, append([]string{"run"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.err) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line with %q (stderr %s)", err, tc.err, stderr)
			}
			if want := 2; !strings.Contains(tc.err, "no build ran") && exitCode(err) != want {
				t.Errorf("exit status %d, want %d", exitCode(err), want)
			}
		})
	}
}

// TestRunAbsentCodec checks that run without -go names why a codec is not
// in this build, in one line.
func TestRunAbsentCodec(t *testing.T) {
	if stdjsonv2.Available {
		t.Skip("this build has encoding/json/v2")
	}
	_, _, err := serbench(t, "run", "-quick", "-codecs", "encoding/json/v2", "-scenarios", "ws-message")
	if err == nil || !strings.Contains(err.Error(), "encoding/json/v2 is not in this build") || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %v", err)
	}
}

// TestRunGoSendsResolvedIDs checks that -codecs is resolved once, by the
// driver: groups become the IDs of their codecs, a codec this build lacks
// keeps its place, and the worker takes those IDs as they are, a group
// name being no codec ID there.
func TestRunGoSendsResolvedIDs(t *testing.T) {
	v := codecsFlag(flag.NewFlagSet("run", flag.ContinueOnError), "", "", resolveRunCodecs)
	if err := v.Set("wire,cbor,group:cbor,encoding/json/v2"); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range all.Registry().Members(codec.Group{Has: func(i codec.Info) bool { return i.Format == "CBOR" }}) {
		if c.Info().ID != "cbor" {
			want = append(want, c.Info().ID)
		}
	}
	want = append(append([]string{"wire", "cbor"}, want...), stdjsonv2.ID)
	if !slices.Equal(v.ids, want) || len(want) < 4 {
		t.Errorf("-codecs resolved to %q, want %q", v.ids, want)
	}
	p, err := toolchain.PrepareWorker(all.Registry(), workerMatrix)(context.Background(), toolchain.Config{Codecs: []string{"wire", stdjsonv2.ID}, Scenarios: []string{"ws-message"}, Benchtime: time.Millisecond, Baseline: "encoding/json"})
	if err != nil {
		t.Fatal(err)
	}
	if _, absent := p.Absent[stdjsonv2.ID]; absent == stdjsonv2.Available {
		t.Errorf("worker's absent codecs %v (encoding/json/v2 available: %v)", p.Absent, stdjsonv2.Available)
	}
	if _, err := toolchain.PrepareWorker(all.Registry(), workerMatrix)(context.Background(), toolchain.Config{Codecs: []string{"json"}, Benchtime: time.Millisecond, Baseline: "encoding/json"}); err == nil || !strings.Contains(err.Error(), `"json"`) {
		t.Errorf("worker given the group name json: err %v, want an unknown codec ID", err)
	}
}
