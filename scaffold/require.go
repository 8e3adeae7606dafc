package scaffold

import (
	"context"
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"
)

// serbenchModule is the module the starter file imports.
const serbenchModule = "github.com/serbench/serbench"

// requiredPackages are the packages of serbenchModule that the starter
// file and the derivation in the package import: go get records the
// go.sum lines of all their imports.
var requiredPackages = []string{serbenchModule}

// needsSerbench reports whether one of gens derives a schema inside the
// package, which must then require serbench before Init writes anything.
func needsSerbench(gens []string) bool {
	for _, g := range gens {
		if generators[g].schema != "" {
			return true
		}
	}
	return false
}

// serbenchVersion is the version of serbench this code was built from,
// as go get takes it: the main module's version for the serbench command
// (go install github.com/serbench/serbench/cmd/serbench@v1.2.0), or the
// required version for a program that links serbench as a library; ""
// for a build that has none a proxy can serve (a development build,
// "(devel)", or one from a modified checkout, "+dirty").
func serbenchVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := ""
	if bi.Main.Path == serbenchModule {
		v = bi.Main.Version
	}
	for _, d := range bi.Deps {
		if d.Path == serbenchModule {
			v = d.Version
		}
	}
	if v == "(devel)" || strings.Contains(v, "+") {
		return ""
	}
	return v
}

// replacedVersion is the version under which go.mod's replace directive
// for serbench (a local checkout) serves it: the replaced version, or
// v0.0.0-00010101000000-000000000000, the go command's own for a
// replacement of every version; "" without one.
func replacedVersion(dir string) string {
	mf := modFile(dir)
	if mf == nil {
		return ""
	}
	for _, r := range mf.Replace {
		if r.Old.Path == serbenchModule {
			if r.Old.Version != "" {
				return r.Old.Version
			}
			return "v0.0.0-00010101000000-000000000000"
		}
	}
	return ""
}

// requireSerbench adds serbench to the go.mod of the module holding dir,
// with go get of requiredPackages: at the version go.mod replaces (a
// local checkout), else at serbenchVersion, or at latest when that has
// none or go get fails for it (a version the proxy does not have).
// Errors carry every go get's message whole, on one line.
func requireSerbench(ctx context.Context, dir string) (Step, error) {
	versions := []string{serbenchVersion(), "latest"}
	if v := replacedVersion(dir); v != "" {
		versions = []string{v}
	}
	var fails []string
	for _, v := range versions {
		if v == "" {
			continue
		}
		args := []string{"get"}
		for _, p := range requiredPackages {
			args = append(args, p+"@"+v)
		}
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		command := "go " + strings.Join(args, " ")
		if err == nil {
			return Step{Command: command, Why: "serbench is required in go.mod", Ran: true}, nil
		}
		fails = append(fails, fmt.Sprintf("%s: %s (%v)", command, oneLine(string(out)), err))
	}
	return Step{}, fmt.Errorf("init: the module of %s does not require %s, and adding it failed; nothing was written: %s", dir, serbenchModule, strings.Join(fails, "; then "))
}
