// Package pick selects items by ID, the one way serbench resolves the
// codec, scenario and probe IDs a user names.
package pick

import (
	"fmt"
	"sort"
	"strings"
)

// ByID returns the items of all named by ids, in the order given; id gives
// an item's ID. Unknown IDs are one error that names them all and lists the
// valid IDs in sorted order: `unknown scenario "x" (valid: a, b)`, with what
// ("scenario") naming the kind of item.
func ByID[T any](all []T, id func(T) string, ids []string, what string) ([]T, error) {
	byID := make(map[string]T, len(all))
	for _, x := range all {
		byID[id(x)] = x
	}
	out := make([]T, 0, len(ids))
	var unknown []string
	for _, k := range ids {
		x, ok := byID[k]
		if !ok {
			unknown = append(unknown, fmt.Sprintf("%q", k))
			continue
		}
		out = append(out, x)
	}
	if len(unknown) > 0 {
		valid := make([]string, 0, len(all))
		for _, x := range all {
			valid = append(valid, id(x))
		}
		sort.Strings(valid)
		return nil, fmt.Errorf("unknown %s %s (valid: %s)", what, strings.Join(unknown, ", "), strings.Join(valid, ", "))
	}
	return out, nil
}
