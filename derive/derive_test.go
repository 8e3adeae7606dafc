package derive_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hamba/avro/v2"

	"github.com/serbench/serbench/derive"
	"github.com/serbench/serbench/internal/golden"
)

// Order is the six-field type of docs/your-type.md.
type Order struct {
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Customer string    `json:"customer"`
	Items    int       `json:"items"`
	Paid     bool      `json:"paid"`
	Total    float64   `json:"total"`
}

// Audit is embedded in Shipment: its fields are flattened.
type Audit struct {
	CreatedBy string    `json:"created_by"`
	Updated   time.Time `json:"updated"`
}

type Address struct {
	Street string `json:"street"`
	City   string `json:"city"`
	Zip    string `json:"zip,omitempty"`
}

type Line struct {
	SKU      string  `json:"sku"`
	Quantity int16   `json:"quantity"`
	Price    float32 `json:"price"`
}

type Status string

// Shipment has nested structs, time.Time, a map, a slice of structs, a
// pointer, uint64 and an embedded struct.
type Shipment struct {
	Audit
	TrackingID uint64            `json:"tracking_id"`
	Status     Status            `json:"status"`
	From, To   Address           // no tags: Go names
	Lines      []Line            `json:"lines"`
	Labels     map[string]string `json:"labels"`
	Insured    *float64          `json:"insured,omitempty"`
	Return     *Address          `json:"return,omitempty"`
	Eta        time.Duration     `json:"eta"`
	Priority   int8              `json:"priority"`
	Photo      []byte            `json:"photo"`
	Checksum   [4]byte           `json:"checksum"`
	Internal   string            `json:"-"`
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  reflect.Type
	}{
		{"order", reflect.TypeFor[Order]()},
		{"shipment", reflect.TypeFor[*Shipment]()},
	} {
		for _, f := range derive.Formats {
			t.Run(tc.name+"."+string(f), func(t *testing.T) {
				s, err := derive.Derive(tc.typ, f)
				if err != nil {
					t.Fatal(err)
				}
				golden.Check(t, filepath.Join("testdata", tc.name+"."+string(f)), []byte(s.Text))
				for _, l := range s.Losses {
					if !strings.Contains(s.Text, l.Lost) {
						t.Errorf("loss %s is not in the schema text", l)
					}
				}
			})
		}
	}
}

// The texts are valid schemas: hamba/avro parses the .avsc, and protoc and
// flatc (when installed; CI installs both) compile the .proto and .fbs.
func TestSchemasCompile(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[Order](), reflect.TypeFor[Shipment](), reflect.TypeFor[Tree](), reflect.TypeFor[Nested]()} {
		a, err := derive.DeriveAvro(typ)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := avro.Parse(a.Text); err != nil {
			t.Errorf("%s: hamba/avro does not parse the schema: %v\n%s", typ, err, a.Text)
		}
		for _, f := range []derive.Format{derive.Proto, derive.FlatBuffers} {
			if f == derive.FlatBuffers && typ == reflect.TypeFor[Nested]() {
				continue // lists of lists: FlatBuffers has none
			}
			tool := map[derive.Format]string{derive.Proto: "protoc", derive.FlatBuffers: "flatc"}[f]
			bin, err := exec.LookPath(tool)
			if err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s is not installed", tool)
				}
				t.Logf("%s is not installed: not compiling the %s schema", tool, f)
				continue
			}
			s, err := derive.Derive(typ, f)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			file := filepath.Join(dir, s.Name+"."+string(f))
			if err := os.WriteFile(file, []byte(s.Text), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"-I" + dir, "--descriptor_set_out=" + filepath.Join(dir, "out.pb"), file}
			if f == derive.FlatBuffers {
				args = []string{"--go", "-o", dir, file}
			}
			if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
				t.Errorf("%s on the schema of %s: %v\n%s\n%s", tool, typ, err, out, s.Text)
			}
		}
	}
}

// Nested has lists and maps inside lists and maps, which protobuf takes
// through wrapper messages.
type Nested struct {
	Matrix [][]float64                   `json:"matrix"`
	Groups map[string][]Line             `json:"groups"`
	Attrs  map[string]map[string]string  `json:"attrs"`
	Rows   []map[string]int32            `json:"rows"`
	Cube   [2][][]int                    `json:"cube"`
	Deep   map[string]map[string][]*Line `json:"deep"`
}

// Tree refers to itself: the formats allow it.
type Tree struct {
	Name     string  `json:"name"`
	Children []*Tree `json:"children"`
	Parent   *Tree   `json:"parent"`
}

type (
	bad struct {
		OK       string
		Any      any
		Ch       chan int
		Fn       func()
		hidden   int //lint:ignore U1000 an unexported field is what the test is about
		Skipped  any `json:"-"`
		Cplx     complex128
		IntKeys  map[int]string
		Matrix   [][]float64
		FloatKey map[float64]bool
		PtrSlice *[]int // mappable: a list with presence
		PtrMap   *map[string]int
	}
)

