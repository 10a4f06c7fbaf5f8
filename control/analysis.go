package control

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/analysis"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/rdf"
)

// Routes of the analysis jobs:
//
//	POST  /api/analyses          {"crawl": ID, "entities": YAML}: analyse a crawl's texts (202)
//	GET   /api/analyses          the analyses run since the server started
//	GET   /api/analyses/ID       the latest analysis of crawl ID: state and progress

// analyses are the analysis jobs of a Manager, by crawl id.
type analyses struct {
	mu   sync.Mutex
	jobs map[string]*analysisJob
	runs sync.WaitGroup
}

// analysisJob is one analysis run in the server.
type analysisJob struct {
	mu     sync.Mutex
	state  api.Analysis
	cancel context.CancelFunc
	done   chan struct{}
}

func (j *analysisJob) get() api.Analysis {
	j.mu.Lock()
	defer j.mu.Unlock()
	s := j.state
	if s.State == "running" {
		s.ElapsedSeconds = time.Since(s.Started).Seconds()
	}
	return s
}

// Analyze starts the analysis of crawl req.Crawl in the background: 409
// while one runs for it.
func (m *Manager) Analyze(req api.AnalysisRequest) (api.Analysis, error) {
	if !spec.ValidID(req.Crawl) {
		return api.Analysis{}, &InputError{fmt.Errorf("crawl %q: not a crawl id", req.Crawl)}
	}
	o := analysis.Options{Store: m.deps.Store, Data: m.data, Crawl: req.Crawl, NoStoreNames: req.NoStoreNames, Log: m.deps.Log}
	if req.Entities != "" {
		known, err := analysis.ParseEntities([]byte(req.Entities), "entities")
		if err != nil {
			return api.Analysis{}, &InputError{err}
		}
		o.Known = known
	}
	a := &m.analyses
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.jobs == nil {
		a.jobs = map[string]*analysisJob{}
	}
	if j := a.jobs[req.Crawl]; j != nil && j.get().State == "running" {
		return j.get(), fmt.Errorf("an analysis of crawl %s is running: %w", req.Crawl, ErrConflict)
	}
	v := m.deps.Store.Snapshot()
	_, ok, err := v.Lookup(analysisCrawlTerm(req.Crawl))
	v.Close()
	if err != nil {
		return api.Analysis{}, err
	}
	if !ok {
		return api.Analysis{}, fmt.Errorf("crawl %q has no graph in the store: %w", req.Crawl, ErrUnknown)
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &analysisJob{cancel: cancel, done: make(chan struct{}),
		state: api.Analysis{Crawl: req.Crawl, Graph: analysis.GraphIRI(req.Crawl), State: "running", Started: time.Now().UTC(), Stage: "texts"}}
	o.Progress = func(p analysis.Progress) {
		j.mu.Lock()
		defer j.mu.Unlock()
		s := &j.state
		s.Stage, s.Captures, s.Done, s.Texts, s.Skipped, s.Bytes, s.Mentions = p.Stage, p.Captures, p.Done, p.Texts, p.Skipped, p.Bytes, p.Mentions
	}
	a.jobs[req.Crawl] = j
	a.runs.Add(1)
	go func() {
		defer a.runs.Done()
		defer close(j.done)
		defer cancel()
		rep, err := analysis.Run(ctx, o)
		j.mu.Lock()
		defer j.mu.Unlock()
		s := &j.state
		s.ElapsedSeconds = time.Since(s.Started).Seconds()
		if err != nil {
			s.State, s.Error = "failed", m.relative(err.Error())
			if m.deps.Log != nil {
				fmt.Fprintf(m.deps.Log, "analysis %s: %v\n", req.Crawl, err)
			}
			return
		}
		s.State, s.Stage = "finished", rep.Stage
		s.Entities, s.Previous, s.Versions, s.NameChanges = rep.Entities, rep.Previous, rep.Versions, rep.NameChanges
		s.TopicsPending = rep.TopicsPending
	}()
	return j.get(), nil
}

// Analysis returns the latest analysis of a crawl run here.
func (m *Manager) Analysis(crawl string) (api.Analysis, error) {
	a := &m.analyses
	a.mu.Lock()
	j := a.jobs[crawl]
	a.mu.Unlock()
	if j == nil {
		return api.Analysis{}, fmt.Errorf("no analysis of crawl %q ran in this server: %w", crawl, ErrUnknown)
	}
	return j.get(), nil
}

// Analyses lists the analyses run here, by crawl id.
func (m *Manager) Analyses() []api.Analysis {
	a := &m.analyses
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]api.Analysis, 0, len(a.jobs))
	for _, j := range a.jobs {
		out = append(out, j.get())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Crawl < out[j].Crawl })
	return out
}

// stopAnalyses cancels the running analyses and waits for them: each
// stops after its current commit and continues when started again.
func (m *Manager) stopAnalyses() {
	a := &m.analyses
	a.mu.Lock()
	for _, j := range a.jobs {
		j.cancel()
	}
	a.mu.Unlock()
	a.runs.Wait()
}

// analysisRoutes adds the routes of the analysis jobs.
func (h *Handler) analysisRoutes() {
	h.mux.HandleFunc("POST /api/analyses", h.write(h.analyze))
	h.mux.HandleFunc("GET /api/analyses", h.read(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, h.m.Analyses())
	}))
	h.mux.HandleFunc("GET /api/analyses/{crawl}", h.read(func(w http.ResponseWriter, r *http.Request) {
		s, err := h.m.Analysis(r.PathValue("crawl"))
		if err != nil {
			h.fail(w, err)
			return
		}
		writeJSON(w, http.StatusOK, s)
	}))
}

func (h *Handler) analyze(w http.ResponseWriter, r *http.Request) {
	b, ok := body(w, r)
	if !ok {
		return
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var req api.AnalysisRequest
	if err := dec.Decode(&req); err != nil && !errors.Is(err, io.EOF) {
		writeError(w, http.StatusBadRequest, "bad JSON: "+err.Error()+` (want {"crawl": "ID"})`, nil)
		return
	}
	s, err := h.m.Analyze(req)
	if err != nil {
		h.fail(w, err)
		return
	}
	w.Header().Set("Location", "/api/analyses/"+req.Crawl)
	writeJSON(w, http.StatusAccepted, s)
}

// analysisCrawlTerm is the IRI of a crawl, which names its graph.
func analysisCrawlTerm(id string) rdf.Term { return rdf.IRI(analysis.CrawlIRI(id)) }
