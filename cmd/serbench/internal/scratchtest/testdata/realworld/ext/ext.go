// Package ext holds a library type the user cannot change, with fields no
// schema can map: serbench init -type Extended.
package ext

// Extended has an open-ended extension field and an optional list.
type Extended struct {
	ID         string      `json:"id"`
	Extensions interface{} `json:"extensions,omitempty"`
	Aliases    *[]string   `json:"aliases,omitempty"`
}
