package endpoint

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql"
)

// Defaults for the zero Config.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxRows     = 1_000_000
	DefaultMaxQuery    = 256 << 10
	DefaultMaxPatterns = 256
	// DefaultExpensiveCost is about 10 ms of quad reads: a lookup costs
	// tens to thousands, a scan of a large store millions.
	DefaultExpensiveCost = 1e5
	DefaultWriteStall    = 5 * time.Second
	DefaultReadTimeout   = 10 * time.Second
	// DefaultMemoryRows is the rows one query holds in memory (about
	// 16 MiB) before it spills to temporary files.
	DefaultMemoryRows = 1 << 19
	// maxBodyBytes bounds a request body: a query, not a data upload.
	maxBodyBytes = 4 << 20
)

// Config sets the endpoint's limits.
type Config struct {
	// Timeout is both the default and the longest time a query may run,
	// from its arrival (waiting for a slot included) to the last byte
	// of its result; a client's timeout parameter can only shorten it.
	// 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxConcurrent bounds the cheap queries running at once. 0 means
	// 2×GOMAXPROCS.
	MaxConcurrent int
	// MaxExpensive bounds the expensive queries running at once, in
	// slots of their own. 0 means MaxConcurrent/2, at least 1.
	MaxExpensive int
	// ExpensiveCost is the planner's cost estimate (about one unit per
	// quad read) from which a query is expensive. 0 means
	// DefaultExpensiveCost.
	ExpensiveCost float64
	// MaxQueued bounds the queries waiting for a slot; one client may
	// have up to MaxConcurrent of them. Beyond, a query is refused at
	// once with 503 and Retry-After. 0 means 64×MaxConcurrent.
	MaxQueued int
	// MaxQuery and MaxPatterns bound a query's text (bytes) and its
	// triple patterns and property paths; a larger query gets 400. 0
	// means DefaultMaxQuery and DefaultMaxPatterns.
	MaxQuery, MaxPatterns int
	// WriteStall is how long a response may wait for a client that does
	// not read before the query is aborted. 0 means DefaultWriteStall.
	WriteStall time.Duration
	// ReadTimeout bounds reading a request's body. 0 means
	// DefaultReadTimeout.
	ReadTimeout time.Duration
	// MaxRows cuts a result after this many solutions or triples (the
	// X-SPARQL-MaxRows response header says so). 0 means DefaultMaxRows,
	// negative means no limit.
	MaxRows int
	// Query configures how queries are prepared (default graph, base,
	// the rows held in memory: 0 there means DefaultMemoryRows).
	Query sparql.Options
	// Log receives one line per failed or truncated query; nil means
	// slog.Default().
	Log *slog.Logger
}

// Store gives each query a consistent snapshot; *graph.Store is one.
type Store interface {
	Snapshot() *graph.View
}

// Handler answers SPARQL 1.1 Protocol queries. Updates are refused: the
// endpoint is read-only.
type Handler struct {
	store Store
	cfg   Config
	admit *admission
}

