package httpapi

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
	"github.com/gin-gonic/gin/render"
)

// CodecHeader is the response header that names the codec that encoded it.
const CodecHeader = "X-Serbench-Codec"

// codecRender is a gin render.Render that encodes with a codec: gin's own
// JSON render replaced, and the same hook for binary formats.
type codecRender struct {
	e *entry
	v any
}

var _ render.Render = codecRender{}

func (r codecRender) Render(w http.ResponseWriter) error {
	r.WriteContentType(w)
	return r.e.encode(r.v, func(data []byte) error {
		_, err := w.Write(data)
		return err
	})
}

func (r codecRender) WriteContentType(w http.ResponseWriter) {
	w.Header().Set("Content-Type", r.e.ctype)
	w.Header().Set(CodecHeader, r.e.c.Info().ID)
}

// codecBinding is a gin binding.BindingBody that decodes with a codec.
type codecBinding struct {
	e   *entry
	max int64
	w   http.ResponseWriter // for http.MaxBytesReader
}

var _ binding.BindingBody = codecBinding{}

func (b codecBinding) Name() string { return b.e.c.Info().ID }

func (b codecBinding) Bind(r *http.Request, obj any) error {
	data, err := readBody(b.w, r, b.max)
	if err != nil {
		return err
	}
	return b.e.decodeRequest(r, data, obj)
}

// BindBody decodes data, counted against the share of the client "" (no
// request to name one: gin calls it only for a body already read).
func (b codecBinding) BindBody(data []byte, obj any) error { return b.e.decodeInto("", data, obj) }

// newGin builds the Gin engine: no logger, no recovery middleware (a panic
// reaches net/http, as in the other stacks).
func newGin(a *API) *gin.Engine {
	gin.SetMode(gin.ReleaseMode)
	g := gin.New()
	g.GET("/api/gin/:scenario", func(c *gin.Context) {
		e, err := a.resolve(c.Request, c.Param("scenario"))
		if err != nil {
			a.ginFail(c, "", err)
			return
		}
		a.ginRespond(c, e, e.sc.Value())
	})
	g.POST("/api/gin/:scenario", func(c *gin.Context) {
		e, err := a.resolve(c.Request, c.Param("scenario"))
		if err != nil {
			a.ginFail(c, "", err)
			return
		}
		v := e.newValue()
		if err := c.ShouldBindWith(v, codecBinding{e: e, max: a.opts.MaxBodyBytes, w: c.Writer}); err != nil {
			a.ginFail(c, e.c.Info().ID, err)
			return
		}
		a.ginRespond(c, e, v)
	})
	return g
}

func (a *API) ginRespond(c *gin.Context, e *entry, v any) {
	c.Render(http.StatusOK, codecRender{e: e, v: v})
	code := c.Writer.Status()
	if len(c.Errors) > 0 {
		code = http.StatusInternalServerError
	}
	a.stats.count("gin", e.c.Info().ID, code)
}

func (a *API) ginFail(c *gin.Context, codecID string, err error) {
	code := status(err)
	c.String(code, "%s\n", err)
	a.stats.count("gin", codecID, code)
}
