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
// A POST body is decoded only with a codec of Options.DecodeCodecs (by
// default DefaultDecodeCodecs: those serbench hostile found neither
// crashing nor hanging on hostile input), only up to Options.MaxBodyBytes,
// and each decode only for Options.DecodeTimeout, with at most
// Options.MaxDecodes decodes at once. With Options.DecodeWorkers, each
// decode runs in a child process that is killed (and replaced) past
// DecodeTimeout or Options.DecodeMemory, so that no decode runs on after
// its refusal (worker.go).
//
// Errors are plain text starting "httpapi: ": 400 for an unknown scenario
// or codec, a codec that cannot carry the scenario, or a body that does
// not decode; 406 and 415 for media types no codec has, 415 also for a
// codec that does not decode bodies on this server; 413 for a body over
// Options.MaxBodyBytes or an answer over Options.MaxAnswerRatio times the
// body or a worker over Options.DecodeMemory; 503 for a decode over its
// time limit, no decode slot (or worker) free within it, or the client's
// share of the slots (Options.MaxClientDecodes) taken.
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
	"time"

	"github.com/gin-gonic/gin"
	"github.com/labstack/echo/v4"

	"github.com/serbench/serbench/codec"
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

// Options configure an API. The zero value means defaults but for
// Resolver.Codecs, which the caller passes.
type Options struct {
	// Resolver finds codecs and scenarios. Resolver.Codecs is required
	// (codec/all.Registry() for every codec); nil Scenarios means
	// scenario.Seeds.
	Resolver transport.Resolver
	// MaxBodyBytes caps a POST body (http.MaxBytesReader). Default
	// DefaultMaxBodyBytes; range [1, 1 GiB].
	MaxBodyBytes int64
	// DecodeCodecs lists the IDs of the codecs that decode POST bodies;
	// "*" enables every codec. GET (encode only) serves every codec.
	// Default (nil): those of DefaultDecodeCodecs the Resolver has; an
	// ID the Resolver does not have is an error. Enabling a codec that
	// docs/findings/hostile.md lists as crashing on hostile input lets one
	// request end the process (an out-of-memory error is fatal in Go).
	DecodeCodecs []string
	// DecodeTimeout bounds one decode, the wait for a slot and a worker
	// included: the request is answered 503 when it passes. With
	// DecodeWorkers, the worker is killed then and replaced, so the decode
	// stops there. Without, Go cannot stop a running decode: it keeps its
	// slot (MaxDecodes) until it returns, and what it allocates meanwhile
	// is bounded by its codec alone (every codec of DefaultDecodeCodecs
	// stops within a multiple of the body's size: length checks,
	// FlatBuffers' expansion bound, Cap'n Proto's traversal limit).
	// Default 1s; range [1ms, 1m].
	DecodeTimeout time.Duration
	// DecodeWorkers is the number of child processes (WorkerRole) that
	// decode POST bodies, started on first use; a decode that passes
	// DecodeTimeout or DecodeMemory ends its worker, which the next decode
	// replaces. The worker answers with the value re-encoded by the same
	// codec, which this process decodes again: a bounded input (at most
	// the answer bound of MaxAnswerRatio) that its codec wrote. 0 decodes
	// in this process, as a goroutine per decode (the library's default:
	// a program that sets it serves WorkerRole with ServeWorker). At most
	// min(MaxDecodes, DecodeWorkers) decodes run at once. Range [0,
	// MaxDecodes]; serve's default is DefaultDecodeWorkers.
	DecodeWorkers int
	// DecodeMemory is each worker's memory budget in bytes: the worker
	// runs under debug.SetMemoryLimit of it (and, on Linux, RLIMIT_DATA of
	// it plus WorkerStack plus 256 MiB), and this process kills it when
	// its resident memory (RSS, the runtime and the codecs' tables
	// included) passes it, checking every 20 ms; the request is answered
	// 413. Only with DecodeWorkers. Default DefaultDecodeMemory; range
	// [MinDecodeMemory, 1<<40].
	DecodeMemory int64
	// WorkerExecutable is the program started as a worker; "" means this
	// program (os.Executable).
	WorkerExecutable string
	// MaxDecodes caps the decodes running at once; a request waits for a
	// free slot within its DecodeTimeout. Default 16; range [1, 4096].
	MaxDecodes int
	// MaxClientDecodes caps the decodes of one client (remote IP address)
	// running at once, past their time limit included, so that one client
	// cannot hold every slot: its next POST is answered 503 at once.
	// Default 4; range [1, MaxDecodes].
	MaxClientDecodes int
	// MaxAnswerRatio bounds the answer to a POST: at most MaxAnswerRatio
	// times the body (its Content-Length, or MaxBodyBytes when it has
	// none) plus AnswerSlack bytes. A body that decodes to a value whose
	// encoding is larger (a JSON array of empty objects, each answered
	// with every field) is answered 413 instead. GET answers are not
	// bounded: their size is the scenario's. Default 8; range [1, 1<<20].
	MaxAnswerRatio int
}

