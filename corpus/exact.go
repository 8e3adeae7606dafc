package corpus

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/serbench/serbench/scenario"
)

// The kinds of SourceLoss that decodeExact reports, in the order it lists
// them.
const (
	LossBigInteger = "integer above 2^53 rounded"
	LossDigits     = "number rounded to float64 precision"
	LossRange      = "number beyond float64's range, file refused"
	LossDuplicate  = "duplicate key, earlier values dropped"
	LossUTF8       = "invalid UTF-8 replaced by U+FFFD"
	LossSurrogate  = "lone surrogate escape replaced by U+FFFD"
)

var lossOrder = []string{LossBigInteger, LossDigits, LossRange, LossDuplicate, LossUTF8, LossSurrogate}

// maxShown caps SourceLoss.Text and .Decoded, in bytes.
const maxShown = 100

// exactDecoder builds the exact value of one document (see the package doc)
// and records what encoding/json into any would change on the way.
type exactDecoder struct {
	dec    *jsontext.Decoder
	data   []byte
	path   []any // keys (string) and indexes (int) from the root
	losses map[string]*scenario.SourceLoss
}

// decodeExact decodes data, one JSON document, into its exact value: nil,
// bool, string (bytes as in the file, invalid UTF-8 included), int64, uint64,
// float64, json.Number, []any and map[string]any. It returns what
// encoding/json into any loses, one SourceLoss per kind in lossOrder.
// Errors give the byte offset, line and column of invalid JSON.
// errDataAfterValue is wrapped by decodeExact's error for a document with
// more than one top-level value (perhaps a JSON Lines file).
var errDataAfterValue = errors.New("data after the JSON value")

func decodeExact(data []byte) (any, []scenario.SourceLoss, error) {
	d := &exactDecoder{
		dec:    jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)),
		data:   data,
		losses: map[string]*scenario.SourceLoss{},
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil, errors.New("empty file: no JSON value")
	}
	v, err := d.value()
	if err != nil {
		return nil, nil, d.located(err)
	}
	if d.dec.PeekKind() != 0 {
		return nil, nil, fmt.Errorf("%w at %s", errDataAfterValue, d.position(d.dec.InputOffset()))
	}
	if _, err := d.dec.ReadToken(); err != io.EOF {
		return nil, nil, d.located(err)
	}
	var losses []scenario.SourceLoss
	for _, k := range lossOrder {
		if l := d.losses[k]; l != nil {
			losses = append(losses, *l)
		}
	}
	return v, losses, nil
}

// located adds the line and column to a syntax error's byte offset.
func (d *exactDecoder) located(err error) error {
	var se *jsontext.SyntacticError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at %s: %w", d.position(se.ByteOffset), err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		return fmt.Errorf("invalid JSON: the file ends inside a value at %s: %w", d.position(int64(len(d.data))), io.ErrUnexpectedEOF)
	}
	return err
}

