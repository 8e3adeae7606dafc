// Package httpapi serves every scenario as a request/response HTTP API
// through three server stacks, so that a codec can be measured where users
// meet it: inside a web framework.
//
//	GET  /api/{framework}/{scenario}[?codec=ID]  the scenario value, encoded
//	POST /api/{framework}/{scenario}[?codec=ID]  decodes the body into the
//	                                             scenario's Go type and
//	                                             answers with it re-encoded
//	GET  /api/stats                              JSON Stats of the process
//
// {framework} is "gin" (github.com/gin-gonic/gin), "echo"
// (github.com/labstack/echo/v4) or "http" (net/http alone). The codec is
// chosen per request: codec=ID in the query wins; otherwise a POST's
// Content-Type or a GET's Accept names a media type, and the first one
// listed that MediaCodecs knows picks its codec (application/json:
// encoding/json, application/x-protobuf: protobuf, application/msgpack:
// msgpack, application/cbor: cbor); no header or */* means encoding/json.
// A response carries the codec's media type (ContentType) and its ID in
// the X-Serbench-Codec header.
//
// The codecs plug in the way users plug them into each framework:
//   - Gin: a render.Render (Context.Render) and a binding.BindingBody
//     (Context.ShouldBindWith) built on the codec, for JSON and binary
//     codecs alike; gin's own JSON package is chosen by build tags, at
//     compile time, so a per-request codec needs these two hooks.
//   - Echo: an echo.JSONSerializer that encodes and decodes with the
//     request's codec, used through Context.JSON and Context.Bind for JSON
//     codecs; binary codecs answer with Context.Blob under their media type.
//   - net/http: the handler encodes and decodes with the codec directly.
//
// Errors are plain text starting "httpapi: ": 400 for an unknown scenario
// or codec, a codec that cannot carry the scenario, or a body that does
// not decode; 406 and 415 for media types no codec has; 413 for a body
// over Options.MaxBodyBytes.
package httpapi

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/transport"
)

// Frameworks are the {framework} path segments, in the order reports list them.
var Frameworks = []string{"gin", "echo", "http"}

// MediaCodecs maps a request media type (Accept or Content-Type, without
// parameters) to the codec it selects when the query names none.
var MediaCodecs = map[string]string{
	"application/json":        "encoding/json",
	"application/x-protobuf":  "protobuf",
	"application/protobuf":    "protobuf",
	"application/msgpack":     "msgpack",
	"application/x-msgpack":   "msgpack",
	"application/vnd.msgpack": "msgpack",
	"application/cbor":        "cbor",
}

// DefaultCodec serves requests that name no codec and no media type.
const DefaultCodec = "encoding/json"

// ContentType returns the media type a response encoded with a codec of
// format f (codec.Info.Format) carries: application/json, application/msgpack,
// application/cbor, application/x-protobuf, or application/octet-stream for
// the others (gob, FlatBuffers, serbench wire).
func ContentType(format string) string {
	switch format {
	case "JSON":
		return "application/json"
	case "MessagePack":
		return "application/msgpack"
	case "CBOR":
		return "application/cbor"
	case "Protocol Buffers":
		return "application/x-protobuf"
	}
	return "application/octet-stream"
}

// Options configure an API. The zero value means defaults.
type Options struct {
	// Resolver finds codecs and scenarios. Defaults: codec/all and scenario.Seeds.
	Resolver transport.Resolver
	// MaxBodyBytes caps a POST body. Default DefaultMaxBodyBytes; range [1, 1 GiB].
	MaxBodyBytes int64
}

// DefaultMaxBodyBytes is Options.MaxBodyBytes' default: 8 MiB.
const DefaultMaxBodyBytes = 8 << 20

// API is the handler of /api/: Gin, Echo and net/http side by side.
type API struct {
	opts  Options
	gin   *gin.Engine
	echo  *echo.Echo
	plain *http.ServeMux
	stats stats

	mu      sync.Mutex
	entries map[[2]string]*entry
}

var _ http.Handler = (*API)(nil)

// New validates opts and builds the three stacks. It sets gin's global
// mode to release, which stops gin printing its routes.
func New(opts Options) (*API, error) {
	if opts.Resolver.Codecs == nil {
		opts.Resolver.Codecs = all.Registry()
	}
	if opts.Resolver.Scenarios == nil {
		opts.Resolver.Scenarios = scenario.Seeds()
	}
	if opts.MaxBodyBytes == 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxBodyBytes < 1 || opts.MaxBodyBytes > 1<<30 {
		return nil, fmt.Errorf("httpapi: invalid MaxBodyBytes %d (range is [1, 1073741824])", opts.MaxBodyBytes)
	}
	a := &API{opts: opts, entries: map[[2]string]*entry{}}
	a.gin = newGin(a)
	a.echo = newEcho(a)
	a.plain = newPlain(a)
	return a, nil
}

// ServeHTTP implements http.Handler for paths under /api/.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, _ := strings.CutPrefix(r.URL.Path, "/api/")
	fw, _, _ := strings.Cut(rest, "/")
	switch fw {
	case "gin":
		a.gin.ServeHTTP(w, r)
	case "echo":
		a.echo.ServeHTTP(w, r)
	default:
		a.plain.ServeHTTP(w, r)
	}
}

