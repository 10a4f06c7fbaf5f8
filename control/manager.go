package control

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"

	"github.com/mneme-archive/mneme/analysis/focus"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/kb/aah/setup"
)

// Errors of the Manager, which the handler turns into status codes.
var (
	ErrUnknown  = errors.New("no such crawl")              // 404
	ErrConflict = errors.New("not possible in this state") // 409
)

// InputError is a request the Manager refused as invalid (400).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Manager holds the crawls of one data folder that are open in this
// process. The store is the data folder's, opened once by the caller and
// shared with whatever else reads it (the SPARQL endpoint): Pebble allows
// one process per store.
type Manager struct {
	data string
	deps crawler.Deps
	ua   string // user agent for specs that give none

	loadKnowledge func() (*setup.Knowledge, error) // the AAH's KB, loaded once

	mu   sync.Mutex
	open map[string]*entry
	runs sync.WaitGroup

	closed figures // of the crawls not open here

	social   *Social  // the data folder's social campaigns
	analyses analyses // the analysis jobs (analysis.go)
}

// entry is a crawl opened by the Manager.
type entry struct {
	c    *crawler.Crawl
	done chan struct{} // nil until started; closed when Run returns
	// analyzer is the crawl's own application-aware helper (depsFor),
	// closed (its spilled sites removed) when Run returns; else nil.
	analyzer io.Closer
}

// newEntry returns the entry of c, crawling with the dependencies d.
func (m *Manager) newEntry(c *crawler.Crawl, d crawler.Deps) *entry {
	e := &entry{c: c}
	if d.Analyzer != m.deps.Analyzer {
		e.analyzer, _ = d.Analyzer.(io.Closer)
	}
	return e
}

func (e *entry) running() bool {
	if e.done == nil {
		return false
	}
	select {
	case <-e.done:
		return false
	default:
		return true
	}
}

// status is the crawl's status; a run just started counts as running
// before Run records it.
func (e *entry) status() crawler.Status {
	s := e.c.Status()
	if s.State == crawler.StateStopped && e.running() {
		s.State, s.Reason = crawler.StateRunning, ""
	}
	return s
}

func (e *entry) ended() bool { return e.done != nil && !e.running() }

// NewManager manages the crawls of data folder data; d.Store must be its
// store. userAgent is given to specs that set none. Each crawl whose spec
// leaves aah on gets its own application-aware helper with adaptation,
// as mneme crawl builds it (package kb/aah/setup: the built-in KB, the
// data folder's learned patterns), in place of d.Analyzer.
func NewManager(data string, d crawler.Deps, userAgent string) *Manager {
	if d.Focus == nil {
		d.Focus = focus.Open
	}
	m := &Manager{data: data, deps: d, ua: userAgent, open: map[string]*entry{}, social: NewSocial(data, d.Store),
		loadKnowledge: sync.OnceValues(func() (*setup.Knowledge, error) { return setup.Load(nil, "") })}
	m.social.target = m.target
	return m
}

// SetKnowledge makes the helpers of the crawls started from now on detect
// applications with k (a KB of its own, fingerprints) instead of the
// built-in KB. It must be called before the manager serves requests:
// mneme serve and mneme tui do so for their --kb and --fingerprints flags.
func (m *Manager) SetKnowledge(k *setup.Knowledge) {
	m.loadKnowledge = func() (*setup.Knowledge, error) { return k, nil }
}

// depsFor returns the dependencies of a crawl of specification s.
func (m *Manager) depsFor(s *spec.Spec) (crawler.Deps, error) {
	d := m.deps
	if !s.AAH {
		return d, nil
	}
	k, err := m.loadKnowledge()
	if err != nil {
		return d, err
	}
	h, err := k.Helper(setup.Options{Data: m.data, Store: d.Store, Log: d.Log})
	if err != nil {
		return d, err
	}
	d.Analyzer = h
	return d, nil
}

