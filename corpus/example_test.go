package corpus_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/serbench/serbench/corpus"
)

// Toolchain's scenarios, with the Go type each document decodes into.
func ExampleToolchain() {
	ss, err := corpus.Toolchain(corpus.Options{})
	if errors.Is(err, corpus.ErrNoToolchainCorpus) {
		fmt.Println("warning:", err) // go on without the corpus
		return
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range ss {
		fmt.Println(s.ID, s.Type)
	}
	// Output:
	// corpus/canada_geometry *corpus.Canada
	// corpus/citm_catalog *corpus.CitmCatalog
	// corpus/golang_source *corpus.GolangSource
	// corpus/string_escaped *corpus.UnicodeBlocks
	// corpus/string_unicode *corpus.UnicodeBlocks
	// corpus/synthea_fhir *corpus.SyntheaBundle
	// corpus/twitter_status *corpus.TwitterSearch
}

// A user's own document becomes a scenario decoded into any.
func ExampleFiles() {
	dir, err := os.MkdirTemp("", "corpus-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "orders.json")
	if err := os.WriteFile(path, []byte(`{"orders": [{"id": 7, "total": 12.5}]}`), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	ss, err := corpus.Files(path, corpus.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ss[0].ID, ss[0].Type, *ss[0].Value().(*any))
	// Output:
	// corpus/orders *interface {} map[orders:[map[id:7 total:12.5]]]
}
