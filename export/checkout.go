package export

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// Tidy runs go mod tidy in dir, the folder of a module Module.Write wrote,
// which writes its go.sum (it needs the module cache or the module proxy);
// the go command's output goes to output.
func Tidy(ctx context.Context, dir string, output io.Writer) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "tidy")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, output, output
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("export: go mod tidy in %s: %w (the module is written; run it there once the module proxy is reachable)", dir, err)
	}
	return nil
}

// BuildModules maps every module linked into this binary to its version:
// the exported go.mod requires them all, so `go mod tidy` keeps the
// libraries (and their dependencies) at the versions serbench measured.
func BuildModules() map[string]string {
	mods := map[string]string{}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return mods
	}
	for _, d := range bi.Deps {
		if d.Replace != nil {
			d = d.Replace
		}
		if d.Version != "" && d.Version != "(devel)" && !strings.HasPrefix(d.Path, "github.com/serbench/serbench") {
			mods[d.Path] = d.Version
		}
	}
	return mods
}

// Checkout returns the root of the serbench module that holds the
// current folder: the folder of `go env GOMOD`, when its module line names
// serbench.
func Checkout(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("the current folder is in no Go module, so no serbench checkout to import")
	}
	if err := IsCheckout(gomod); err != nil {
		return "", fmt.Errorf("the current folder's module: %w", err)
	}
	return filepath.Dir(gomod), nil
}

// IsCheckout returns an error unless the go.mod file gomod declares
// serbench's module.
func IsCheckout(gomod string) error {
	data, err := os.ReadFile(gomod)
	if err != nil {
		return fmt.Errorf("no serbench checkout: %w", err)
	}
	if p := modfile.ModulePath(data); p != SerbenchModule {
		return fmt.Errorf("%s declares module %q, not %s", gomod, p, SerbenchModule)
	}
	return nil
}

// SetCodecs sets m.Codecs to ids with encoding/json first (so that each
// speed-up can be computed from the output) and m.Serbench to the serbench
// checkout that adapter codecs (those Library rejects) import: dir when
// given (it must hold serbench's go.mod), else the checkout around the
// current folder (Checkout), as an absolute path. When adapter codecs need
// a checkout and none is found, named (the user listed ids) makes that an
// error; otherwise the adapter codecs are left out and warning says why.
func (m *Module) SetCodecs(ctx context.Context, ids []string, named bool, dir string) (warning string, err error) {
	codecs := []string{"encoding/json"}
	adapters := false
	for _, id := range ids {
		if id != "encoding/json" {
			codecs = append(codecs, id)
		}
		adapters = adapters || !Library(id)
	}
	if dir != "" {
		if err := IsCheckout(filepath.Join(dir, "go.mod")); err != nil {
			return "", fmt.Errorf("export: serbench checkout %s: %w", dir, err)
		}
	} else if adapters {
		if dir, err = Checkout(ctx); err != nil {
			if named {
				return "", fmt.Errorf("export: %w; give -serbench DIR, or select library codecs only (%s)", err, strings.Join(Supported(), ","))
			}
			warning = fmt.Sprintf("%v: the default set's adapter codecs are left out (give -serbench DIR to add them)", err)
			codecs = slices.DeleteFunc(codecs, func(id string) bool { return !Library(id) })
		}
	}
	if dir != "" {
		if dir, err = filepath.Abs(dir); err != nil {
			return "", fmt.Errorf("export: serbench checkout: %w", err)
		}
	}
	m.Codecs, m.Serbench = codecs, dir
	return warning, nil
}