// List returns the status of every crawl of the data folder, by id.
func (m *Manager) List() ([]crawler.Status, error) {
	dirs, err := os.ReadDir(crawler.Layout{Data: m.data}.Crawls())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []crawler.Status
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		s, _, err := m.Status(d.Name())
		if errors.Is(err, ErrUnknown) {
			continue // a folder being created, or not a crawl
		}
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Status returns a crawl's status; live is true when the crawl is open
// here (live figures), false when read from its state file and
// crawl.log (the frontier's counts are then unknown: zero).
func (m *Manager) Status(id string) (s crawler.Status, live bool, err error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e != nil {
		return e.status(), true, nil
	}
	if !spec.ValidID(id) {
		return s, false, fmt.Errorf("crawl %q: %w", id, ErrUnknown)
	}
	s, err = m.closed.read(m.data, id)
	if errors.Is(err, os.ErrNotExist) {
		return s, false, fmt.Errorf("crawl %q: %w", id, ErrUnknown)
	}
	if err == nil && (s.State == crawler.StateRunning || s.State == crawler.StatePaused) {
		s.State, s.Reason = crawler.StateStopped, "interrupted: start it to resume"
	}
	return s, false, err
}

// Spec returns a crawl's specification.
func (m *Manager) Spec(id string) (*spec.Spec, error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e != nil {
		return e.c.Spec(), nil
	}
	if !spec.ValidID(id) {
		return nil, fmt.Errorf("crawl %q: %w", id, ErrUnknown)
	}
	s, err := spec.Load(crawler.Layout{Data: m.data}.Spec(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("crawl %q: %w", id, ErrUnknown)
	}
	return s, err
}

// Create creates a crawl from a YAML specification (its output, if set,
// must be this data folder) and keeps it open, ready to start.
func (m *Manager) Create(yaml []byte) (crawler.Status, error) {
	s, err := spec.Parse(yaml, "spec")
	if err != nil {
		return crawler.Status{}, &InputError{err}
	}
	if s.Output != "" && s.Output != m.data {
		return crawler.Status{}, &InputError{fmt.Errorf("output %q: crawls of this server go to its data folder %s; leave output out", s.Output, m.data)}
	}
	s.Output = m.data
	if s.UserAgent == "" {
		s.UserAgent = m.ua
	}
	if _, err := s.Check(canon.New(canon.Options{})); err != nil {
		return crawler.Status{}, &InputError{err}
	}
	d, err := m.depsFor(s)
	if err != nil {
		return crawler.Status{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	c, err := crawler.New(s, d)
	if errors.Is(err, crawler.ErrExists) {
		return crawler.Status{}, fmt.Errorf("%w: %w", err, ErrConflict)
	}
	if err != nil {
		return crawler.Status{}, err
	}
	m.open[c.ID()] = m.newEntry(c, d)
	return c.Status(), nil
}

// Start runs a crawl in the background, opening it first (a stopped or
// interrupted crawl resumes where it stopped).
func (m *Manager) Start(id string) (crawler.Status, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := m.open[id]
	if e != nil && e.running() {
		return e.status(), fmt.Errorf("crawl %s is running already: %w", id, ErrConflict)
	}
	if e == nil || e.ended() {
		if !spec.ValidID(id) {
			return crawler.Status{}, fmt.Errorf("crawl %q: %w", id, ErrUnknown)
		}
		if _, err := os.Stat(crawler.Layout{Data: m.data}.State(id)); errors.Is(err, os.ErrNotExist) {
			return crawler.Status{}, fmt.Errorf("crawl %q: %w", id, ErrUnknown)
		}
		s, err := spec.Load(crawler.Layout{Data: m.data}.Spec(id))
		if err != nil {
			return crawler.Status{}, err
		}
		d, err := m.depsFor(s)
		if err != nil {
			return crawler.Status{}, err
		}
		c, err := crawler.Open(m.data, id, d)
		if errors.Is(err, crawler.ErrFinished) {
			return crawler.Status{}, fmt.Errorf("%w: %w", err, ErrConflict)
		}
		if err != nil {
			return crawler.Status{}, err
		}
		e = m.newEntry(c, d)
		m.open[id] = e
	}
	e.done = make(chan struct{})
	m.runs.Add(1)
	go func() {
		defer m.runs.Done()
		defer close(e.done)
		err := e.c.Run(context.Background())
		if e.analyzer != nil {
			err = errors.Join(err, e.analyzer.Close())
		}
		if err != nil && m.deps.Log != nil {
			fmt.Fprintf(m.deps.Log, "crawl %s: %v\n", id, err)
		}
	}()
	return e.status(), nil
}

// Adopt makes a crawl that the caller runs itself (mneme crawl) one of
// the manager's running crawls: its status, queues, frontier, crawl.log
// and WARC files are served, and it can be paused, resumed and stopped.
// The caller calls ended once its Run has returned, and only then closes
// the manager.
func (m *Manager) Adopt(c *crawler.Crawl) (ended func()) {
	e := &entry{c: c, done: make(chan struct{})}
	m.mu.Lock()
	m.open[c.ID()] = e
	m.mu.Unlock()
	return sync.OnceFunc(func() { close(e.done) })
}

// running returns a crawl whose run is under way.
func (m *Manager) running(id string) (*entry, error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e != nil && e.running() {
		return e, nil
	}
	if _, _, err := m.Status(id); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("crawl %s is not running (start it): %w", id, ErrConflict)
}

// Pause stops a running crawl from claiming URLs.
func (m *Manager) Pause(id string) (crawler.Status, error) {
	e, err := m.running(id)
	if err != nil {
		return crawler.Status{}, err
	}
	e.c.Pause()
	return e.status(), nil
}

// Resume lets a paused crawl claim URLs again.
func (m *Manager) Resume(id string) (crawler.Status, error) {
	e, err := m.running(id)
	if err != nil {
		return crawler.Status{}, err
	}
	e.c.Resume()
	return e.status(), nil
}

// Stop ends a crawl's run and waits for it to end (or ctx).
func (m *Manager) Stop(ctx context.Context, id string) (crawler.Status, error) {
	e, err := m.running(id)
	if err != nil {
		return crawler.Status{}, err
	}
	e.c.Stop()
	select {
	case <-e.done:
	case <-ctx.Done():
		return crawler.Status{}, ctx.Err()
	}
	return e.status(), nil
}

// Edit changes the seeds and scope of a crawl open here and not ended:
// change gets a copy of its specification to modify.
func (m *Manager) Edit(id string, change func(s *spec.Spec) error) (*spec.Spec, error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e == nil || e.ended() {
		if _, _, err := m.Status(id); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("crawl %s is not open (start it): %w", id, ErrConflict)
	}
	s := *e.c.Spec()
	s.Seeds = append([]string(nil), s.Seeds...)
	if err := change(&s); err != nil {
		return nil, &InputError{err}
	}
	if _, err := s.Check(canon.New(canon.Options{})); err != nil {
		return nil, &InputError{err}
	}
	err := e.c.Edit(s.Seeds, s.Scope)
	if errors.Is(err, inject.ErrNotRunning) {
		return nil, fmt.Errorf("crawl %s ended: %w", id, ErrConflict)
	}
	if err != nil {
		return nil, err
	}
	return e.c.Spec(), nil
}

// Queues returns up to limit queues of a crawl open here, and how many
// there are.
func (m *Manager) Queues(id string, limit int) ([]frontier.QueueStats, int, error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e == nil {
		if _, _, err := m.Status(id); err != nil {
			return nil, 0, err
		}
		return nil, 0, fmt.Errorf("crawl %s is not open (start it): %w", id, ErrConflict)
	}
	var qs []frontier.QueueStats
	n := 0
	e.c.Queues(func(q frontier.QueueStats) bool {
		if len(qs) < limit {
			qs = append(qs, q)
		}
		n++
		return true
	})
	return qs, n, nil
}

// target is the crawl to inject URLs into: an open crawl takes them, a
// known one that is not open answers inject.ErrNotRunning.
func (m *Manager) target(id string) (inject.Target, bool) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e != nil {
		return e.c, true
	}
	if _, _, err := m.Status(id); err != nil {
		return nil, false
	}
	return closedTarget{}, true
}

type closedTarget struct{}

func (closedTarget) Inject(context.Context, []inject.Item) (inject.Result, error) {
	return inject.Result{}, inject.ErrNotRunning
}

// Close stops every run, waits for them to end and closes the crawls
// created and never started; the store can then be closed.
func (m *Manager) Close() error {
	m.mu.Lock()
	var errs []error
	for id, e := range m.open {
		switch {
		case e.running():
			e.c.Stop()
		case e.done == nil:
			errs = append(errs, e.c.Close())
		}
		delete(m.open, id)
	}
	m.mu.Unlock()
	m.runs.Wait()
	m.social.Close()
	m.stopAnalyses()
	return errors.Join(errs...)
}
