package conformance

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/serbench/serbench/codec"
)

// jsonCase is one file of JSONTestSuite's test_parsing.
type jsonCase struct {
	name string
	data []byte
}

func loadJSONCases() ([]jsonCase, error) {
	entries, err := fs.ReadDir(suites, jsonDir)
	if err != nil {
		return nil, fmt.Errorf("conformance: JSONTestSuite: %w", err)
	}
	var cases []jsonCase
	for _, e := range entries { // ReadDir sorts by name
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		data, err := fs.ReadFile(suites, path.Join(jsonDir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("conformance: JSONTestSuite: %w", err)
		}
		cases = append(cases, jsonCase{e.Name(), data})
	}
	return cases, nil
}

// runJSON runs JSONTestSuite against every codec of cs whose format is JSON.
func runJSON(ctx context.Context, cs []codec.Codec) ([]Row, error) {
	cases, err := loadJSONCases()
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, c := range cs {
		info := c.Info()
		if info.Format != "JSON" {
			continue
		}
		row := Row{Suite: SuiteJSON, Codec: info.ID}
		decode, method, na := jsonDecoder(c)
		if na != "" {
			row.NA = na
			rows = append(rows, row)
			continue
		}
		row.Method = method
		y := Check{Name: "y accepted"}
		n := Check{Name: "n rejected"}
		i := Check{Name: "i accepted", Informative: true}
		for _, jc := range cases {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("conformance: %w", err)
			}
			err := guard(func() error { return decode(jc.data) })
			panicked := errors.Is(err, errPanic)
			switch jc.name[0] {
			case 'y':
				y.Total++
				if err == nil {
					y.Passed++
				} else {
					row.Misses = append(row.Misses, Case{Name: jc.name, Check: y.Name, Detail: "rejected: " + short(err.Error(), 160), Panic: panicked})
				}
			case 'n':
				n.Total++
				if err != nil && !panicked {
					n.Passed++
				} else {
					detail := "accepted"
					if panicked {
						detail = short(err.Error(), 160)
					}
					row.Misses = append(row.Misses, Case{Name: jc.name, Check: n.Name, Detail: detail, Panic: panicked})
				}
			case 'i':
				i.Total++
				detail := "accepted"
				if err == nil {
					i.Passed++
				} else {
					detail = "rejected: " + short(err.Error(), 160)
				}
				row.Outcomes = append(row.Outcomes, Case{Name: jc.name, Check: i.Name, Detail: detail, Panic: panicked})
			}
		}
		row.Checks = []Check{y, n, i}
		rows = append(rows, row)
	}
	return rows, nil
}

// jsonDecoder returns how to decode a JSON document untyped with c, or why
// c cannot.
func jsonDecoder(c codec.Codec) (decode func([]byte) error, method, na string) {
	if u, ok := untyped(c); ok {
		if u.NA != "" || u.Decode == nil {
			return nil, "", u.NA
		}
		return func(data []byte) error {
			_, err := u.Decode(data)
			return err
		}, u.Method, ""
	}
	b, err := c.Bind(new(any))
	if err != nil {
		return nil, "", fmt.Sprintf("cannot bind to *any: %v", err)
	}
	return func(data []byte) error {
		_, err := b.Unmarshal(data)
		return err
	}, "the codec's Unmarshal into *any", ""
}