// Errors an API answers with, by HTTP status.
var (
	errBadRequest  = errors.New("bad request")
	errNotAccepted = errors.New("no codec for the Accept header")
	errMediaType   = errors.New("unsupported Content-Type")
	errTooLarge    = errors.New("body too large")
)

func status(err error) int {
	switch {
	case errors.Is(err, errNotAccepted):
		return http.StatusNotAcceptable
	case errors.Is(err, errMediaType):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, errTooLarge):
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}

// entry is one (scenario, codec) pair with a pool of Bindings: a Binding
// serves one goroutine at a time.
type entry struct {
	sc    scenario.Scenario
	c     codec.Codec
	ctype string
	typ   reflect.Type // the scenario value's type, a pointer
	pool  sync.Pool
}

// resolve picks the entry of a request: scenario from the path, codec from
// the query or the media type header (Content-Type for POST, Accept
// otherwise).
func (a *API) resolve(r *http.Request, scenarioID string) (*entry, error) {
	id := r.URL.Query().Get("codec")
	if id == "" {
		var err error
		if id, err = negotiate(r); err != nil {
			return nil, err
		}
	}
	key := [2]string{scenarioID, id}
	a.mu.Lock()
	defer a.mu.Unlock()
	if e := a.entries[key]; e != nil {
		return e, nil
	}
	ss, err := scenario.Select(a.opts.Resolver.Scenarios, []string{scenarioID})
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w: %v", errBadRequest, err)
	}
	cs, err := a.opts.Resolver.Codecs.Select([]string{id})
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w: %v", errBadRequest, err)
	}
	c, sc := cs[0], ss[0]
	info := c.Info()
	if info.Kind == codec.Reference || info.ReusesOutput {
		return nil, fmt.Errorf("httpapi: %w: codec %q owns the values it returns (or is a reference row) and is not served over HTTP", errBadRequest, id)
	}
	b, err := c.Bind(sc.Value())
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w: codec %q cannot carry scenario %q: %v", errBadRequest, id, scenarioID, err)
	}
	e := &entry{sc: sc, c: c, ctype: ContentType(info.Format), typ: reflect.TypeOf(sc.Value())}
	e.pool.New = func() any {
		b, _ := c.Bind(sc.Value()) // bound once above without error
		return b
	}
	e.pool.Put(b)
	a.entries[key] = e
	return e, nil
}

// negotiate returns the codec the request's media type header selects.
func negotiate(r *http.Request) (string, error) {
	if r.Method == http.MethodPost {
		ct := r.Header.Get("Content-Type")
		if ct == "" {
			return DefaultCodec, nil
		}
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil {
			return "", fmt.Errorf("httpapi: %w %q: %v", errMediaType, ct, err)
		}
		if id, ok := MediaCodecs[mt]; ok {
			return id, nil
		}
		return "", fmt.Errorf("httpapi: %w %q (known: %s; or name one with codec=ID)", errMediaType, ct, mediaTypes())
	}
	accept := r.Header.Get("Accept")
	if accept == "" {
		return DefaultCodec, nil
	}
	for part := range strings.SplitSeq(accept, ",") {
		mt, _, _ := strings.Cut(part, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
		if id, ok := MediaCodecs[mt]; ok {
			return id, nil
		}
		if mt == "*/*" || mt == "application/*" {
			return DefaultCodec, nil
		}
	}
	return "", fmt.Errorf("httpapi: %w %q (known: %s; or name one with codec=ID)", errNotAccepted, accept, mediaTypes())
}

func mediaTypes() string {
	return strings.Join(slices.Sorted(maps.Keys(MediaCodecs)), ", ")
}

// encode marshals v, a value of the scenario's type, and hands the bytes to
// write before the Binding goes back to the pool.
func (e *entry) encode(v any, write func([]byte) error) error {
	b := e.pool.Get().(codec.Binding)
	defer e.pool.Put(b)
	data, err := codec.Encode(b, v)
	if err != nil {
		return fmt.Errorf("httpapi: %s: %w", e.c.Info().ID, err)
	}
	return write(data)
}

// decodeInto decodes data and stores the value in dst, a pointer of the
// scenario's type.
func (e *entry) decodeInto(data []byte, dst any) error {
	dv := reflect.ValueOf(dst)
	if dv.Type() != e.typ || dv.IsNil() {
		return fmt.Errorf("httpapi: decode into %T, want %v", dst, e.typ)
	}
	b := e.pool.Get().(codec.Binding)
	defer e.pool.Put(b)
	out, err := b.Unmarshal(data)
	if err == nil {
		out, err = codec.Value(b, out)
	}
	if err != nil {
		return fmt.Errorf("httpapi: %w: decode %d-byte body with %s: %v", errBadRequest, len(data), e.c.Info().ID, err)
	}
	ov := reflect.ValueOf(out)
	if ov.Type() != e.typ {
		return fmt.Errorf("httpapi: %s decoded a %T, want %v", e.c.Info().ID, out, e.typ)
	}
	dv.Elem().Set(ov.Elem())
	return nil
}

// newValue returns a new zero value of the scenario's type (a pointer).
func (e *entry) newValue() any { return reflect.New(e.typ.Elem()).Interface() }

// readBody reads r's body up to max bytes.
func readBody(r *http.Request, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r.Body, max+1))
	if err != nil {
		return nil, fmt.Errorf("httpapi: %w: read body: %v", errBadRequest, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("httpapi: %w: more than %d bytes", errTooLarge, max)
	}
	return data, nil
}
