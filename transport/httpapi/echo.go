package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"
)

// echoEntryKey is the echo.Context key of the request's entry.
const echoEntryKey = "serbench.entry"

// codecSerializer is an echo.JSONSerializer that encodes and decodes with
// the codec the request chose (stored in the context under echoEntryKey);
// without one (Echo's own error responses) it uses encoding/json.
type codecSerializer struct{ max int64 }

var _ echo.JSONSerializer = codecSerializer{}

func (s codecSerializer) Serialize(c echo.Context, v any, indent string) error {
	e, ok := c.Get(echoEntryKey).(*entry)
	if !ok {
		enc := json.NewEncoder(c.Response())
		enc.SetIndent("", indent)
		return enc.Encode(v)
	}
	return e.encode(v, func(data []byte) error {
		_, err := c.Response().Write(data)
		return err
	})
}

func (s codecSerializer) Deserialize(c echo.Context, v any) error {
	e, ok := c.Get(echoEntryKey).(*entry)
	if !ok {
		return echo.NewHTTPError(http.StatusBadRequest, "httpapi: no codec chosen")
	}
	data, err := readBody(c.Response(), c.Request(), s.max)
	if err != nil {
		return err
	}
	return e.decodeRequest(c.Request(), data, v)
}

// newEcho builds the Echo instance with codecSerializer as its JSONSerializer.
func newEcho(a *API) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.JSONSerializer = codecSerializer{max: a.opts.MaxBodyBytes}
	e.GET("/api/echo/:scenario", func(c echo.Context) error {
		en, err := a.resolve(c.Request(), c.Param("scenario"))
		if err != nil {
			return a.echoFail(c, "", err)
		}
		return a.echoRespond(c, en, en.sc.Value())
	})
	e.POST("/api/echo/:scenario", func(c echo.Context) error {
		en, err := a.resolve(c.Request(), c.Param("scenario"))
		if err != nil {
			return a.echoFail(c, "", err)
		}
		c.Set(echoEntryKey, en)
		v := en.newValue()
		if en.ctype == "application/json" {
			err = c.Bind(v) // DefaultBinder: the JSONSerializer for a JSON Content-Type
		} else {
			var data []byte
			if data, err = readBody(c.Response(), c.Request(), a.opts.MaxBodyBytes); err == nil {
				err = en.decodeRequest(c.Request(), data, v)
			}
		}
		if err != nil {
			return a.echoFail(c, en.c.Info().ID, err)
		}
		return a.echoRespond(c, en, v)
	})
	return e
}

func (a *API) echoRespond(c echo.Context, e *entry, v any) error {
	c.Set(echoEntryKey, e)
	c.Response().Header().Set(CodecHeader, e.c.Info().ID)
	var err error
	if e.ctype == "application/json" {
		err = c.JSON(http.StatusOK, v)
	} else {
		err = e.encode(v, func(data []byte) error { return c.Blob(http.StatusOK, e.ctype, data) })
	}
	code := c.Response().Status
	if err != nil {
		code = http.StatusInternalServerError
	}
	a.stats.count("echo", e.c.Info().ID, code)
	return err
}

// echoFail answers err as plain text; an echo.HTTPError from Bind is
// answered with the error it wraps.
func (a *API) echoFail(c echo.Context, codecID string, err error) error {
	var he *echo.HTTPError
	if errors.As(err, &he) && he.Internal != nil {
		err = he.Internal
	}
	code := status(err)
	if he != nil && he.Internal == nil {
		code = he.Code
	}
	a.stats.count("echo", codecID, code)
	return c.String(code, err.Error()+"\n")
}
