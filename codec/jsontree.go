package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// JSONTree decodes data, one JSON text, with encoding/json into a tree of
// map[string]any, []any, string, bool and nil, with every number as
// ParseJSONNumber gives it (so integers above 2^53 stay exact). It is the
// reference a parse-only codec's DOM (see DOM) is compared with. Errors:
// invalid JSON, trailing data, or a number ParseJSONNumber rejects.
func JSONTree(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("codec: JSON tree: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("codec: JSON tree: data after the top-level value")
	}
	return numbers(v)
}

// numbers replaces every json.Number in v by ParseJSONNumber's value.
func numbers(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return ParseJSONNumber(string(x))
	case map[string]any:
		for k, e := range x {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			x[k] = n
		}
	case []any:
		for i, e := range x {
			n, err := numbers(e)
			if err != nil {
				return nil, err
			}
			x[i] = n
		}
	}
	return v, nil
}

// ParseJSONNumber returns the JSON number text s as an int64 when it is an
// integer in int64's range, else as a uint64 when it is one in uint64's,
// else as a float64 (the nearest, as strconv.ParseFloat rounds). An error
// names s when it is not a number or overflows float64.
func ParseJSONNumber(s string) (any, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil, fmt.Errorf("codec: JSON number %q: %w", s, err)
	}
	return f, nil
}
