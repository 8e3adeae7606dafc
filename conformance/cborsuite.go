package conformance

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fxamacker/cbor/v2"

	cborcodec "github.com/serbench/serbench/codec/cbor"

	"github.com/serbench/serbench/codec"
)

// cborCase is one test of a cbor-wg-test-vectors file.
type cborCase struct {
	name      string // "rfc8949-appendixA/mt0#3 description"
	encoded   []byte // nil when the test has none
	decoded   *item  // the expected value; nil when the test has none
	fail      bool   // decoding (or encoding) must fail
	roundtrip bool   // encoding the value must give encoded back
}

func loadCBORCases() ([]cborCase, error) {
	var files []string
	err := fs.WalkDir(suites, cborDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".cbor") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("conformance: cbor-wg: %w", err)
	}
	slices.Sort(files)
	var cases []cborCase
	for _, f := range files {
		data, err := fs.ReadFile(suites, f)
		if err != nil {
			return nil, fmt.Errorf("conformance: cbor-wg: %w", err)
		}
		doc, rest, err := readItem(data, 0)
		if err == nil && len(rest) > 0 {
			err = fmt.Errorf("%d bytes after the document", len(rest))
		}
		if err != nil {
			return nil, fmt.Errorf("conformance: cbor-wg: %s: %w", f, err)
		}
		tests := doc.mapMember("tests")
		if tests == nil || tests.major != 4 {
			return nil, fmt.Errorf("conformance: cbor-wg: %s: no array of tests", f)
		}
		fileFail := doc.mapMember("fail").boolean(false)
		name := strings.TrimSuffix(strings.TrimPrefix(f, cborDir+"/"), ".cbor")
		for i, t := range tests.kids {
			c := cborCase{
				name:      fmt.Sprintf("%s#%d", name, i),
				decoded:   t.mapMember("decoded"),
				fail:      t.mapMember("fail").boolean(fileFail),
				roundtrip: t.mapMember("roundtrip").boolean(true),
			}
			if d := t.mapMember("description"); d != nil && d.major == 3 {
				c.name += " " + string(d.str)
			}
			if e := t.mapMember("encoded"); e != nil && e.major == 2 {
				c.encoded = e.str
			}
			cases = append(cases, c)
		}
	}
	return cases, nil
}

// cborModes are the modes the suite runs: the cbor row's own decoder
// (cborcodec.DecOptions), and its encoder (cborcodec.EncOptions) with the
// rules of Core Deterministic Encoding (RFC 8949, section 4.2.1: sorted map
// keys, shortest floats, NaN and infinities as half floats, no
// indefinite lengths) set on top, which the row's encoder does not follow.
func cborModes() (cbor.DecMode, cbor.EncMode, error) {
	dm, err := cborcodec.DecOptions().DecMode()
	if err != nil {
		return nil, nil, fmt.Errorf("conformance: cbor: %w", err)
	}
	eo, det := cborcodec.EncOptions(), cbor.CoreDetEncOptions()
	eo.Sort, eo.ShortestFloat, eo.NaNConvert, eo.InfConvert, eo.IndefLength = det.Sort, det.ShortestFloat, det.NaNConvert, det.InfConvert, det.IndefLength
	em, err := eo.EncMode()
	if err != nil {
		return nil, nil, fmt.Errorf("conformance: cbor: %w", err)
	}
	return dm, em, nil
}

