package doccheck

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
)

func TestSlug(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Tight intervals, a recommendation and an independent check", "tight-intervals-a-recommendation-and-an-independent-check"},
		{"Compression on the wire: `-compress`", "compression-on-the-wire--compress"},
		{"10,000 connections", "10000-connections"},
		{"`serbench serve` and `serbench load`", "serbench-serve-and-serbench-load"},
		{"See [the reference](reference.md)", "see-the-reference"},
		{"snake_case and Ünïcode", "snake_case-and-ünïcode"},
	} {
		if got := Slug(tt.heading); got != tt.want {
			t.Errorf("Slug(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

func TestAnchorsRepeatAndFences(t *testing.T) {
	md := "# A\n## Notes\n```sh\n# not a heading\n```\n### Notes\n"
	want := map[string]bool{"a": true, "notes": true, "notes-1": true}
	if got := Anchors(md); !reflect.DeepEqual(got, want) {
		t.Errorf("Anchors = %v, want %v", got, want)
	}
}

func TestLinks(t *testing.T) {
	md := "see [a](a.md#x) and `[b](b.md)`\n```\n[c](c.md)\n```\n[d](https://e.org/f) [g](#h)\n"
	want := []Link{{1, "a.md#x"}, {5, "https://e.org/f"}, {5, "#h"}}
	if got := Links(md); !reflect.DeepEqual(got, want) {
		t.Errorf("Links = %v, want %v", got, want)
	}
}

func TestCommands(t *testing.T) {
	md := "```sh\n" +
		"C=json,wire\n" +
		"go run ./cmd/serbench run -codecs $C -quick   # a comment\n" +
		"serbench serve -addr 127.0.0.1:8099 &\n" +
		"cd /tmp && serbench show 'a b.json' | head\n" +
		"serbench load -transport $tr \\\n  -rate 5\n" +
		"go test ./...\n" +
		"for tr in sse ws; do for c in \"\" -compress; do\n" +
		"  serbench load -transport $tr $c\n" +
		"done; done\n" +
		"```\n" +
		"```\nserbench run -not-shell\n```\n" +
		SkipMarker + "\n```sh\nserbench run -bad\n```\n"
	got := Commands(md)
	want := []Command{
		{Line: 3, Text: "go run ./cmd/serbench run -codecs $C -quick", Args: []string{"run", "-codecs", "json,wire", "-quick"}},
		{Line: 4, Text: "serbench serve -addr 127.0.0.1:8099", Args: []string{"serve", "-addr", "127.0.0.1:8099"}},
		{Line: 5, Text: "serbench show a b.json", Args: []string{"show", "a b.json"}},
		{Line: 6, Text: "serbench load -transport $tr -rate 5", Args: []string{"load", "-transport", "$tr", "-rate", "5"}, Unresolved: true},
		{Line: 10, Text: "serbench load -transport $tr $c", Args: []string{"load", "-transport", "sse"}},
		{Line: 10, Text: "serbench load -transport $tr $c", Args: []string{"load", "-transport", "sse", "-compress"}},
		{Line: 10, Text: "serbench load -transport $tr $c", Args: []string{"load", "-transport", "ws"}},
		{Line: 10, Text: "serbench load -transport $tr $c", Args: []string{"load", "-transport", "ws", "-compress"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Commands =\n%+v\nwant\n%+v", got, want)
	}
}

func TestUnreached(t *testing.T) {
	root := t.TempDir()
	for name, text := range map[string]string{
		"README.md":      "[a](docs/a.md#x) `[c](docs/c.md)`\n",
		"docs/a.md":      "[b](sub/b.md) [web](https://example.org/d.md)\n",
		"docs/sub/b.md":  "[back](../../README.md)\n",
		"docs/c.md":      "nobody links here outside code\n",
		"docs/notes.txt": "not a document\n",
	} {
		path := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Files(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"README.md", "docs/a.md", "docs/c.md", "docs/sub/b.md"}; !reflect.DeepEqual(files, want) {
		t.Fatalf("Files = %v, want %v", files, want)
	}
	got, err := Unreached(root, files)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"docs/c.md"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Unreached = %v, want %v", got, want)
	}
}

// TestFolderMap keeps docs/development.md's folder map equal to the
// repository: every folder with Go code is covered by an entry, and every
// entry names a folder that exists.
func TestFolderMap(t *testing.T) {
	root := filepath.Join("..", "..")
	entries, err := FolderMap(root)
	if err != nil {
		t.Fatal(err)
	}
	dirs, err := PackageDirs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range Unmapped(entries, dirs) {
		t.Errorf("%s: folder %s/ holds Go code but the folder map has no entry for it or a folder above it", FolderMapFile, d)
	}
	for _, e := range Stale(root, entries) {
		t.Errorf("%s: the folder map names %s/, which does not exist", FolderMapFile, e)
	}
}

func TestUnmapped(t *testing.T) {
	got := Unmapped([]string{".", "codec", "codec/<library>", "bench"}, []string{".", "codec", "codec/wire", "codec/wire/gen", "benchx", "archive"})
	if want := []string{"benchx", "archive"}; !slices.Equal(got, want) {
		t.Errorf("Unmapped = %v, want %v", got, want)
	}
}