// AnswerSlack is added to Options.MaxAnswerRatio times the body: 64 KiB.
const AnswerSlack = 64 << 10

// Defaults of Options.
const (
	// DefaultMaxBodyBytes is Options.MaxBodyBytes' default: 1 MiB.
	DefaultMaxBodyBytes     = 1 << 20
	DefaultDecodeTimeout    = time.Second
	DefaultMaxDecodes       = 16
	DefaultMaxClientDecodes = 4
	DefaultMaxAnswerRatio   = 8
	// DefaultDecodeWorkers is serve's -api-decode-workers: 8.
	DefaultDecodeWorkers = 8
	// DefaultDecodeMemory is Options.DecodeMemory's default: 128 MiB
	// resident per worker.
	DefaultDecodeMemory = 128 << 20
	// MinDecodeMemory is the smallest Options.DecodeMemory: 64 MiB. An
	// idle worker of serbench, every codec linked in, holds 53 MiB
	// resident (2026-11-29, linux/amd64).
	MinDecodeMemory = 64 << 20
)

// DefaultDecodeCodecs are the codecs that decode POST bodies by default:
// the ones `serbench hostile` found neither crashing, running out of
// memory, overflowing the stack nor hanging on any hostile input
// (docs/findings/hostile.md, 2026-11-23 and after), the shared-offset
// (DAG) and far-pointer inputs of FlatBuffers and Cap'n Proto included
// (2026-11-29; TestDecodeAmplification posts them). It leaves out msgpack,
// msgp, gob, segmentio-json, msgpackgen, bebop, benc, mus, ikeapack,
// alecthomas-binary, hprose and enkodo (findings), and the codecs the
// harness has no published row for. flatbuffers joined on 2026-11-29,
// when its expansion bound ended the allocation bombs of its UnPack.
var DefaultDecodeCodecs = []string{
	"encoding/json", "json-v2", "jsoniter", "go-json", "sonic", "sonic/default", "sonic/fastest",
	"easyjson", "ffjson", "cbor", "protobuf", "vtprotobuf", "gogoproto", "dedis-protobuf",
	"flatbuffers", "flatbuffers/lazy", "capnp", "capnp/lazy", "thrift/binary", "thrift/compact", "wire", "wire/lazy",
}

// API is the handler of /api/: Gin, Echo and net/http side by side.
type API struct {
	opts  Options
	gin   *gin.Engine
	echo  *echo.Echo
	plain *http.ServeMux
	stats stats

	decodes   map[string]bool // nil: every codec
	decodeIDs string          // for error messages
	lim       *decodeLimit

	mu      sync.Mutex
	entries map[[2]string]*entry
}

var _ http.Handler = (*API)(nil)

