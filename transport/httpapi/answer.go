package httpapi

import (
	"errors"
	"fmt"
	"net/http"
)

// errAnswerTooLarge is the error of a POST whose answer would pass
// Options.MaxAnswerRatio.
var errAnswerTooLarge = errors.New("answer too large")

// answerLimit is the http.ResponseWriter of a POST: it holds the status
// back until the first Write, and answers 413 instead of a success whose
// body passes ratio times the request's body plus AnswerSlack. The three
// stacks each write an answer in one Write, so the whole answer is known
// before anything is sent; a later Write that passes the bound is refused
// (the client gets a cut answer).
type answerLimit struct {
	http.ResponseWriter
	body, ratio int64
	code        int   // the status held back; 0 before WriteHeader
	sent        bool  // status sent
	n           int64 // body bytes written
	refused     bool
}

func (l *answerLimit) limit() int64 { return l.ratio*l.body + AnswerSlack }

// WriteHeader holds code until the first Write (or finish).
func (l *answerLimit) WriteHeader(code int) {
	if !l.sent && l.code == 0 {
		l.code = code
	}
}

// Write sends the status held back and p, or the 413 when p passes the
// bound of a success.
func (l *answerLimit) Write(p []byte) (int, error) {
	if l.refused {
		return 0, errAnswerTooLarge
	}
	if l.code == 0 {
		l.code = http.StatusOK
	}
	if l.code < 300 && l.n+int64(len(p)) > l.limit() {
		l.refused = true
		if l.sent {
			return 0, errAnswerTooLarge
		}
		l.sent = true
		h := l.Header()
		h.Del("Content-Length")
		h.Set("Content-Type", "text/plain; charset=utf-8")
		l.ResponseWriter.WriteHeader(http.StatusRequestEntityTooLarge)
		fmt.Fprintf(l.ResponseWriter, "httpapi: %v: the answer is %d bytes, more than MaxAnswerRatio %d x the %d-byte body + %d (serve -api-max-answer-ratio)\n",
			errAnswerTooLarge, l.n+int64(len(p)), l.ratio, l.body, AnswerSlack)
		return 0, errAnswerTooLarge
	}
	if !l.sent {
		l.sent = true
		l.ResponseWriter.WriteHeader(l.code)
	}
	n, err := l.ResponseWriter.Write(p)
	l.n += int64(n)
	return n, err
}

// Unwrap returns the connection's writer (http.ResponseController).
func (l *answerLimit) Unwrap() http.ResponseWriter { return l.ResponseWriter }

// finish sends a status held back by a handler that wrote no body.
func (l *answerLimit) finish() {
	if !l.sent && l.code != 0 {
		l.sent = true
		l.ResponseWriter.WriteHeader(l.code)
	}
}