// New returns a handler over store with cfg's limits.
func New(store Store, cfg Config) *Handler {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.MaxExpensive <= 0 {
		cfg.MaxExpensive = max(1, cfg.MaxConcurrent/2)
	}
	if cfg.ExpensiveCost <= 0 {
		cfg.ExpensiveCost = DefaultExpensiveCost
	}
	if cfg.MaxQueued <= 0 {
		cfg.MaxQueued = 64 * cfg.MaxConcurrent
	}
	if cfg.MaxQuery <= 0 {
		cfg.MaxQuery = DefaultMaxQuery
	}
	if cfg.MaxPatterns <= 0 {
		cfg.MaxPatterns = DefaultMaxPatterns
	}
	if cfg.WriteStall <= 0 {
		cfg.WriteStall = DefaultWriteStall
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.MaxRows == 0 {
		cfg.MaxRows = DefaultMaxRows
	}
	if cfg.Query.MaxRows == 0 {
		cfg.Query.MaxRows = DefaultMemoryRows
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Handler{store: store, cfg: cfg,
		admit: newAdmission(cfg.MaxConcurrent, cfg.MaxExpensive, cfg.MaxQueued, cfg.MaxConcurrent)}
}

// request is a protocol request once its parameters are read.
type request struct {
	query   string
	timeout time.Duration
	formats []string // format/output parameter values
	accept  string
	// from and fromNamed are the protocol's dataset (default-graph-uri,
	// named-graph-uri): when given, they replace the query's FROM and
	// FROM NAMED (SPARQL 1.1 Protocol §2.1.4).
	from, fromNamed []string
}

// httpError is a failure with the status it is answered with.
type httpError struct {
	status int
	msg    string
	busy   bool // refused for load: the client may retry soon
}

func (e *httpError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) *httpError {
	return &httpError{status: status, msg: fmt.Sprintf(format, args...)}
}

// ServeHTTP implements the query operation of the SPARQL 1.1 Protocol.
// The query's timeout runs from here; the body must arrive within
// ReadTimeout.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(start.Add(h.cfg.ReadTimeout))
	req, err := h.parse(w, r)
	// No deadline while the query runs: the server's read of the idle
	// connection is what notices a client that goes away.
	_ = rc.SetReadDeadline(time.Time{})
	if err != nil {
		writeError(w, err)
		return
	}
	if len(req.query) > h.cfg.MaxQuery {
		writeError(w, errorf(http.StatusBadRequest, "the query is %d bytes, more than the %d this endpoint accepts", len(req.query), h.cfg.MaxQuery))
		return
	}
	ctx, cancel := context.WithDeadline(r.Context(), start.Add(req.timeout))
	defer cancel()
	h.answer(ctx, w, r, req)
}

// parse reads the query and its parameters from a GET, a URL-encoded
// POST or a POST with the query as body.
func (h *Handler) parse(w http.ResponseWriter, r *http.Request) (*request, *httpError) {
	var params url.Values
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		params = r.URL.Query()
	case http.MethodPost:
		ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			return nil, errorf(http.StatusUnsupportedMediaType, "POST needs a Content-Type: application/x-www-form-urlencoded or application/sparql-query")
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxBodyBytes)
		switch ct {
		case "application/x-www-form-urlencoded":
			if err := r.ParseForm(); err != nil {
				return nil, errorf(http.StatusBadRequest, "reading the form: %v", err)
			}
			params = r.Form
		case "application/sparql-query":
			b, err := io.ReadAll(r.Body)
			if err != nil {
				return nil, errorf(http.StatusBadRequest, "reading the query: %v", err)
			}
			params = r.URL.Query()
			if params.Has("query") {
				return nil, errorf(http.StatusBadRequest, "a query in the body and another in the URL")
			}
			params.Set("query", string(b))
		case "application/sparql-update":
			return nil, errorf(http.StatusForbidden, "this endpoint is read-only: SPARQL Update is not accepted")
		default:
			return nil, errorf(http.StatusUnsupportedMediaType, "unsupported Content-Type %q: send application/x-www-form-urlencoded or application/sparql-query", ct)
		}
	default:
		w.Header().Set("Allow", "GET, HEAD, POST")
		return nil, errorf(http.StatusMethodNotAllowed, "method %s not allowed: use GET or POST", r.Method)
	}
	if params.Has("update") {
		return nil, errorf(http.StatusForbidden, "this endpoint is read-only: SPARQL Update is not accepted")
	}
	qs := params["query"]
	switch {
	case len(qs) == 0:
		return nil, errorf(http.StatusBadRequest, "no query: give the SPARQL query in the query parameter")
	case len(qs) > 1:
		return nil, errorf(http.StatusBadRequest, "%d query parameters: give exactly one", len(qs))
	}
	req := &request{query: qs[0], timeout: h.cfg.Timeout, accept: r.Header.Get("Accept"),
		from: params["default-graph-uri"], fromNamed: params["named-graph-uri"]}
	for _, iri := range append(slices.Clone(req.from), req.fromNamed...) {
		if u, err := url.Parse(iri); err != nil || !u.IsAbs() {
			return nil, errorf(http.StatusBadRequest, "graph IRI %q: want an absolute IRI", iri)
		}
	}
	req.formats = append(append(req.formats, params["format"]...), params["output"]...)
	if t := params.Get("timeout"); t != "" {
		d, err := ParseTimeout(t)
		if err != nil {
			return nil, errorf(http.StatusBadRequest, "timeout %q: %v", t, err)
		}
		req.timeout = min(d, h.cfg.Timeout)
	}
	return req, nil
}

// ParseTimeout reads a timeout parameter: seconds, as Fuseki takes it,
// or a duration with its unit ("500ms").
func ParseTimeout(s string) (time.Duration, error) {
	var d time.Duration
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		d = time.Duration(secs * float64(time.Second))
	} else if d, err = time.ParseDuration(s); err != nil {
		return 0, errors.New("want seconds or a duration such as 500ms")
	}
	if d <= 0 {
		return 0, errors.New("must be positive")
	}
	return d, nil
}

func writeError(w http.ResponseWriter, err *httpError) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	if err.busy {
		h.Set("Retry-After", "1")
	}
	w.WriteHeader(err.status)
	io.WriteString(w, strings.TrimRight(err.msg, "\n")+"\n")
}