// New validates opts and builds the three stacks. It sets gin's global
// mode to release, which stops gin printing its routes.
func New(opts Options) (*API, error) {
	if opts.Resolver.Codecs == nil {
		return nil, errors.New("httpapi: Options.Resolver.Codecs is nil: pass the registry of the codecs to serve (codec/all.Registry() for every codec)")
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
	if opts.DecodeTimeout == 0 {
		opts.DecodeTimeout = DefaultDecodeTimeout
	}
	if opts.DecodeTimeout < time.Millisecond || opts.DecodeTimeout > time.Minute {
		return nil, fmt.Errorf("httpapi: invalid DecodeTimeout %v (range is [1ms, 1m])", opts.DecodeTimeout)
	}
	if opts.MaxDecodes == 0 {
		opts.MaxDecodes = DefaultMaxDecodes
	}
	if opts.MaxDecodes < 1 || opts.MaxDecodes > 4096 {
		return nil, fmt.Errorf("httpapi: invalid MaxDecodes %d (range is [1, 4096])", opts.MaxDecodes)
	}
	if opts.MaxClientDecodes == 0 {
		opts.MaxClientDecodes = min(DefaultMaxClientDecodes, opts.MaxDecodes)
	}
	if opts.MaxAnswerRatio == 0 {
		opts.MaxAnswerRatio = DefaultMaxAnswerRatio
	}
	if opts.MaxAnswerRatio < 1 || opts.MaxAnswerRatio > 1<<20 {
		return nil, fmt.Errorf("httpapi: invalid MaxAnswerRatio %d (range is [1, 1048576])", opts.MaxAnswerRatio)
	}
	if opts.MaxClientDecodes < 1 || opts.MaxClientDecodes > opts.MaxDecodes {
		return nil, fmt.Errorf("httpapi: invalid MaxClientDecodes %d (range is [1, MaxDecodes %d])", opts.MaxClientDecodes, opts.MaxDecodes)
	}
	if opts.DecodeWorkers < 0 || opts.DecodeWorkers > opts.MaxDecodes {
		return nil, fmt.Errorf("httpapi: invalid DecodeWorkers %d (range is [0, MaxDecodes %d]; serve -api-decode-workers, -api-max-decodes)", opts.DecodeWorkers, opts.MaxDecodes)
	}
	if opts.DecodeMemory == 0 {
		opts.DecodeMemory = DefaultDecodeMemory
	}
	if opts.DecodeMemory < MinDecodeMemory || opts.DecodeMemory > 1<<40 {
		return nil, fmt.Errorf("httpapi: invalid DecodeMemory %d (range is [%d, %d])", opts.DecodeMemory, MinDecodeMemory, int64(1)<<40)
	}
	if opts.DecodeCodecs == nil {
		// The default set, as far as the Resolver's registry has it.
		opts.DecodeCodecs = []string{}
		for _, id := range DefaultDecodeCodecs {
			if _, ok := opts.Resolver.Codecs.Lookup(id); ok {
				opts.DecodeCodecs = append(opts.DecodeCodecs, id)
			}
		}
	}
	a := &API{opts: opts, entries: map[[2]string]*entry{}, lim: newDecodeLimit(opts)}
	if !slices.Contains(opts.DecodeCodecs, "*") {
		a.decodes = map[string]bool{}
		for _, id := range opts.DecodeCodecs {
			if _, err := opts.Resolver.Codecs.Select([]string{id}); err != nil {
				return nil, fmt.Errorf("httpapi: invalid DecodeCodecs: %w", err)
			}
			a.decodes[id] = true
		}
		a.decodeIDs = strings.Join(slices.Sorted(maps.Keys(a.decodes)), ", ")
	}
	a.gin = newGin(a)
	a.echo = newEcho(a)
	a.plain = newPlain(a)
	return a, nil
}

// ServeHTTP implements http.Handler for paths under /api/.
func (a *API) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body := a.opts.MaxBodyBytes
		if r.ContentLength >= 0 {
			body = min(r.ContentLength, body)
		}
		lw := &answerLimit{ResponseWriter: w, body: body, ratio: int64(a.opts.MaxAnswerRatio)}
		defer lw.finish()
		w = lw
	}
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
	errNoDecode    = errors.New("codec does not decode request bodies on this server")
	errTooLarge    = errors.New("body too large")
	errBusy        = errors.New("decode over its time limit")
	errMemory      = errors.New("decode over its memory budget")
)

