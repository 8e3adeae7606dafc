package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/serbench/serbench/cmd/serbench/internal/scratchtest"
	"github.com/serbench/serbench/scaffold"
)

// serbench init -codegen flatbuffers without flatc, or with another
// version than the one serbench's own code is generated with: one line
// naming it and how to install it, and nothing written.
func TestInitFlatBuffersNoFlatc(t *testing.T) {
	other := t.TempDir()
	writeText(t, filepath.Join(other, "flatc"), "#!/bin/sh\necho 'flatc version 23.5.26'\n")
	if err := os.Chmod(filepath.Join(other, "flatc"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
	}{
		{t.TempDir(), "needs flatc for go generate, and it is not installed"},
		{other + string(os.PathListSeparator) + os.Getenv("PATH"), `needs flatc version 2.0.8`},
	} {
		dir := t.TempDir()
		writeText(t, filepath.Join(dir, "order.go"), orderSource)
		t.Setenv("PATH", tc.path)
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "flatbuffers", "-dir", dir})
		if err == nil || exitCode(err) != 1 || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "apt-get install flatbuffers-compiler") || strings.Contains(err.Error(), "\n") {
			t.Errorf("err = %v, want one line mentioning %q and the install", err, tc.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("init wrote files: %v", entries)
		}
	}
}

// fbsShipmentSource is a type with nested structs, time.Time, a map, a slice
// of structs, pointers, uint64, an embedded struct, a map of slices
// (a wrapper message in protobuf), time wrappers, pointers to slices and an
// interface field that init -skip leaves out, and richShipment a
// test that round-trips a value setting every field through the
// flatbuffers row alone, requiring it to keep everything.
const fbsShipmentSource = `package ship

import "time"

type Audit struct {
	CreatedBy string    ` + "`json:\"created_by\"`" + `
	Updated   time.Time ` + "`json:\"updated\"`" + `
}

type Address struct{ Street, City, Zip string }

// Stamp is a time wrapper with a method of its own.
type Stamp struct{ time.Time }

func (s Stamp) String() string { return s.Format(time.RFC3339) }

type Line struct {
	SKU      string
	Quantity int16
	Price    float32
}

type Shipment struct {
	Audit
	TrackingID uint64
	From, To   Address
	Lines      []Line
	Labels     map[string]int32
	Insured    *float64
	Return     *Address
	Eta        time.Duration
	Photo      []byte
	Checksum   [4]byte
	Stops      []*Address
	Groups     map[string][]Line
	Shipped    Stamp
	Delivered  *Stamp
	Scans      []Stamp
	Note       any
	Aliases    *[]string
	Legs       *[]Line
}
`

const richShipment = `package ship

import (
	"testing"
	"time"

	"github.com/serbench/serbench"
	"github.com/serbench/serbench/codec"
)

func TestRichShipment(t *testing.T) {
	insured := 1e6
	v := &Shipment{
		Audit:      Audit{CreatedBy: "ops", Updated: time.Date(2026, 11, 23, 9, 30, 0, 17, time.UTC)},
		TrackingID: 1<<63 + 5,
		From:       Address{"1 Main St", "Springfield", "12345"},
		Lines:      []Line{{"a-1", 3, 9.5}, {"", -2, 0}},
		Labels:     map[string]int32{"dock": 7, "": -1, "zero": 0},
		Insured:    &insured,
		Return:     &Address{City: "Back"},
		Eta:        90 * time.Minute,
		Photo:      []byte{},
		Checksum:   [4]byte{1, 2, 3, 4},
		Stops:      []*Address{{City: "A"}, {City: "B"}},
		Groups:     map[string][]Line{"a": {{"x", 1, 2}}, "b": {{"y", 0, 0}, {"z", 5, 1}}},
		Shipped:    Stamp{time.Date(2026, 11, 24, 8, 0, 0, 5, time.UTC)},
		Delivered:  &Stamp{time.Date(2026, 11, 25, 8, 0, 0, 0, time.UTC)},
		Scans:      []Stamp{{time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)}},
		Note:       "left out by -skip Note",
		Aliases:    &[]string{"parcel", ""},
		Legs:       &[]Line{{"leg", 1, 0.5}},
	}
	serbench.Check(t, v, serbench.Options{Codecs: []string{}, Require: []string{"flatbuffers"}, Skip: []string{"Note"},
		Extra: []codec.Codec{serbench.FlatBuffersDerived(serbenchMarshalFlatBuffers, serbenchUnmarshalFlatBuffers, serbenchFlatBuffersSchema)}})
	// Protocol Buffers does not tell an empty []byte from nil: a value
	// it keeps whole.
	v.Photo = []byte{7}
	serbench.Check(t, v, serbench.Options{Codecs: []string{}, Require: []string{"protobuf", "vtprotobuf"}, Skip: []string{"Note"},
		Extra: []codec.Codec{serbench.ProtoDerived(serbenchToProto, serbenchFromProto),
			serbench.VTProtoDerived(serbenchToProto, serbenchFromProto)}})
}
`