// runCBOR runs cbor-wg-test-vectors against the cbor codec of cs.
func runCBOR(ctx context.Context, cs []codec.Codec) ([]Row, error) {
	var rows []Row
	for _, c := range cs {
		if c.Info().ID != "cbor" {
			continue
		}
		cases, err := loadCBORCases()
		if err != nil {
			return nil, err
		}
		dm, em, err := cborModes()
		if err != nil {
			return nil, err
		}
		row := Row{Suite: SuiteCBOR, Codec: c.Info().ID}
		dec := Check{Name: "valid decoded"}
		val := Check{Name: "value as expected"}
		bad := Check{Name: "invalid rejected"}
		re := Check{Name: "canonical re-encode"}
		unchecked := 0
		for _, cc := range cases {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("conformance: %w", err)
			}
			if cc.encoded == nil {
				unchecked++ // a test that only says encoding a value must fail
				continue
			}
			var v any
			err := guard(func() error { return dm.Unmarshal(cc.encoded, &v) })
			if cc.fail {
				bad.Total++
				if err != nil && !isPanic(err) {
					bad.Passed++
				} else {
					detail := "accepted as " + short(diagValue(v), 120)
					if err != nil {
						detail = short(err.Error(), 160)
					}
					row.Misses = append(row.Misses, Case{Name: cc.name, Check: bad.Name, Detail: detail, Panic: isPanic(err)})
				}
				continue
			}
			dec.Total++
			if err != nil {
				row.Misses = append(row.Misses, Case{Name: cc.name, Check: dec.Name, Detail: fmt.Sprintf("%s (input %s)", short(err.Error(), 160), short(fmt.Sprintf("%x", cc.encoded), 40)), Panic: isPanic(err)})
				continue
			}
			dec.Passed++
			if cc.decoded != nil {
				val.Total++
				if want, got := cc.decoded.diag(), diagValue(v); want == got {
					val.Passed++
				} else {
					row.Misses = append(row.Misses, Case{Name: cc.name, Check: val.Name, Detail: fmt.Sprintf("%x: want %s, got %s (%T)", cc.encoded, short(want, 80), short(got, 80), v)})
				}
			}
			if cc.roundtrip {
				re.Total++
				var out []byte
				err := guard(func() (err error) { out, err = em.Marshal(v); return err })
				switch {
				case err != nil:
					row.Misses = append(row.Misses, Case{Name: cc.name, Check: re.Name, Detail: short(err.Error(), 160), Panic: isPanic(err)})
				case !bytes.Equal(out, cc.encoded):
					row.Misses = append(row.Misses, Case{Name: cc.name, Check: re.Name, Detail: fmt.Sprintf("want %x, got %x", cc.encoded, out)})
				default:
					re.Passed++
				}
			}
		}
		row.Method = "the cbor row's DecOptions (DefaultMapType=map[string]any, MaxNestedLevels=256), Unmarshal into *any; expected values read from the vectors by the harness's own CBOR reader; " +
			"re-encoding with the cbor row's EncOptions (Time=TimeRFC3339Nano) plus the Core Deterministic Encoding rules of CoreDetEncOptions"
		if unchecked > 0 {
			row.Method += fmt.Sprintf("; %d vectors not checked: they give only a value whose encoding must fail, which an untyped Go value cannot express", unchecked)
		}
		row.Checks = []Check{dec, val, bad, re}
		rows = append(rows, row)
	}
	return rows, nil
}

// diagValue writes a value decoded by the library in the form item.diag
// writes the expected one.
func diagValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case uint64:
		return strconv.FormatUint(v, 10)
	case int64:
		return strconv.FormatInt(v, 10)
	case big.Int:
		return v.String()
	case *big.Int:
		return v.String()
	case float64:
		return diagFloat(v)
	case float32:
		return diagFloat(float64(v))
	case []byte:
		return fmt.Sprintf("h'%x'", v)
	case cbor.ByteString:
		return fmt.Sprintf("h'%x'", string(v))
	case string:
		return strconv.Quote(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = diagValue(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[any]any:
		var parts []string
		for k, e := range v {
			parts = append(parts, diagValue(k)+": "+diagValue(e))
		}
		return diagMap(parts)
	case map[string]any: // the cbor row's DefaultMapType
		var parts []string
		for k, e := range v {
			parts = append(parts, diagValue(k)+": "+diagValue(e))
		}
		return diagMap(parts)
	case cbor.Tag:
		return fmt.Sprintf("%d(%s)", v.Number, diagValue(v.Content))
	case cbor.SimpleValue:
		return fmt.Sprintf("simple(%d)", v)
	case time.Time:
		return diagTime(v)
	}
	return fmt.Sprintf("?%T(%v)", v, v)
}

func sortStrings(s []string) { slices.Sort(s) }
