package endpoint

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
	"github.com/mneme-archive/mneme/sparql/results"
)

// flushRows is how many rows go by between checks whether buffered
// output is due to reach the client.
const flushRows = 256

// answer prepares, plans, admits, runs and streams one query under ctx.
// Failures before the first byte of the result is sent get their own
// status; a failure after that (a timeout while streaming) is written
// into the body as an error line and the connection is then aborted
// without the end of the chunked body, so that no client takes a cut
// result for a whole one (see the package doc).
func (h *Handler) answer(ctx context.Context, w http.ResponseWriter, r *http.Request, req *request) {
	// Parsing and planning take CPU too: they run in a cheap slot, and a
	// query found expensive then moves to an expensive one.
	client := clientOf(r)
	release, ok := h.acquire(ctx, w, req, cheap, client)
	if !ok {
		return
	}
	defer func() { release() }()
	opts := h.cfg.Query
	opts.From, opts.FromNamed = req.from, req.fromNamed
	q, err := sparql.Prepare(req.query, opts)
	if err != nil {
		writeError(w, prepareError(err))
		return
	}
	if n := q.Patterns(); n > h.cfg.MaxPatterns {
		writeError(w, errorf(http.StatusBadRequest, "the query has %d triple patterns and paths, more than the %d this endpoint accepts", n, h.cfg.MaxPatterns))
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
	snap := h.store.Snapshot()
	defer snap.Close()
	planned, err := q.Plan(ctx, snap)
	if err != nil {
		writeError(w, h.execError(err, req))
		return
	}
	cost, err := planned.Cost()
	if err != nil {
		writeError(w, h.execError(err, req))
		return
	}
	if cost >= h.cfg.ExpensiveCost {
		release()
		if release, ok = h.acquire(ctx, w, req, expensive, client); !ok {
			release = func() {}
			return
		}
	}
	res, err := planned.Exec()
	if err != nil {
		writeError(w, h.execError(err, req))
		return
	}
	defer res.Close()

	// Writes may outlast the deadline by a moment, so that a query the
	// deadline stops while the client reads can still say so (out.fail).
	end, _ := ctx.Deadline()
	out := newStream(ctx, w, f.contentType, end.Add(writeGrace), h.cfg.WriteStall)
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
		out.fail(err, h.execError(err, req).msg)
		panic(http.ErrAbortHandler)
	case truncated:
		h.cfg.Log.Warn("sparql: result cut at the row limit", "max_rows", h.cfg.MaxRows)
	}
}

// acquire waits for a slot of class, or answers the request with why
// there is none.
func (h *Handler) acquire(ctx context.Context, w http.ResponseWriter, req *request, class int, client string) (func(), bool) {
	release, err := h.admit.acquire(ctx, class, client)
	var busy errBusy
	switch {
	case errors.As(err, &busy):
		writeError(w, &httpError{status: http.StatusServiceUnavailable, busy: true,
			msg: fmt.Sprintf("%d queries are already waiting, the most this endpoint queues: retry later", busy.waiting)})
		return nil, false
	case err != nil:
		writeError(w, h.execError(err, req))
		return nil, false
	}
	return release, true
}

// writeGrace is how long after its deadline a query's writes may go on.
const writeGrace = 150 * time.Millisecond

// clientOf is the key a client's queries are scheduled by: its address
// without the port.
func clientOf(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
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
		_ = rw.Flush() // the rows so far go before the error line
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
		// The operators look at the context every few hundred rows;
		// here every row, so that the deadline stops the output before
		// the write deadline, a moment later, fails a write.
		if err := out.ctx.Err(); err != nil {
			return n, false, err
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
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return errorf(http.StatusServiceUnavailable, "query timed out after %v", req.timeout)
	case errors.Is(err, errStalled):
		return errorf(http.StatusServiceUnavailable, "the client read nothing for %v", h.cfg.WriteStall)
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
