package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// MaxBody is the largest spec, seeds or scope body accepted.
const MaxBody = 1 << 20

// Handler serves the control API of a Manager.
type Handler struct {
	m        *Manager
	token    string
	interval time.Duration
	mux      *http.ServeMux
	public   bool        // reads without the token
	cluster  ClusterView // a crawler node's cluster (SetCluster)
}

// NewHandler serves m; every request needs the bearer token (reads too,
// unless SetPublicReads: a page in a local browser must not read crawls).
// Event streams send a status every interval (default one second).
func NewHandler(m *Manager, token string, interval time.Duration) *Handler {
	if interval <= 0 {
		interval = time.Second
	}
	h := &Handler{m: m, token: token, interval: interval, mux: http.NewServeMux()}
	mux := h.mux
	mux.HandleFunc("GET /api/crawls", h.read(h.list))
	mux.HandleFunc("POST /api/crawls", h.write(h.create))
	mux.HandleFunc("GET /api/crawls/{id}", h.read(h.get))
	mux.HandleFunc("GET /api/crawls/{id}/status", h.read(h.status))
	mux.HandleFunc("POST /api/crawls/{id}/{action}", h.write(h.action))
	mux.HandleFunc("GET /api/crawls/{id}/events", h.read(h.events))
	mux.HandleFunc("GET /api/crawls/{id}/queues", h.read(h.queues))
	mux.HandleFunc("GET /api/crawls/{id}/frontier", h.read(h.frontier))
	mux.HandleFunc("GET /api/crawls/{id}/log", h.read(h.log))
	mux.HandleFunc("GET /api/crawls/{id}/warcs", h.read(h.warcs))
	mux.HandleFunc("POST /api/crawls/{id}/seeds", h.write(h.seeds))
	mux.HandleFunc("PATCH /api/crawls/{id}/scope", h.write(h.scope))
	mux.HandleFunc("GET /api/learned", h.read(h.learned))
	mux.HandleFunc("GET /api/learned/{id}/preview", h.read(h.preview))
	mux.HandleFunc("POST /api/learned/{id}/{action}", h.write(h.review))
	h.socialRoutes(m.social)
	h.focusRoutes(mux)
	h.analysisRoutes()
	h.entityRoutes()
	inj := &inject.Handler{Token: token, Lookup: m.target}
	mux.Handle("POST /crawls/{id}/urls", h.write(inj.ServeHTTP))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such resource: %s %s", r.Method, r.URL.Path), nil)
	})
	return h
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

// SetPublicReads lets reads (GET) through without the token, for a
// server whose operator chose so; writes still need it.
func (h *Handler) SetPublicReads(public bool) { h.public = public }

// read admits reads: with the token, or without when reads are public.
func (h *Handler) read(next http.HandlerFunc) http.HandlerFunc {
	guarded := h.write(next)
	return func(w http.ResponseWriter, r *http.Request) {
		if h.public {
			next(w, r)
			return
		}
		guarded(w, r)
	}
}

// write admits requests carrying the bearer token: 401 without one, 403
// with a wrong one.
func (h *Handler) write(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		switch err := inject.Authorize(r, h.token); {
		case errors.Is(err, inject.ErrNoToken):
			w.Header().Set("WWW-Authenticate", `Bearer realm="mneme"`)
			writeError(w, http.StatusUnauthorized, err.Error(), nil)
		case err != nil:
			writeError(w, http.StatusForbidden, err.Error(), nil)
		default:
			next(w, r)
		}
	}
}

func writeError(w http.ResponseWriter, code int, msg string, detail any) {
	writeJSON(w, code, api.ErrorBody{Error: msg, Detail: detail})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// fail answers a Manager error with its status code. The message names
// files relative to the data folder: where the folder lies on the
// server's disk is not the client's business.
func (h *Handler) fail(w http.ResponseWriter, err error) {
	msg := h.m.relative(err.Error())
	var in *InputError
	switch {
	case errors.As(err, &in):
		writeError(w, http.StatusBadRequest, msg, nil)
	case errors.Is(err, ErrUnknown):
		writeError(w, http.StatusNotFound, msg, nil)
	case errors.Is(err, ErrConflict):
		writeError(w, http.StatusConflict, msg, nil)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusServiceUnavailable, msg, nil)
	default:
		writeError(w, http.StatusInternalServerError, msg, nil)
	}
}

