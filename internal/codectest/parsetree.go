package codectest

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/fidelity"
)

// parseInputs are JSON texts that a parse-only codec's tree must read as
// encoding/json does: escapes, non-ASCII text, integers at and beyond
// int64 and uint64, floats, empty and nested containers.
var parseInputs = []string{
	`{"s":"a\"b\\c\n\u00e9\ud83d\ude00","k\u00e9y":"v"}`,
	`{"i":-9223372036854775808,"u":18446744073709551615,"big":18446744073709551616,"f":1.5e-7,"z":0}`,
	`[true,false,null,[],{},[[1,2],{"a":[3]}]]`,
	`{"nested":{"deeper":{"deepest":[1,"two",3.25]}},"empty":""}`,
}

// ParseTree checks c, a parse-only codec (codec.Info.ParseOnly): its
// Binding implements codec.DOM; the tree of each of a set of JSON texts,
// parsed one after another on one Binding (so a reused parser is
// exercised), equals codec.JSONTree of the text; the tree of one text
// differs from another's (the check is not vacuous); invalid JSON is an
// error.
func ParseTree(t *testing.T, c codec.Codec) {
	t.Helper()
	if !c.Info().ParseOnly {
		t.Fatalf("%s: Info.ParseOnly is false", c.Info().ID)
	}
	b, err := c.Bind(new(any))
	if err != nil {
		t.Fatal(err)
	}
	dom, ok := b.(codec.DOM)
	if !ok {
		t.Fatalf("%s: Binding %T does not implement codec.DOM", c.Info().ID, b)
	}
	for _, in := range parseInputs {
		doc, err := b.Unmarshal([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		got, err := dom.Tree(doc)
		if err != nil {
			t.Errorf("%s: Tree: %v", in, err)
			continue
		}
		want, err := codec.JSONTree([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if d := fidelity.Diff(want, got); d != nil {
			t.Errorf("%s: %v", in, d)
		}
	}
	doc, err := b.Unmarshal([]byte(parseInputs[0]))
	if err != nil {
		t.Fatal(err)
	}
	got, err := dom.Tree(doc)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := codec.JSONTree([]byte(parseInputs[3]))
	if fidelity.Diff(other, got) == nil {
		t.Error("the trees of two different texts compare equal")
	}
	for _, bad := range []string{`{"a":`, `{"a" 1}`, `[1,]`} {
		if _, err := b.Unmarshal([]byte(bad)); err == nil {
			t.Errorf("%s: parsed without error", bad)
		}
	}
	in, err := b.Marshal(&struct{ A int }{7})
	if err != nil || string(in) != `{"A":7}` {
		t.Errorf("Marshal (the input, encoding/json's) = %s, %v", in, err)
	}
}

// DOMID is the ID of the codec LossyDOM returns.
const DOMID = "lossy-dom"

// LossyDOM returns a parse-only codec (codec.Info.ParseOnly) whose tree
// leaves out the first key of a top-level object in sorted order: the
// runner's parse check must report it. With broken set its Binding does
// not implement codec.DOM at all.
func LossyDOM(broken bool) codec.Codec { return lossyDOM{broken: broken} }

type lossyDOM struct{ broken bool }

func (lossyDOM) Info() codec.Info {
	return codec.Info{ID: DOMID, Module: "test", Format: "JSON", Kind: codec.Parser, ParseOnly: true,
		Options: "encoding/json into any; Tree drops the first key", Time: "none"}
}

func (c lossyDOM) Bind(sample any) (codec.Binding, error) {
	if c.broken {
		return codec.Funcs{Meta: c.Info(), Marshal: json.Marshal, Unmarshal: json.Unmarshal}.Bind(sample)
	}
	return lossyBinding{}, nil
}

type lossyBinding struct{}

func (lossyBinding) Marshal(v any) ([]byte, error) { return json.Marshal(v) }

func (lossyBinding) Unmarshal(data []byte) (any, error) {
	if !json.Valid(data) {
		return nil, errors.New("lossy-dom: invalid JSON")
	}
	return append([]byte(nil), data...), nil
}

func (lossyBinding) Tree(doc any) (any, error) {
	data, ok := doc.([]byte)
	if !ok {
		return nil, fmt.Errorf("lossy-dom: Tree of %T", doc)
	}
	v, err := codec.JSONTree(data)
	if err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok {
		first := ""
		for k := range m {
			if first == "" || k < first {
				first = k
			}
		}
		delete(m, first)
	}
	return v, nil
}
