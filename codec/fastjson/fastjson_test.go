package fastjson_test

import (
	"testing"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/fastjson"
	"github.com/serbench/serbench/internal/codectest"
)

func TestTree(t *testing.T) { codectest.ParseTree(t, fastjson.New()) }

func TestInfo(t *testing.T) {
	i := fastjson.New().Info()
	if !i.ParseOnly || i.Kind != codec.Parser || i.Format != "JSON" || i.Time == "" {
		t.Errorf("Info = %+v", i)
	}
}
