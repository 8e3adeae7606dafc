package sse

import (
	"net/http"
	"testing"
)

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		values []string
		want   bool
	}{
		{nil, false},
		{[]string{"gzip"}, true},
		{[]string{"br, GZIP;q=0.5"}, true},
		{[]string{"deflate", "x-gzip"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"*"}, true},
		{[]string{"*;q=0"}, false},
		{[]string{"gzip;q=0, *"}, false},
		{[]string{"identity"}, false},
	} {
		h := http.Header{"Accept-Encoding": tc.values}
		if got := acceptsGzip(h); got != tc.want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", tc.values, got, tc.want)
		}
	}
}
