package api

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	cgraph "github.com/cayleygraph/cayley/graph"
	"github.com/cayleygraph/quad"
	"github.com/cayleygraph/quad/nquads"
	"github.com/dop251/goja"

	"github.com/mneme-archive/mneme/cayley"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/endpoint"
)

// Defaults of the zero Config, those of the SPARQL endpoint.
const (
	DefaultTimeout = 30 * time.Second
	DefaultMaxRows = 1_000_000
	maxBodyBytes   = 4 << 20  // a query
	maxWriteBytes  = 64 << 20 // N-Quads written in one request
	flushRows      = 256
)

// Config sets the handler's limits, as the SPARQL endpoint's.
type Config struct {
	// Timeout is the default and the longest time a query may run; a
	// client's timeout parameter (seconds, or a duration) can shorten it.
	Timeout time.Duration
	// MaxConcurrent bounds the queries running at once; more get 503 with
	// Retry-After. 0 means 2×GOMAXPROCS.
	MaxConcurrent int
	// MaxRows cuts a result after this many results (0: DefaultMaxRows,
	// negative: no limit); the X-Cayley-MaxRows header then says so.
	MaxRows int
	// Token enables /api/v2/write and /api/v2/delete for requests bearing
	// it, when the store is writable. Empty: the API is read-only.
	Token string
	// Log receives one line per failed or truncated query; nil means
	// slog.Default().
	Log *slog.Logger
}

// Handler serves Cayley's HTTP API v2 over a mneme store: POST or GET
// /api/v2/query?lang=gizmo|graphql, answered {"result": [...]} or
// {"error": "..."}; with Config.Token on a writable store, POST
// /api/v2/write and /api/v2/delete with N-Quads bodies.
type Handler struct {
	s   *graph.Store
	src *cayley.Source
	// sessions keeps the Gizmo sessions of finished queries for later
	// ones.
	sessions *Sessions
	cfg      Config
	slots    chan struct{}
	mux      *http.ServeMux
}