// Every field a format cannot take is one line naming it and the reason;
// fields one format takes fail only there.
func TestUnmappable(t *testing.T) {
	common := []string{".Any (interface {})", ".Ch (chan int)", ".Fn (func())", ".hidden (int)", ".Cplx (complex128)", ".PtrMap (*map[string]int)"}
	for _, tc := range []struct {
		f          derive.Format
		only, pass []string
	}{
		{derive.Proto, []string{".FloatKey{key} (float64)"}, []string{".IntKeys", ".Matrix"}},
		{derive.Avro, []string{".IntKeys{key} (int)", ".FloatKey{key} (float64)"}, []string{".Matrix"}},
		{derive.FlatBuffers, []string{".Matrix[] ([]float64)"}, []string{".IntKeys", ".FloatKey"}},
	} {
		_, err := derive.Derive(reflect.TypeFor[bad](), tc.f)
		var de *derive.Error
		if !errors.As(err, &de) {
			t.Fatalf("%s: error %v, want a *derive.Error", tc.f, err)
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != len(de.Fields) || len(lines) != len(common)+len(tc.only) {
			t.Errorf("%s: %d lines, %d fields, want %d:\n%s", tc.f, len(lines), len(de.Fields), len(common)+len(tc.only), err)
		}
		for _, want := range append(append([]string(nil), common...), tc.only...) {
			if !strings.Contains(err.Error(), want+": ") {
				t.Errorf("%s: no line for %s:\n%s", tc.f, want, err)
			}
		}
		for _, p := range append(tc.pass, ".OK", ".Skipped", ".PtrSlice") {
			if strings.Contains(err.Error(), p+" ") || strings.Contains(err.Error(), p+"{") || strings.Contains(err.Error(), p+"[") {
				t.Errorf("%s: %s is mappable, but the error names it:\n%s", tc.f, p, err)
			}
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "derive: "+string(tc.f)+": derive_test.bad: .") {
				t.Errorf("%s: line %q does not name the format, type and field", tc.f, l)
			}
		}
	}
	for _, v := range []any{0, "", []Order{}, time.Time{}} {
		if _, err := derive.DeriveProto(reflect.TypeOf(v)); err == nil || !strings.Contains(err.Error(), "not a struct") {
			t.Errorf("%T: %v, want an error saying it is not a struct", v, err)
		}
	}
	if _, err := derive.Derive(reflect.TypeFor[Order](), "xml"); !errors.Is(err, derive.ErrUnknownFormat) {
		t.Errorf("format xml: %v", err)
	}
}

// The losses are structured, one per lossy field and format.
func TestLosses(t *testing.T) {
	for _, tc := range []struct {
		f    derive.Format
		want map[string]string // path: a word of the loss
	}{
		{derive.Proto, map[string]string{".Audit.Updated": "time zone", ".Lines": "nil and empty", ".Labels": "nil and empty", ".Priority": "int8", ".Photo": "nil and empty", ".Checksum": "length", ".Lines[].Quantity": "int16"}},
		{derive.Avro, map[string]string{".Audit.Updated": "microsecond", ".TrackingID": "signed", ".Lines": "nil and empty", ".Labels": "nil and empty", ".Priority": "int8", ".Photo": "nil and empty", ".Lines[].Quantity": "int16"}},
		{derive.FlatBuffers, map[string]string{".Audit.Updated": "time zone", ".Checksum": "length"}},
	} {
		s, err := derive.Derive(reflect.TypeFor[Shipment](), tc.f)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, l := range s.Losses {
			if l.Format != tc.f || l.GoType == "" || l.Type == "" {
				t.Errorf("%s: incomplete loss %+v", tc.f, l)
			}
			got[l.Path] = l.Lost
		}
		for p, w := range tc.want {
			if !strings.Contains(got[p], w) {
				t.Errorf("%s: loss at %s = %q, want it to mention %q", tc.f, p, got[p], w)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: losses at %v, want %d", tc.f, got, len(tc.want))
		}
	}
}

func TestLossAt(t *testing.T) {
	s, err := derive.Derive(reflect.TypeFor[Shipment](), derive.Proto)
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		".Audit.Updated":       ".Audit.Updated",
		".Lines":               ".Lines",
		".Lines[3].Quantity":   ".Lines[].Quantity",
		`.Labels["a]\"b"]`:     "",
		".Photo[0]":            "",
		".Status":              "",
		".Lines[1].SKU":        "",
		".Audit.UpdatedBefore": "",
	} {
		l, ok := s.LossAt(path)
		if ok != (want != "") || l.Path != want {
			t.Errorf("LossAt(%s) = %q %v, want %q", path, l.Path, ok, want)
		}
	}
}

// A map key in a path, even one holding "]" or a quote, is the map's
// values' field.
func TestLossAtMapKey(t *testing.T) {
	s, err := derive.Derive(reflect.TypeFor[struct{ M map[string]*Line }](), derive.Proto)
	if err != nil {
		t.Fatal(err)
	}
	if l, ok := s.LossAt(`.M["a]\"b"]`); !ok || l.Path != ".M{}" || !strings.Contains(l.Lost, "nil element") {
		t.Errorf("LossAt = %+v %v, want the nil element loss at .M{}", l, ok)
	}
}
