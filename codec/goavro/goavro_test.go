package goavro_test

import (
	"strings"
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/goavro"
	"github.com/serbench/serbench/scenario"
)

// TestBadNatives checks that the Converter and Unmarshal report values
// that do not fit the schema as errors naming what was wrong, never as a
// panic or a silent zero.
func TestBadNatives(t *testing.T) {
	b, err := goavro.New().Bind(scenario.NewUserProfile())
	if err != nil {
		t.Fatal(err)
	}
	conv := b.(codec.Converter)
	native, err := conv.ToNative(scenario.NewUserProfile())
	if err != nil {
		t.Fatal(err)
	}
	m := native.(map[string]any)
	m["addresses"].([]any)[1].(map[string]any)["city"] = 7
	if _, err := conv.FromNative(m); err == nil || !strings.Contains(err.Error(), "addresses[1].city: want string, got int") {
		t.Errorf("FromNative with an int city: err = %v", err)
	}
	delete(m, "metadata")
	if _, err := b.Marshal(m); err == nil {
		t.Error("Marshal without a required field succeeded")
	}
	if _, err := conv.ToNative(scenario.NewWSMessage()); err == nil {
		t.Error("ToNative took a *WSMessage on a UserProfile binding")
	}
	if _, err := conv.FromNative("x"); err == nil {
		t.Error("FromNative took a string")
	}
	data, err := codec.Encode(b, scenario.NewUserProfile())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Unmarshal(append(data, 0)); err == nil || !strings.Contains(err.Error(), "1 bytes left") {
		t.Errorf("Unmarshal with a trailing byte: err = %v", err)
	}
	if _, err := goavro.New().Bind(new(any)); err == nil {
		t.Error("Bind(*any) succeeded without a schema")
	}
}