// New returns the handler over s.
func New(s *graph.Store, cfg Config) *Handler {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxConcurrent <= 0 {
		cfg.MaxConcurrent = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.MaxRows == 0 {
		cfg.MaxRows = DefaultMaxRows
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	h := &Handler{s: s, src: cayley.NewSource(s), cfg: cfg, slots: make(chan struct{}, cfg.MaxConcurrent), mux: http.NewServeMux()}
	h.sessions = NewSourceSessions(h.src, cfg.MaxConcurrent)
	h.mux.HandleFunc("/api/v2/query", h.query)
	h.mux.HandleFunc("/api/v2/write", func(w http.ResponseWriter, r *http.Request) { h.write(w, r, false) })
	h.mux.HandleFunc("/api/v2/delete", func(w http.ResponseWriter, r *http.Request) { h.write(w, r, true) })
	return h
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// Close releases what the handler's queries share (the scans of a
// read-only store): after the last query has returned, before the store
// closes.
func (h *Handler) Close() error { return h.src.Close() }

// jsonError answers {"error": msg} with a status.
func jsonError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}

func (h *Handler) query(w http.ResponseWriter, r *http.Request) {
	var text string
	switch r.Method {
	case http.MethodGet:
		text = r.URL.Query().Get("qu")
	case http.MethodPost:
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
		if err != nil {
			jsonError(w, http.StatusBadRequest, "reading the query: "+err.Error())
			return
		}
		text = string(b)
	default:
		w.Header().Set("Allow", "GET, POST")
		jsonError(w, http.StatusMethodNotAllowed, "use GET with qu= or POST with the query as body")
		return
	}
	params := r.URL.Query()
	lang := params.Get("lang")
	if lang != "gizmo" && lang != "graphql" {
		jsonError(w, http.StatusBadRequest, fmt.Sprintf("lang %q: want gizmo or graphql", lang))
		return
	}
	if strings.TrimSpace(text) == "" {
		jsonError(w, http.StatusBadRequest, "no query: POST it as the body or GET it as qu")
		return
	}
	timeout := h.cfg.Timeout
	if t := params.Get("timeout"); t != "" {
		d, err := endpoint.ParseTimeout(t)
		if err != nil {
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("timeout %q: %v", t, err))
			return
		}
		timeout = min(d, timeout)
	}
	limit := h.cfg.MaxRows
	if l := params.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n <= 0 {
			jsonError(w, http.StatusBadRequest, fmt.Sprintf("limit %q: want a positive number", l))
			return
		}
		if limit < 0 || n < limit {
			limit = n
		}
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	default:
		jsonError(w, http.StatusServiceUnavailable, fmt.Sprintf("%d queries are already running, the most this server allows: retry later", cap(h.slots)))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()

	// The first result commits the answer: before it, a failure gets its
	// status; after it, the connection is aborted, so that a client never
	// takes a cut answer for a whole one.
	committed := false
	n := 0
	rc := http.NewResponseController(w)
	truncated, err := h.sessions.Run(ctx, lang, text, limit, func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if !committed {
			committed = true
			w.Header().Set("Content-Type", "application/json")
			if limit > 0 {
				w.Header().Set("X-Cayley-MaxRows", strconv.Itoa(limit))
			}
			io.WriteString(w, `{"result":[`)
		} else {
			io.WriteString(w, ",")
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
		if n++; n%flushRows == 0 {
			return rc.Flush()
		}
		return nil
	})
	switch {
	case err != nil && committed:
		if !errors.Is(err, context.Canceled) {
			h.cfg.Log.Warn("cayley: query failed while streaming its result; connection aborted", "lang", lang, "err", err, "sent", n)
		}
		panic(http.ErrAbortHandler)
	case err != nil:
		h.queryError(w, err, timeout)
		return
	}
	if !committed {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"result":null}`+"\n")
		return
	}
	io.WriteString(w, "]}\n")
	if truncated && limit == h.cfg.MaxRows {
		h.cfg.Log.Warn("cayley: result cut at the row limit", "lang", lang, "max_rows", limit)
	}
}

func (h *Handler) queryError(w http.ResponseWriter, err error, timeout time.Duration) {
	var se *SyntaxError
	switch {
	case errors.As(err, &se):
		jsonError(w, http.StatusBadRequest, se.Error())
	case errors.Is(err, context.DeadlineExceeded):
		jsonError(w, http.StatusServiceUnavailable, fmt.Sprintf("query timed out after %v", timeout))
	case errors.Is(err, context.Canceled):
		jsonError(w, http.StatusServiceUnavailable, "query cancelled")
	default:
		var ex *goja.Exception
		if errors.As(err, &ex) { // a script error: the client's
			jsonError(w, http.StatusBadRequest, err.Error())
			return
		}
		h.cfg.Log.Error("cayley: query failed", "err", err)
		jsonError(w, http.StatusInternalServerError, "query failed: "+err.Error())
	}
}

// write adds (or deletes) the N-Quads of the body, for the bearer of the
// token on a writable store.
func (h *Handler) write(w http.ResponseWriter, r *http.Request, del bool) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		jsonError(w, http.StatusMethodNotAllowed, "use POST with N-Quads as the body")
		return
	}
	if h.cfg.Token == "" || h.s.ReadOnly() {
		jsonError(w, http.StatusForbidden, "this server is read-only: writes need mneme serve --data with its token")
		return
	}
	auth := r.Header.Get("Authorization")
	tok, ok := strings.CutPrefix(auth, "Bearer ")
	if !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(h.cfg.Token)) != 1 {
		w.Header().Set("WWW-Authenticate", "Bearer")
		jsonError(w, http.StatusUnauthorized, "writes need the bearer token of the data folder")
		return
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "" && ct != "application/n-quads" && ct != "text/plain" {
		jsonError(w, http.StatusUnsupportedMediaType, fmt.Sprintf("Content-Type %q: send application/n-quads", ct))
		return
	}
	quads, err := quad.ReadAll(nquads.NewReader(http.MaxBytesReader(w, r.Body, maxWriteBytes), false))
	if err != nil {
		jsonError(w, http.StatusBadRequest, "reading N-Quads: "+err.Error())
		return
	}
	qs := cayley.New(h.s)
	var n int
	if del {
		deltas := make([]cgraph.Delta, len(quads))
		for i, q := range quads {
			deltas[i] = cgraph.Delta{Quad: q, Action: cgraph.Delete}
		}
		err = qs.ApplyDeltas(deltas, cgraph.IgnoreOpts{IgnoreMissing: true})
		n = len(quads)
	} else {
		var qw quad.WriteCloser
		if qw, err = qs.NewQuadWriter(); err == nil {
			if n, err = qw.WriteQuads(quads); err == nil {
				err = qw.Close()
			}
		}
	}
	if err != nil {
		jsonError(w, http.StatusBadRequest, err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	verb := "Successfully wrote"
	if del {
		verb = "Successfully deleted"
	}
	json.NewEncoder(w).Encode(map[string]any{"result": fmt.Sprintf("%s %d quads.", verb, n), "count": n})
}