// From a scratch module: serbench init -codegen
// protobuf,vtprotobuf,flatbuffers -get on Order and -codegen flatbuffers
// on Shipment, go generate, go test: the flatbuffers row round-trips both
// (Shipment with every field set), with no hand edits, and the benchmark
// shows its marshal and unmarshal rows.
func TestInitFlatBuffersScratchModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs flatc, protoc, go generate and go test in a scratch module (-short)")
	}
	scratchtest.NeedCodegenTools(t)
	dir := scratchModule(t)
	ship := filepath.Join(dir, "ship")
	if err := os.Mkdir(ship, 0o755); err != nil {
		t.Fatal(err)
	}
	writeText(t, filepath.Join(ship, "ship.go"), fbsShipmentSource)
	goCmd(t, dir, "mod", "tidy")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Order", "-codegen", "protobuf,vtprotobuf,flatbuffers", "-get", "-dir", dir}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	if err := run(context.Background(), &stdout, &stderr, []string{"init", "-type", "Shipment", "-codegen", "protobuf,vtprotobuf,flatbuffers", "-skip", "Note", "-dir", ship}); err != nil {
		t.Fatalf("%v\n%s", err, stderr.Bytes())
	}
	for _, f := range []string{"serbenchfb/order.fbs", scaffold.FlatBuffersFile, scaffold.ProtobufFile, "serbenchpb/order.proto",
		"ship/serbenchfb/shipment.fbs", "ship/" + scaffold.FlatBuffersFile, "ship/serbenchpb/shipment.proto", "ship/" + scaffold.ProtobufFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("init did not write %s: %v\n%s", f, err, stdout.Bytes())
		}
	}
	writeText(t, filepath.Join(ship, "rich_test.go"), richShipment)
	goCmd(t, dir, "generate", "./...")
	goCmd(t, dir, "mod", "tidy")
	out := string(goCmd(t, dir, "test", "-run", "TestCodecs|TestRichShipment", "-v", "./..."))
	for _, want := range []string{`\sflatbuffers\s+kept\s`, `\sprotobuf\s+kept\s`, `\svtprotobuf\s+kept\s`, `--- PASS: TestRichShipment`, `\sflatbuffers \*\s+kept\s`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("go test output lacks %s:\n%s", want, out)
		}
	}
	bench := string(goCmd(t, dir, "test", "-run", "^$", "-bench", "Codecs/codec=(flatbuffers|protobuf)/", "-benchtime", "10x", "."))
	for _, row := range []string{"flatbuffers/op=marshal", "flatbuffers/op=unmarshal", "protobuf/op=marshal", "protobuf/op=unmarshal", "protobuf/op=convert"} {
		if !regexp.MustCompile(`Codecs/codec=` + row + `\S*\s+10\s`).MatchString(bench) {
			t.Errorf("the benchmark lacks the %s row:\n%s", row, bench)
		}
	}
}
