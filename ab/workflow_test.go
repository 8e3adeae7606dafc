package ab

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkflowReadsComment keeps the pull request check of examples/ in
// step with WriteComment: it must read the verdict from the first line as
// WriteComment writes it, find its earlier comment by CommentMarker, and
// act on the verdicts by their names. (actionlint checks the rest of the
// workflow in CI.)
func TestWorkflowReadsComment(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "github-actions", "serbench-ab.yml"))
	if err != nil {
		t.Fatal(err)
	}
	yml := string(data)
	for _, want := range []string{
		"-format comment -o ",
		"-bmf ",
		"-max-regression ",
		`sed -n '1s/^` + CommentMarker + `: \([a-z]*\) -->$/\1/p'`,
		`startswith("` + CommentMarker + `")`,
		`"$VERDICT" != ` + VerdictUnchanged,
		`steps.ab.outputs.verdict == '` + VerdictSlower + `'`,
	} {
		if !strings.Contains(yml, want) {
			t.Errorf("serbench-ab.yml lacks %q", want)
		}
	}
	for _, v := range []string{VerdictSlower, VerdictFaster, VerdictUnchanged} {
		if strings.Trim(v, "abcdefghijklmnopqrstuvwxyz") != "" {
			t.Errorf("verdict %q is not lower-case letters, which the workflow's sed pattern reads", v)
		}
	}
}
