package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/social/builtin"
	"github.com/mneme-archive/mneme/social/campaign"
)

// Social runs the social campaigns of a data folder in this process
// (package social/campaign), beside the crawls of the Manager and on the
// same store.
type Social struct {
	layout campaign.Layout
	store  *graph.Store
	// target finds a crawl to inject a campaign's shared links into
	// (the Manager's); nil without crawls.
	target func(id string) (inject.Target, bool)

	mu   sync.Mutex
	open map[string]*socialRun
	runs sync.WaitGroup
}

// socialRun is a campaign run by this process.
type socialRun struct {
	r      *campaign.Runner
	cancel context.CancelFunc
	done   chan struct{}
	err    error // Run's, once done is closed
}

func (sr *socialRun) running() bool {
	select {
	case <-sr.done:
		return false
	default:
		return true
	}
}

// NewSocial manages the campaigns of data folder data; st must be its
// store.
func NewSocial(data string, st *graph.Store) *Social {
	return &Social{layout: campaign.Layout{Data: data}, store: st, open: map[string]*socialRun{}}
}

// Campaigns lists every campaign's status.
func (s *Social) Campaigns(ctx context.Context) ([]api.Campaign, error) {
	ids, err := s.layout.IDs()
	if err != nil {
		return nil, err
	}
	out := make([]api.Campaign, 0, len(ids))
	for _, id := range ids {
		c, err := s.Status(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// Status returns a campaign's status: live when this process runs it,
// else from its state file and the store.
func (s *Social) Status(ctx context.Context, id string) (api.Campaign, error) {
	s.mu.Lock()
	sr := s.open[id]
	s.mu.Unlock()
	spec, err := s.layout.LoadSpec(id)
	if err != nil {
		return api.Campaign{}, fmt.Errorf("%w: %w", err, ErrUnknown)
	}
	c := api.Campaign{ID: id, BudgetRequests: spec.Budget.Requests, BudgetPosts: spec.Budget.Posts}
	var st campaign.Status
	if sr != nil && sr.running() {
		st = sr.r.Status()
		c.Live = true
		if st.State == "" || st.State == campaign.Created {
			st.State = campaign.Running // started, not yet begun
		}
	} else {
		state, err := s.layout.ReadState(id)
		if err != nil {
			return api.Campaign{}, err
		}
		pairs, err := campaign.ReadStatus(ctx, s.store, spec)
		if err != nil {
			return api.Campaign{}, err
		}
		st = campaign.Status{ID: id, State: state.State, Reason: state.Reason, Pairs: pairs}
		for _, p := range pairs {
			st.Posts += p.Posts
			st.Requests += p.Requests
			st.Pass = max(st.Pass, p.Pass)
		}
		if sr != nil {
			// Run here before: its run has the errors the store does
			// not keep.
			ran := sr.r.Status()
			st.LastErrors = ran.LastErrors
			for i, p := range st.Pairs {
				for _, q := range ran.Pairs {
					if p.Platform == q.Platform && p.Kind == q.Kind && p.Query == q.Query {
						st.Pairs[i].Errors, st.Pairs[i].LastError = q.Errors, q.LastError
					}
				}
			}
			if sr.err != nil {
				st.Reason = sr.err.Error()
			}
		}
	}
	c.State, c.Reason, c.Pass, c.Posts, c.Requests, c.LastErrors = st.State, st.Reason, st.Pass, st.Posts, st.Requests, st.LastErrors
	for _, p := range st.Pairs {
		c.Pairs = append(c.Pairs, api.CampaignPair{Platform: p.Platform, Kind: p.Kind, Query: p.Query, Derived: p.Derived,
			Pass: p.Pass, Done: p.Done, Posts: p.Posts, Requests: p.Requests, Errors: p.Errors, LastError: p.LastError})
	}
	return c, nil
}

// Create creates a campaign from a YAML spec, without starting it.
func (s *Social) Create(ctx context.Context, yaml []byte) (api.Campaign, error) {
	spec, err := campaign.Parse(yaml, "spec")
	if err != nil {
		return api.Campaign{}, &InputError{err}
	}
	if spec.ID == "" {
		spec.ID = campaign.NewID(time.Now())
	}
	if err := s.layout.Create(spec); err != nil {
		if _, statErr := os.Stat(s.layout.Dir(spec.ID)); statErr == nil {
			return api.Campaign{}, fmt.Errorf("%w: %w", err, ErrConflict)
		}
		return api.Campaign{}, err
	}
	return s.Status(ctx, spec.ID)
}

// Start runs a campaign in this process, resuming it where it was.
func (s *Social) Start(ctx context.Context, id string) (api.Campaign, error) {
	spec, err := s.layout.LoadSpec(id)
	if err != nil {
		return api.Campaign{}, fmt.Errorf("%w: %w", err, ErrUnknown)
	}
	s.mu.Lock()
	if sr := s.open[id]; sr != nil && sr.running() {
		s.mu.Unlock()
		return api.Campaign{}, fmt.Errorf("campaign %s is running: %w", id, ErrConflict)
	}
	secrets, err := campaign.LoadSecrets(s.layout.Secrets(), os.Environ())
	if err != nil {
		s.mu.Unlock()
		return api.Campaign{}, err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	sr := &socialRun{r: &campaign.Runner{Layout: s.layout, Spec: spec, Store: s.store, Platforms: builtin.Platforms(), Secrets: secrets,
		Links: s.injectLinks}, cancel: cancel, done: make(chan struct{})}
	s.open[id] = sr
	s.runs.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.runs.Done()
		defer close(sr.done)
		sr.err = sr.r.Run(runCtx)
	}()
	return s.Status(ctx, id)
}

// running returns the run of a campaign this process runs.
func (s *Social) running(id string) (*socialRun, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	sr := s.open[id]
	if sr == nil || !sr.running() {
		if _, err := s.layout.LoadSpec(id); err != nil {
			return nil, fmt.Errorf("%w: %w", err, ErrUnknown)
		}
		return nil, fmt.Errorf("campaign %s is not running here (start it): %w", id, ErrConflict)
	}
	return sr, nil
}

// Pause pauses a running campaign after its page in flight.
func (s *Social) Pause(ctx context.Context, id string) (api.Campaign, error) {
	sr, err := s.running(id)
	if err != nil {
		return api.Campaign{}, err
	}
	sr.r.Pause()
	return s.Status(ctx, id)
}

// Resume resumes a paused campaign: in this process when it runs here,
// else by starting it.
func (s *Social) Resume(ctx context.Context, id string) (api.Campaign, error) {
	sr, err := s.running(id)
	if errors.Is(err, ErrConflict) {
		return s.Start(ctx, id)
	}
	if err != nil {
		return api.Campaign{}, err
	}
	sr.r.Resume()
	return s.Status(ctx, id)
}

// Stop ends a running campaign after its page in flight, and waits for
// it.
func (s *Social) Stop(ctx context.Context, id string) (api.Campaign, error) {
	sr, err := s.running(id)
	if err != nil {
		return api.Campaign{}, err
	}
	sr.r.Stop()
	select {
	case <-sr.done:
	case <-ctx.Done():
		return api.Campaign{}, ctx.Err()
	}
	return s.Status(ctx, id)
}

// AddPair adds a pair to a campaign's spec, and to its run when it runs.
func (s *Social) AddPair(ctx context.Context, id string, p api.NewPair) (api.Campaign, error) {
	spec, err := s.layout.LoadSpec(id)
	if err != nil {
		return api.Campaign{}, fmt.Errorf("%w: %w", err, ErrUnknown)
	}
	pair := campaign.Pair{Platform: p.Platform, Kind: p.Kind, Query: p.Query}
	spec.Pairs = append(spec.Pairs, pair)
	if err := spec.Check(); err != nil {
		return api.Campaign{}, &InputError{err}
	}
	s.mu.Lock()
	sr := s.open[id]
	s.mu.Unlock()
	if sr != nil && sr.running() {
		if err := sr.r.AddPair(ctx, pair); err != nil {
			return api.Campaign{}, &InputError{err}
		}
	}
	if err := s.layout.WriteSpec(spec); err != nil {
		return api.Campaign{}, err
	}
	return s.Status(ctx, id)
}

// injectLinks schedules a campaign's shared links in its linked crawl,
// with their scores (the crawl's update function combines them with
// those the URLs had), as its URL injection service would: URLs the
// crawl refuses (out of its scope) are left out.
func (s *Social) injectLinks(ctx context.Context, crawl string, links []campaign.SharedLink) error {
	if s.target == nil {
		return errors.New("this process runs no crawls")
	}
	t, ok := s.target(crawl)
	if !ok {
		return fmt.Errorf("no crawl %s", crawl)
	}
	type item struct {
		URL   string  `json:"url"`
		Score float64 `json:"score"`
	}
	raw := make([]item, len(links))
	for i, l := range links {
		raw[i] = item{l.URL, l.Score}
	}
	body, err := json.Marshal(raw)
	if err != nil {
		return err
	}
	items, err := inject.Parse(body, canon.New(canon.Options{}))
	if err != nil {
		return err
	}
	for len(items) > 0 {
		_, err := t.Inject(ctx, items)
		var refused *inject.RefusedError
		if !errors.As(err, &refused) || refused.Item < 1 || refused.Item > len(items) {
			return err
		}
		items = append(items[:refused.Item-1], items[refused.Item:]...)
	}
	return nil
}

// Close stops every run and waits for them to end.
func (s *Social) Close() {
	s.mu.Lock()
	for _, sr := range s.open {
		sr.cancel()
	}
	s.mu.Unlock()
	s.runs.Wait()
}

// socialRoutes serves the campaigns under /api/social.
func (h *Handler) socialRoutes(s *Social) {
	h.mux.HandleFunc("GET /api/social", h.read(func(w http.ResponseWriter, r *http.Request) {
		out, err := s.Campaigns(r.Context())
		h.answer(w, http.StatusOK, out, err)
	}))
	h.mux.HandleFunc("POST /api/social", h.write(func(w http.ResponseWriter, r *http.Request) {
		b, ok := body(w, r)
		if !ok {
			return
		}
		c, err := s.Create(r.Context(), b)
		if err == nil {
			w.Header().Set("Location", "/api/social/"+c.ID)
		}
		h.answer(w, http.StatusCreated, c, err)
	}))
	h.mux.HandleFunc("GET /api/social/{id}", h.read(func(w http.ResponseWriter, r *http.Request) {
		c, err := s.Status(r.Context(), r.PathValue("id"))
		h.answer(w, http.StatusOK, c, err)
	}))
	h.mux.HandleFunc("POST /api/social/{id}/pairs", h.write(func(w http.ResponseWriter, r *http.Request) {
		b, ok := body(w, r)
		if !ok {
			return
		}
		var p api.NewPair
		if err := json.Unmarshal(b, &p); err != nil {
			writeError(w, http.StatusBadRequest, "a pair is {\"platform\", \"kind\", \"query\"}: "+err.Error(), nil)
			return
		}
		c, err := s.AddPair(r.Context(), r.PathValue("id"), p)
		h.answer(w, http.StatusOK, c, err)
	}))
	h.mux.HandleFunc("POST /api/social/{id}/{action}", h.write(func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		var c api.Campaign
		var err error
		switch a := r.PathValue("action"); a {
		case "start":
			c, err = s.Start(r.Context(), id)
		case "pause":
			c, err = s.Pause(r.Context(), id)
		case "resume":
			c, err = s.Resume(r.Context(), id)
		case "stop":
			c, err = s.Stop(r.Context(), id)
		default:
			writeError(w, http.StatusNotFound, fmt.Sprintf("no action %q: use start, pause, resume or stop", a), nil)
			return
		}
		h.answer(w, http.StatusOK, c, err)
	}))
}

// answer writes v with code, or the error.
func (h *Handler) answer(w http.ResponseWriter, code int, v any, err error) {
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, code, v)
}