// position writes a byte offset as "byte offset N (line L, column C)",
// lines and columns counted from 1, columns in bytes.
func (d *exactDecoder) position(off int64) string {
	off = min(max(off, 0), int64(len(d.data)))
	before := d.data[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := len(before) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("byte offset %d (line %d, column %d)", off, line, col)
}

func (d *exactDecoder) value() (any, error) {
	switch d.dec.PeekKind() {
	case '{':
		return d.object()
	case '[':
		return d.array()
	}
	raw, err := d.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	switch raw[0] {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case '"':
		return d.str(raw), nil
	}
	return d.number(string(raw)), nil
}

func (d *exactDecoder) object() (any, error) {
	if _, err := d.dec.ReadToken(); err != nil {
		return nil, err
	}
	m := map[string]any{}
	for d.dec.PeekKind() != '}' {
		raw, err := d.dec.ReadValue()
		if err != nil {
			return nil, err
		}
		k, keyText := d.str(raw), string(raw) // raw is valid until the next read only
		d.path = append(d.path, k)
		start := d.dec.InputOffset()
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		if earlier, dup := m[k]; dup {
			after := strings.TrimSpace(string(d.data[start:d.dec.InputOffset()]))
			text := showRaw([]byte(keyText)) + ": " + strings.TrimSpace(strings.TrimPrefix(after, ":"))
			d.lose(LossDuplicate, text, func() string { return decodedDuplicate(earlier, v) })
		}
		m[k] = v
		d.path = d.path[:len(d.path)-1]
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return nil, err
	}
	return m, nil
}

// decodedDuplicate says what encoding/json keeps of a key given twice: the
// last value.
func decodedDuplicate(earlier, last any) string {
	e, _ := json.Marshal(earlier)
	l, _ := json.Marshal(last)
	return fmt.Sprintf("%s (the last value; %s dropped)", cut(string(l)), cut(string(e)))
}

func (d *exactDecoder) array() (any, error) {
	if _, err := d.dec.ReadToken(); err != nil {
		return nil, err
	}
	a := []any{}
	for d.dec.PeekKind() != ']' {
		d.path = append(d.path, len(a))
		v, err := d.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		d.path = d.path[:len(d.path)-1]
	}
	if _, err := d.dec.ReadToken(); err != nil {
		return nil, err
	}
	return a, nil
}

// str unquotes a JSON string token, keeping bytes that are not valid UTF-8
// as they are. A lone surrogate escape, which no UTF-8 string can hold,
// becomes U+FFFD as in encoding/json. Both are recorded as losses.
func (d *exactDecoder) str(raw []byte) string {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 {
		if !utf8.Valid(body) {
			d.loseString(LossUTF8, raw)
		}
		return string(body)
	}
	var b strings.Builder
	b.Grow(len(body))
	badUTF8, lone := false, false
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			r, n := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && n == 1 {
				badUTF8 = true
			}
			b.Write(body[i : i+n])
			i += n
			continue
		}
		e := body[i+1]
		i += 2
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := hex4(body[i:])
			i += 4
			if utf16.IsSurrogate(r) {
				if r < 0xdc00 && i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
					if r2 := hex4(body[i+2:]); r2 >= 0xdc00 && r2 <= 0xdfff {
						b.WriteRune(utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				lone = true
				r = utf8.RuneError
			}
			b.WriteRune(r)
		default: // '"', '\\', '/': the validator allows no other escape
			b.WriteByte(e)
		}
	}
	if badUTF8 {
		d.loseString(LossUTF8, raw)
	}
	if lone {
		d.loseString(LossSurrogate, raw)
	}
	return b.String()
}

// hex4 decodes the four hexadecimal digits the validator checked.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			c -= 'A' - 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// loseString records a string loss, with what encoding/json makes of raw.
func (d *exactDecoder) loseString(kind string, raw []byte) {
	d.lose(kind, showRaw(raw), func() string { return decodedByStd(raw) })
}

// showRaw writes JSON text as it is in the file, bytes that are not valid
// UTF-8 as \xNN.
func showRaw(raw []byte) string {
	var b strings.Builder
	for len(raw) > 0 {
		r, n := utf8.DecodeRune(raw)
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, `\x%02x`, raw[0])
		} else {
			b.Write(raw[:n])
		}
		raw = raw[n:]
	}
	return b.String()
}

// number returns the exact value of a number token (see the package doc)
// and records the loss when encoding/json's float64 differs from it.
func (d *exactDecoder) number(raw string) any {
	v := exactNumber(raw)
	f, err := strconv.ParseFloat(raw, 64) // what encoding/json does for any
	switch {
	case err != nil:
		d.lose(LossRange, raw, func() string { return decodedByStd([]byte(raw)) })
	case !numbersEqual(v, f):
		kind := LossDigits
		if isIntegerText(raw) {
			kind = LossBigInteger
		}
		d.lose(kind, raw, func() string { return decodedNumber(raw) })
	}
	return v
}

// decodedNumber returns the float64 encoding/json into any makes of a
// number, written exactly when it is an integer (see formatFloat).
func decodedNumber(raw string) string {
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return "error: " + cut(err.Error())
	}
	if f, ok := v.(float64); ok {
		return formatFloat(f)
	}
	return fmt.Sprintf("%T %v", v, v)
}

