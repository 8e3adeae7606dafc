package codec_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/scenario"
)

func TestRefusing(t *testing.T) {
	c := codec.Refusing{
		Codec: codec.Funcs{Meta: codec.Info{ID: "refuser"}, Marshal: json.Marshal, Unmarshal: json.Unmarshal},
		Refuse: func(t reflect.Type) string {
			if codec.HoldsKind(t, reflect.Interface) {
				return "holds interfaces"
			}
			return ""
		},
	}
	var v any
	_, err := c.Bind(&v)
	if !errors.Is(err, codec.ErrUnsupported) || !strings.Contains(err.Error(), "refuser: not supported: *interface {} holds interfaces") {
		t.Errorf("Bind(*any): err = %v", err)
	}
	if _, err := codec.RoundTrip(c, scenario.NewWSMessage()); err != nil {
		t.Errorf("Bind(*WSMessage) refused or failed: %v", err)
	}
	if _, err := c.Bind(nil); err == nil {
		t.Error("Bind(nil) accepted")
	}
}
