// Package tree holds a recursive type: serbench init -type Node.
package tree

// Node is a tree of named values.
type Node struct {
	Name     string            `json:"name"`
	Value    float64           `json:"value"`
	Attrs    map[string]string `json:"attrs,omitempty"`
	Children []*Node           `json:"children,omitempty"`
	Link     *Node             `json:"link,omitempty"`
}
