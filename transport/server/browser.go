package server

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/protobuf"
	"github.com/serbench/serbench/codec/protobuf/pb"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

// static holds the demo page's script and the vendored JavaScript decoders
// (static/vendor/README.md names their packages, versions and licenses).
//
//go:embed static
var static embed.FS

// Decoders of the demo page, by codec.Info.Format: the JavaScript that
// decodes each wire format in the browser (static/page.js).
var browserDecoders = map[string]string{
	"JSON":             "json",     // JSON.parse
	"MessagePack":      "msgpack",  // @msgpack/msgpack
	"CBOR":             "cbor",     // cbor-x
	"Protocol Buffers": "protobuf", // protobufjs (light build) with /browser/proto.json
}

// BrowserCodec is one codec as the demo page sees it: whether and how it
// decodes the codec's messages for one scenario.
type BrowserCodec struct {
	ID     string `json:"id"`
	Format string `json:"format"`
	Binary bool   `json:"binary"`
	// Decoder is "json", "msgpack", "cbor" or "protobuf"; "" when the page
	// cannot decode the codec (Reason says why).
	Decoder string `json:"decoder,omitempty"`
	// ProtoType is the full name of the Protocol Buffers message for the
	// scenario (decoder "protobuf"), such as "serbench.SSEEvent".
	ProtoType string `json:"proto_type,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// BrowserCodecs lists every codec of rv for scenario s with the decoder the
// demo page uses for it. A codec that cannot encode s, a reference row, a
// Protocol Buffers codec whose messages are not those of
// schema/proto/serbench.proto (a reflection library's), or a format
// without a JavaScript decoder here gets no Decoder and a Reason.
func BrowserCodecs(rv transport.Resolver, s scenario.Scenario) []BrowserCodec {
	var out []BrowserCodec
	for _, id := range rv.Codecs.IDs() {
		cs, err := rv.Codecs.Select([]string{id})
		if err != nil {
			continue // IDs come from the registry itself
		}
		info := cs[0].Info()
		bc := BrowserCodec{ID: id, Format: info.Format, Binary: info.Binary}
		dec, ok := browserDecoders[info.Format]
		switch {
		case info.Kind == codec.Reference:
			bc.Reason = "a reference row, not a codec"
		case info.ParseOnly:
			bc.Reason = "a parse-only row: it has no marshal, so no server sends it"
		case strings.HasSuffix(id, "/array"):
			// By the ID convention of docs/reference.md, "/array" variants
			// write structs as arrays of field values in Go field order.
			bc.Reason = "structs as arrays: the page has no schema to name their fields"
		case !ok:
			bc.Reason = "no JavaScript decoder for " + info.Format + " on this page"
		case dec == "protobuf" && info.Kind != codec.Codegen:
			// The page decodes with schema/proto/serbench.proto; a
			// reflection library maps Go types to field types its own way
			// (dedis-protobuf: int64 as sint64).
			bc.Reason = "Protocol Buffers by reflection, with its own field types: not the messages of schema/proto/serbench.proto, the page's schema"
		default:
			if _, err := cs[0].Bind(s.Value()); err != nil {
				bc.Reason = err.Error()
				break
			}
			bc.Decoder = dec
			if dec == "protobuf" {
				name, err := protoTypeName(s)
				if err != nil {
					bc.Decoder, bc.Reason = "", err.Error()
					break
				}
				bc.ProtoType = name
			}
		}
		out = append(out, bc)
	}
	return out
}

// protoTypeName is the full name of the message of schema/proto/serbench.proto
// that the protobuf codec encodes s's value as.
func protoTypeName(s scenario.Scenario) (string, error) {
	b, err := protobuf.New().Bind(s.Value())
	if err != nil {
		return "", err
	}
	conv, ok := b.(codec.Converter)
	if !ok {
		return "", fmt.Errorf("server: protobuf binding for %s has no generated type", s.ID)
	}
	native, err := conv.ToNative(s.Value())
	if err != nil {
		return "", fmt.Errorf("server: convert %s for protobuf: %w", s.ID, err)
	}
	m, ok := native.(proto.Message)
	if !ok {
		return "", fmt.Errorf("server: protobuf's type %T for %s is not a proto.Message", native, s.ID)
	}
	return string(m.ProtoReflect().Descriptor().FullName()), nil
}

// browserCodecs serves GET /browser/codecs?scenario=ID: the scenario IDs
// and BrowserCodecs as JSON, for the demo page.
func (s *Server) browserCodecs(w http.ResponseWriter, r *http.Request) {
	rv := s.opts.Resolver
	id := r.URL.Query().Get("scenario")
	if id == "" {
		id = "sse-event"
	}
	ss, err := scenario.Select(rv.Scenarios, []string{id})
	if err != nil {
		http.Error(w, "server: "+err.Error(), http.StatusBadRequest)
		return
	}
	ids := make([]string, len(rv.Scenarios))
	for i, sc := range rv.Scenarios {
		ids[i] = sc.ID
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(struct {
		Scenario  string         `json:"scenario"`
		Scenarios []string       `json:"scenarios"`
		Codecs    []BrowserCodec `json:"codecs"`
	}{ss[0].ID, ids, BrowserCodecs(rv, ss[0])})
}

// protoJSON serves GET /browser/proto.json: schema/proto/serbench.proto as
// a protobufjs JSON descriptor (ProtobufJSDescriptor).
func (s *Server) protoJSON(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(s.protoDesc)
}

// staticHandler serves the embedded static folder under /static/.
func staticHandler() (http.Handler, error) {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		return nil, fmt.Errorf("server: embedded static files: %w", err)
	}
	return isolated(http.StripPrefix("/static/", http.FileServerFS(sub))), nil
}

// isolated makes h's pages cross-origin isolated (the HTML Living Standard,
// "Cross-origin opener policies" and "Cross-origin embedder policies"): a
// page loading only same-origin resources loses nothing, and browsers give
// it a finer performance.now() (Chromium: 5µs instead of 100µs), which the
// demo page's decode timings use.
func isolated(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		h.ServeHTTP(w, r)
	})
}

// mountBrowser adds the demo page's endpoints to s.mux.
func (s *Server) mountBrowser() error {
	st, err := staticHandler()
	if err != nil {
		return err
	}
	s.protoDesc, err = ProtobufJSDescriptor((&pb.SSEEvent{}).ProtoReflect().Descriptor().ParentFile())
	if err != nil {
		return err
	}
	s.mux.Handle("GET /static/", st)
	s.mux.HandleFunc("GET /browser/codecs", s.browserCodecs)
	s.mux.HandleFunc("GET /browser/proto.json", s.protoJSON)
	return nil
}
