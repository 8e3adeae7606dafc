//go:build !goexperiment.jsonv2 || !go1.27

package stdjsonv2

import "github.com/serbench/serbench/codec"

const available = false

// Codecs returns nothing: this build has no encoding/json/v2 (see Absent).
func Codecs() []codec.Codec { return nil }