// decodedByStd returns what encoding/json into any makes of one JSON value,
// written back as JSON, or its error.
func decodedByStd(raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "error: " + cut(err.Error())
	}
	out, err := json.Marshal(v)
	if err != nil {
		return "error: " + cut(err.Error())
	}
	return cut(string(out))
}

// lose counts one loss of kind at the current path; decoded is called only
// for the first.
func (d *exactDecoder) lose(kind, text string, decoded func() string) {
	if l := d.losses[kind]; l != nil {
		l.Count++
		return
	}
	d.losses[kind] = &scenario.SourceLoss{Kind: kind, Count: 1, Path: pathString(d.path), Text: cut(text), Decoded: decoded()}
}

// pathString writes a path as package fidelity does: ["a"][0]["b"].
func pathString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch p := p.(type) {
		case string:
			fmt.Fprintf(&b, "[%q]", p)
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		}
	}
	return b.String()
}

func cut(s string) string {
	if len(s) > maxShown {
		return s[:maxShown-3] + "..."
	}
	return s
}

// isIntegerText reports whether a valid JSON number has neither a fraction
// nor an exponent.
func isIntegerText(raw string) bool { return !strings.ContainsAny(raw, ".eE") }

// exactNumber returns the Go value that holds a valid JSON number exactly,
// as the package doc describes: int64, uint64, float64 or json.Number.
func exactNumber(raw string) any {
	if isIntegerText(raw) {
		if raw == "-0" {
			return math.Copysign(0, -1)
		}
		if i, err := strconv.ParseInt(raw, 10, 64); err == nil {
			return i
		}
		if u, err := strconv.ParseUint(raw, 10, 64); err == nil {
			return u
		}
		if f, err := strconv.ParseFloat(raw, 64); err == nil {
			if d, ok := parseDecimal(raw); ok && d.equal(exactDecimal(f)) {
				return f
			}
		}
		return json.Number(raw)
	}
	if f, err := strconv.ParseFloat(raw, 64); err == nil && floatHolds(raw, f) {
		return f
	}
	return json.Number(raw)
}

// floatHolds reports whether f, the float64 nearest to the JSON number raw
// (which has a fraction or an exponent), holds it: printed with as many
// significant digits as raw has, f gives raw's decimal value back. So 0.1
// and -65.613616999999977 are held; 1.00000000000000000001 is not.
func floatHolds(raw string, f float64) bool {
	d, ok := parseDecimal(raw)
	if !ok {
		return false
	}
	if d.digits == "" {
		return f == 0 && math.Signbit(f) == d.neg
	}
	if len(d.digits) > maxFloatDigits {
		return false
	}
	back, ok := parseDecimal(strconv.FormatFloat(f, 'e', len(d.digits)-1, 64))
	return ok && back.equal(d)
}

// maxFloatDigits bounds the significant digits of a decimal a float64 can
// hold exactly: the longest exact expansion of a float64 has 767.
const maxFloatDigits = 800

// decimal is a number as sign × digits × 10^exp, digits without leading
// or trailing zeros ("" for zero).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

func (a decimal) equal(b decimal) bool {
	return a.neg == b.neg && a.digits == b.digits && (a.digits == "" || a.exp == b.exp)
}

// parseDecimal parses a JSON number, or what strconv.FormatFloat writes.
// It returns false for a non-zero number whose exponent is beyond ±2^31.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	} else {
		s = strings.TrimPrefix(s, "+")
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	trimmed := strings.TrimRight(digits, "0")
	if trimmed == "" {
		return d, true // zero, whatever the exponent
	}
	d.digits = trimmed
	d.exp = len(digits) - len(trimmed) - len(frac)
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil || e > math.MaxInt32 || e < math.MinInt32 {
			return d, false
		}
		d.exp += e
	}
	return d, true
}

// exactDecimal returns the exact decimal value of a finite float64.
func exactDecimal(f float64) decimal {
	d, _ := parseDecimal(strconv.FormatFloat(f, 'e', maxFloatDigits, 64))
	return d
}
