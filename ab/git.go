package ab

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
)

// A Revision is one side of the comparison.
type Revision struct {
	// Name is the revision as given ("main", "v1.2.0", "HEAD~1"); "" for
	// the working tree.
	Name string
	// Commit is the full hash of the commit Name names; for the working
	// tree, of the commit checked out there (HEAD), "" when the repository
	// has none.
	Commit string
	// WorkingTree is set when this side is the working tree as it is,
	// uncommitted changes included, rather than a commit.
	WorkingTree bool
}

// WorkingTreeText is how Revision.String names the working tree.
const WorkingTreeText = "the working tree (uncommitted changes included)"

// String names r with its commit's short hash: "main (1a2b3c4d5e6f)", or
// WorkingTreeText followed by "at" and the hash of the commit it is on.
func (r Revision) String() string {
	if r.WorkingTree {
		if r.Commit == "" {
			return WorkingTreeText
		}
		return WorkingTreeText + " at " + short(r.Commit)
	}
	if r.Name == r.Commit || len(r.Name) >= 7 && strings.HasPrefix(r.Commit, r.Name) {
		return short(r.Commit)
	}
	return r.Name + " (" + short(r.Commit) + ")"
}

// short is the first 12 hex digits of a commit hash.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// checkout is the git checkout Run works in.
type checkout struct {
	top    string // the top folder of its working tree
	prefix string // Options.Dir relative to top, "" or "a/b/"
}

// findCheckout finds the git checkout that holds dir. Errors: git is not
// on PATH, or dir is not in a git checkout.
func findCheckout(ctx context.Context, dir string) (checkout, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return checkout{}, fmt.Errorf("ab: git is not on PATH: %w", err)
	}
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return checkout{}, fmt.Errorf("ab: %s is not in a git checkout (%w)", dir, err)
	}
	prefix, err := git(ctx, dir, "rev-parse", "--show-prefix")
	if err != nil {
		return checkout{}, fmt.Errorf("ab: %s: %w", dir, err)
	}
	return checkout{top: top, prefix: prefix}, nil
}

// resolve returns the revision rev names; a revision that names no commit
// is an error that names it.
func (c checkout) resolve(ctx context.Context, rev string) (Revision, error) {
	hash, err := git(ctx, c.top, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil || hash == "" {
		if ctx.Err() != nil {
			return Revision{}, interrupted(ctx)
		}
		return Revision{}, fmt.Errorf("ab: revision %q does not exist in %s", rev, c.top)
	}
	return Revision{Name: rev, Commit: hash}, nil
}

// workingTree returns the working tree's Revision: its HEAD commit, ""
// when the repository has no commit yet.
func (c checkout) workingTree(ctx context.Context) Revision {
	hash, _ := git(ctx, c.top, "rev-parse", "--verify", "--quiet", "HEAD")
	return Revision{Commit: hash, WorkingTree: true}
}

// addWorktree checks commit out, detached, into the new folder path, with
// the repository's hooks switched off (a post-checkout hook is the user's
// business, not a benchmark's): they are looked for in a folder beside
// path that does not exist.
func (c checkout) addWorktree(ctx context.Context, path, commit string) error {
	if _, err := git(ctx, c.top, "-c", "core.hooksPath="+filepath.Join(filepath.Dir(path), "no-hooks"), "worktree", "add", "--detach", "--quiet", path, commit); err != nil {
		return fmt.Errorf("ab: check out %s: %w", short(commit), err)
	}
	return nil
}

// removeWorktrees removes the worktrees at paths. Like prune, it runs
// whatever happened to the context Run was given, so it takes none.
func (c checkout) removeWorktrees(paths []string) error {
	var errs []error
	for _, p := range paths {
		if _, err := git(context.Background(), c.top, "worktree", "remove", "--force", p); err != nil {
			errs = append(errs, fmt.Errorf("ab: remove worktree %s: %w", p, err))
		}
	}
	return errors.Join(errs...)
}

// prune makes the repository forget the worktrees whose folders are gone.
func (c checkout) prune() error {
	if _, err := git(context.Background(), c.top, "worktree", "prune"); err != nil {
		return fmt.Errorf("ab: %w", err)
	}
	return nil
}

// git runs git in dir and returns its standard output without the
// trailing newline. Its error is one line: the command and git's own
// first line of complaint.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := firstLine(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimRight(string(out), "\r\n"), nil
}

// firstLine is the first line of s that is not blank, trimmed.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