func status(err error) int {
	switch {
	case errors.Is(err, errNotAccepted):
		return http.StatusNotAcceptable
	case errors.Is(err, errMediaType), errors.Is(err, errNoDecode):
		return http.StatusUnsupportedMediaType
	case errors.Is(err, errTooLarge), errors.Is(err, errMemory), errors.Is(err, errAnswerTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, errBusy):
		return http.StatusServiceUnavailable
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
	lim   *decodeLimit
}

// decodeLimit is the API's time limit per decode, its decode slots and
// each client's share of them, and its decode workers.
type decodeLimit struct {
	timeout   time.Duration
	slots     chan struct{}
	perClient int

	// workers holds the idle workers, nil for one not started (or
	// stopped); nil with Options.DecodeWorkers 0.
	workers chan *worker
	exe     string
	memory  int64
	ratio   int64

	mu      sync.Mutex
	clients map[string]int // decodes running per client
}

func newDecodeLimit(o Options) *decodeLimit {
	l := &decodeLimit{timeout: o.DecodeTimeout, slots: make(chan struct{}, o.MaxDecodes), perClient: o.MaxClientDecodes, clients: map[string]int{},
		exe: o.WorkerExecutable, memory: o.DecodeMemory, ratio: int64(o.MaxAnswerRatio)}
	if o.DecodeWorkers > 0 {
		l.workers = make(chan *worker, o.DecodeWorkers)
		for range o.DecodeWorkers {
			l.workers <- nil
		}
	}
	return l
}

// use describes client's share in use, for a refusal.
func (l *decodeLimit) use(client string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return fmt.Sprintf("client %s has %d decodes running; MaxClientDecodes, serve -api-max-client-decodes %d", client, l.clients[client], l.perClient)
}

// take counts one more decode of client, or says why not.
func (l *decodeLimit) take(client string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n := l.clients[client]; n >= l.perClient {
		return fmt.Errorf("httpapi: %w: client %s has %d decodes running (the cap per client is MaxClientDecodes, serve -api-max-client-decodes %d)", errBusy, client, n, l.perClient)
	}
	l.clients[client]++
	return nil
}

// give returns a decode of client.
func (l *decodeLimit) give(client string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.clients[client]--; l.clients[client] <= 0 {
		delete(l.clients, client)
	}
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
	if r.Method == http.MethodPost && a.decodes != nil && !a.decodes[id] {
		return nil, fmt.Errorf("httpapi: %w: %q (enabled: %s; serve -api-decode adds codecs)", errNoDecode, id, a.decodeIDs)
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
	e := &entry{sc: sc, c: c, ctype: ContentType(info.Format), typ: reflect.TypeOf(sc.Value()), lim: a.lim}
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

// decodeRequest decodes data, the body of r, as decodeInto does, counted
// against r's client's share of the decode slots.
func (e *entry) decodeRequest(r *http.Request, data []byte, dst any) error {
	return e.decodeInto(transport.ClientAddr(r.RemoteAddr), data, dst)
}

// decodeInto decodes data and stores the value in dst, a pointer of the
// scenario's type. The decode runs in a goroutine of its own, in one of
// the API's decode slots and one of client's share of them, for at most
// the API's DecodeTimeout (waiting for the slot included): past it,
// decodeInto returns errBusy and the decode finishes on its own, then
// frees both. A client at its share gets errBusy at once. A decoder's
// panic is an error.
func (e *entry) decodeInto(client string, data []byte, dst any) error {
	dv := reflect.ValueOf(dst)
	if dv.Type() != e.typ || dv.IsNil() {
		return fmt.Errorf("httpapi: decode into %T, want %v", dst, e.typ)
	}
	if err := e.lim.take(client); err != nil {
		return err
	}
	deadline := time.Now().Add(e.lim.timeout)
	timer := time.NewTimer(e.lim.timeout)
	defer timer.Stop()
	select {
	case e.lim.slots <- struct{}{}:
	case <-timer.C:
		use := e.lim.use(client)
		e.lim.give(client)
		return fmt.Errorf("httpapi: %w: no decode slot free within %v (%d decodes running; the cap is MaxDecodes, serve -api-max-decodes; %s)", errBusy, e.lim.timeout, cap(e.lim.slots), use)
	}
	if e.lim.workers != nil {
		defer func() { <-e.lim.slots; e.lim.give(client) }()
		return e.decodeInWorker(client, data, dv, deadline, timer)
	}
	type result struct {
		out any
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() { <-e.lim.slots; e.lim.give(client) }()
		b := e.pool.Get().(codec.Binding)
		defer func() {
			if p := recover(); p != nil {
				// The Binding may be left broken: it does not go back.
				done <- result{err: fmt.Errorf("panic: %v", p)}
			}
		}()
		out, err := codec.UnmarshalUntrusted(b, data)
		if err == nil {
			out, err = codec.Value(b, out)
		}
		e.pool.Put(b)
		done <- result{out, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-timer.C:
		return fmt.Errorf("httpapi: %w: decoding %d bytes with %s took more than %v", errBusy, len(data), e.c.Info().ID, e.lim.timeout)
	}
	out, err := r.out, r.err
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

// readBody reads r's body up to max bytes. A body that declares a
// Content-Length over max is refused before a byte of it is read or a
// buffer allocated; one that declares its length is read into a buffer of
// that length; one that does not (chunked) grows its buffer as it comes,
// to at most max. http.MaxBytesReader also closes the connection of a body
// over max once answered.
func readBody(w http.ResponseWriter, r *http.Request, max int64) ([]byte, error) {
	tooLarge := func(n string) error {
		return fmt.Errorf("httpapi: %w: %s bytes, more than MaxBodyBytes %d (serve -api-max-body)", errTooLarge, n, max)
	}
	if r.ContentLength > max {
		// Close the connection: the body was not read.
		w.Header().Set("Connection", "close")
		return nil, tooLarge(fmt.Sprint(r.ContentLength))
	}
	body := http.MaxBytesReader(w, r.Body, max)
	var data []byte
	var err error
	if r.ContentLength >= 0 {
		data = make([]byte, r.ContentLength) // net/http ends the body there
		_, err = io.ReadFull(body, data)
	} else {
		data, err = io.ReadAll(body)
	}
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return nil, tooLarge("more than " + fmt.Sprint(max))
		}
		return nil, fmt.Errorf("httpapi: %w: read body: %v", errBadRequest, err)
	}
	return data, nil
}