// body reads a request body of at most MaxBody bytes, answering the error
// itself.
func body(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", MaxBody), nil)
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, "reading the request: "+err.Error(), nil)
		return nil, false
	case len(bytes.TrimSpace(b)) == 0:
		writeError(w, http.StatusBadRequest, "empty body", nil)
		return nil, false
	}
	return b, true
}

func (h *Handler) list(w http.ResponseWriter, r *http.Request) {
	all, err := h.m.List()
	if err != nil {
		h.fail(w, err)
		return
	}
	out := make([]api.Status, 0, len(all))
	for _, s := range all {
		_, live, _ := h.m.Status(s.ID)
		out = append(out, toStatus(s, live))
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) create(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r)
	if !ok {
		return
	}
	s, err := h.m.Create(b)
	if err != nil {
		h.fail(w, err)
		return
	}
	w.Header().Set("Location", "/api/crawls/"+s.ID)
	writeJSON(w, http.StatusCreated, toStatus(s, true))
}

func (h *Handler) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	s, live, err := h.m.Status(id)
	if err != nil {
		h.fail(w, err)
		return
	}
	sp, err := h.m.Spec(id)
	if err != nil {
		h.fail(w, err)
		return
	}
	y, err := sp.Marshal()
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, api.Crawl{Status: toStatus(s, live), Spec: string(y)})
}

func (h *Handler) status(w http.ResponseWriter, r *http.Request) {
	s, live, err := h.m.Status(r.PathValue("id"))
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, toStatus(s, live))
}

func (h *Handler) action(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if h.clusterAction(w, r, id, r.PathValue("action")) {
		return
	}
	var s crawler.Status
	var err error
	switch a := r.PathValue("action"); a {
	case "start":
		s, err = h.m.Start(id)
	case "pause":
		s, err = h.m.Pause(id)
	case "resume":
		s, err = h.m.Resume(id)
	case "stop":
		s, err = h.m.Stop(r.Context(), id)
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("no action %q: use start, pause, resume or stop", a), nil)
		return
	}
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, toStatus(s, true))
}

// events streams the status as server-sent events ("status", every
// interval) until the crawl's run ends ("end", with the last status) or
// the client goes.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if _, _, err := h.m.Status(id); err != nil {
		h.fail(w, err)
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	t := time.NewTicker(h.interval)
	defer t.Stop()
	for {
		s, live, err := h.m.Status(id)
		if err != nil {
			return
		}
		event := "status"
		if !live || s.State == crawler.StateStopped || s.State == crawler.StateFinished {
			event = "end"
		}
		data, _ := json.Marshal(toStatus(s, live))
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data); err != nil {
			return
		}
		if err := rc.Flush(); err != nil || event == "end" {
			return
		}
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		}
	}
}

func (h *Handler) queues(w http.ResponseWriter, r *http.Request) {
	limit, ok := count(w, r, "limit", 1000)
	if !ok {
		return
	}
	qs, n, err := h.m.Queues(r.PathValue("id"), limit)
	if err != nil {
		h.fail(w, err)
		return
	}
	out := api.Queues{Total: n, Queues: make([]api.Queue, 0, len(qs))}
	for _, q := range qs {
		out.Queues = append(out.Queues, toQueue(q))
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) seeds(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r)
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var req api.Seeds
	if err := dec.Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "bad JSON: "+err.Error()+` (want {"add": ["URL", …]})`, nil)
		return
	}
	if len(req.Add) == 0 {
		writeError(w, http.StatusBadRequest, `"add": at least one seed URL is required`, nil)
		return
	}
	h.edit(w, r, func(s *spec.Spec) error {
		s.Seeds = append(s.Seeds, req.Add...)
		return nil
	})
}

// scope changes the scope fields the body gives (YAML, or JSON, which is
// YAML too), keeping the others.
func (h *Handler) scope(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r)
	if !ok {
		return
	}
	h.edit(w, r, func(s *spec.Spec) error {
		sc := s.Scope
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&sc); err != nil {
			return fmt.Errorf("scope: %w", err)
		}
		s.Scope = sc
		return nil
	})
}

func (h *Handler) edit(w http.ResponseWriter, r *http.Request, change func(*spec.Spec) error) {
	s, err := h.m.Edit(r.PathValue("id"), change)
	if err != nil {
		h.fail(w, err)
		return
	}
	y, err := s.Marshal()
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, api.Spec{Spec: string(y)})
}
