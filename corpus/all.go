package corpus

import (
	"errors"

	"github.com/serbench/serbench/scenario"
)

// All returns the built-in scenarios (scenario.Seeds, then the Go
// toolchain's corpora of Toolchain) followed, when path is set, by the
// user's corpus files there (Files), all read with opts. Warnings are
// problems that leave scenarios out without failing: a Go installation
// without the corpus folder (ErrNoToolchainCorpus). Errors are those of
// Toolchain, Files and Join (an ID given twice).
func All(path string, opts Options) ([]scenario.Scenario, []string, error) {
	var warnings []string
	tc, err := Toolchain(opts)
	if errors.Is(err, ErrNoToolchainCorpus) {
		warnings = append(warnings, err.Error()+"; the corpus/* scenarios are skipped")
	} else if err != nil {
		return nil, nil, err
	}
	var user []scenario.Scenario
	if path != "" {
		if user, err = Files(path, opts); err != nil {
			return nil, nil, err
		}
	}
	ss, err := Join(scenario.Seeds(), tc, user)
	if err != nil {
		return nil, nil, err
	}
	return ss, warnings, nil
}
