package httpapi

import (
	"net/http"
)

// newPlain mounts the net/http routes and /api/stats.
func newPlain(a *API) *http.ServeMux {
	m := http.NewServeMux()
	m.HandleFunc("GET /api/stats", a.serveStats)
	m.HandleFunc("GET /api/http/{scenario}", func(w http.ResponseWriter, r *http.Request) {
		e, err := a.resolve(r, r.PathValue("scenario"))
		if err != nil {
			a.plainFail(w, "", err)
			return
		}
		a.plainRespond(w, e, e.sc.Value())
	})
	m.HandleFunc("POST /api/http/{scenario}", func(w http.ResponseWriter, r *http.Request) {
		e, err := a.resolve(r, r.PathValue("scenario"))
		if err != nil {
			a.plainFail(w, "", err)
			return
		}
		data, err := readBody(w, r, a.opts.MaxBodyBytes)
		v := e.newValue()
		if err == nil {
			err = e.decodeRequest(r, data, v)
		}
		if err != nil {
			a.plainFail(w, e.c.Info().ID, err)
			return
		}
		a.plainRespond(w, e, v)
	})
	return m
}

func (a *API) plainRespond(w http.ResponseWriter, e *entry, v any) {
	id := e.c.Info().ID
	err := e.encode(v, func(data []byte) error {
		h := w.Header()
		h.Set("Content-Type", e.ctype)
		h.Set(CodecHeader, id)
		_, err := w.Write(data)
		return err
	})
	code := http.StatusOK
	if err != nil {
		code = http.StatusInternalServerError
	}
	a.stats.count("http", id, code)
}

func (a *API) plainFail(w http.ResponseWriter, codecID string, err error) {
	code := status(err)
	http.Error(w, err.Error(), code)
	a.stats.count("http", codecID, code)
}
