package endpoint

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/results"
)

// flushRows is how many rows go by between checks whether buffered
// output is due to reach the client.
const flushRows = 256

// answer prepares, runs and streams one query. Failures before the first
// byte of the result is sent get their own status; a failure after that
// (a timeout while streaming) aborts the connection, so a client never
// takes a cut result for a whole one.
func (h *Handler) answer(w http.ResponseWriter, r *http.Request, req *request) {
	opts := h.cfg.Query
	opts.From, opts.FromNamed = req.from, req.fromNamed
	q, err := sparql.Prepare(req.query, opts)
	if err != nil {
		writeError(w, prepareError(err))
		return
	}
	offers := solutionFormats
	if form := q.Form(); form.IsGraph() {
		offers = graphFormats
	}
	f := byName(offers, req.formats)
	if f == nil {
		f = negotiate(offers, req.accept)
	}
	if f == nil {
		writeError(w, errorf(http.StatusNotAcceptable, "no acceptable format for a %s result (Accept: %s); this endpoint writes %s",
			q.Form(), req.accept, offered(offers)))
		return
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	default:
		writeError(w, &httpError{status: http.StatusServiceUnavailable, busy: true,
			msg: fmt.Sprintf("%d queries are already running, the most this endpoint allows: retry later", cap(h.slots))})
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), req.timeout)
	defer cancel()
	snap := h.store.Snapshot()
	defer snap.Close()
	res, err := q.Exec(ctx, snap)
	if err != nil {
		writeError(w, h.execError(err, req))
		return
	}
	defer res.Close()

	out := newStream(w, f.contentType)
	if h.cfg.MaxRows > 0 {
		w.Header().Set("X-SPARQL-MaxRows", strconv.Itoa(h.cfg.MaxRows))
	}
	var n int
	var truncated bool
	if f.graph != nil {
		n, truncated, err = h.writeGraph(out, res, f, q.Prefixes())
	} else {
		n, truncated, err = h.writeSolutions(out, res, f)
	}
	if err == nil {
		err = out.finish()
	}
	switch {
	case err != nil && !out.committed:
		writeError(w, h.execError(err, req))
	case err != nil:
		if !errors.Is(err, context.Canceled) {
			h.cfg.Log.Warn("sparql: query failed while streaming its result; connection aborted", "err", err, "sent", n)
		}
		panic(http.ErrAbortHandler)
	case truncated:
		h.cfg.Log.Warn("sparql: result cut at the row limit", "max_rows", h.cfg.MaxRows)
	}
}

func (h *Handler) writeSolutions(out *stream, res *sparql.Result, f *format) (int, bool, error) {
	rw := results.NewWriter(out, f.results)
	if res.Form == sparql.Ask {
		if err := rw.Boolean(res.Boolean()); err != nil {
			return 0, false, err
		}
		return 0, false, rw.Close()
	}
	if err := rw.Head(res.Vars); err != nil {
		return 0, false, err
	}
	n, truncated, err := h.pump(out, res, func() error { return rw.Row(res.Row()) }, rw.Flush)
	if err != nil {
		return n, false, err
	}
	return n, truncated, rw.Close()
}

func (h *Handler) writeGraph(out *stream, res *sparql.Result, f *format, prefixes map[string]string) (int, bool, error) {
	gw, err := f.graph(out, rdf.WriteOptions{Prefixes: prefixes})
	if err != nil {
		return 0, false, err
	}
	n, truncated, err := h.pump(out, res, func() error { return gw.Write(res.Triple().In(rdf.Term{})) }, nil)
	if err != nil {
		return n, false, err
	}
	return n, truncated, gw.Close()
}

// pump writes the result's rows with put until it ends or reaches
// MaxRows, pushing output to the client now and then.
func (h *Handler) pump(out *stream, res *sparql.Result, put func() error, flush func() error) (n int, truncated bool, err error) {
	for res.Next() {
		if h.cfg.MaxRows > 0 && n == h.cfg.MaxRows {
			return n, true, nil
		}
		if err := put(); err != nil {
			return n, false, err
		}
		n++
		if n%flushRows == 0 && out.due() {
			if flush != nil {
				if err := flush(); err != nil {
					return n, false, err
				}
			}
			if err := out.flush(); err != nil {
				return n, false, err
			}
		}
	}
	return n, false, res.Err()
}

// prepareError answers a query that does not parse: the parser's
// line:column message.
func prepareError(err error) *httpError {
	var se *sparql.SyntaxError
	if errors.As(err, &se) {
		return errorf(http.StatusBadRequest, "syntax error at line %d, column %d: %s", se.Line, se.Col, se.Msg)
	}
	return errorf(http.StatusBadRequest, "bad query: %v", err)
}

func (h *Handler) execError(err error, req *request) *httpError {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return errorf(http.StatusServiceUnavailable, "query timed out after %v", req.timeout)
	case errors.Is(err, context.Canceled):
		return errorf(http.StatusServiceUnavailable, "query cancelled")
	case errors.Is(err, sparql.ErrFederation):
		return errorf(http.StatusNotImplemented, "%v: this endpoint answers from its own store only", err)
	}
	h.cfg.Log.Error("sparql: query failed", "err", err)
	return errorf(http.StatusInternalServerError, "query failed: %v", err)
}

func offered(offers []*format) string {
	var types []string
	for _, f := range offers {
		types = append(types, f.accepts[0])
	}
	return strings.Join(types, ", ")
}
