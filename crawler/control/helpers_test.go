package control

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/graph"
)

// site is a generated site on 127.0.0.1: pages /p/0 … /p/N-1, page i
// linking to 2i+1 and 2i+2; /p/0 also links to /p/gate, which answers only
// once the test opens the gate (or the request is cancelled), so that a
// crawl stays running until then.
type site struct {
	n    int
	srv  *httptest.Server
	mu   sync.Mutex
	hits map[string]int
	gate chan struct{} // closed: /p/gate answers
	hit  chan struct{} // gets a value when /p/gate is requested
	once sync.Once
}

func newSite(t *testing.T, n int) *site {
	s := &site{n: n, hits: map[string]int{}, gate: make(chan struct{}), hit: make(chan struct{}, 16)}
	s.srv = httptest.NewServer(s)
	t.Cleanup(s.srv.Close)
	t.Cleanup(s.open)
	return s
}

func (s *site) open() { s.once.Do(func() { close(s.gate) }) }

func (s *site) url(p string) string { return s.srv.URL + p }

func (s *site) hitCount(p string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[p]
}

func (s *site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	if r.URL.Path == "/p/gate" {
		select {
		case s.hit <- struct{}{}:
		default:
		}
		select {
		case <-s.gate:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "open")
		return
	}
	var i int
	if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= s.n {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	fmt.Fprintf(w, "<html><body><p>page %d</p>", i)
	for _, j := range []int{2*i + 1, 2*i + 2} {
		if j < s.n {
			fmt.Fprintf(w, `<a href="/p/%d">page %d</a>`, j, j)
		}
	}
	if i == 0 {
		fmt.Fprint(w, `<a href="/p/gate">gate</a>`)
	}
	fmt.Fprint(w, "</body></html>")
}

// server is a control API over a fresh data folder.
type server struct {
	data  string
	token string
	m     *Manager
	srv   *httptest.Server
}

func newServer(t *testing.T) *server {
	t.Helper()
	data := t.TempDir()
	l := crawler.Layout{Data: data}
	if err := os.MkdirAll(l.Store(), 0o755); err != nil {
		t.Fatal(err)
	}
	st, err := graph.Open(l.Store(), graph.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := inject.LoadToken(l.Token())
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(data, crawler.Deps{Store: st}, "mneme-test/1.0 (+https://example.org/contact)")
	srv := httptest.NewServer(NewHandler(m, tok, 0))
	t.Cleanup(func() {
		srv.Close()
		if err := m.Close(); err != nil {
			t.Error(err)
		}
		st.Close()
	})
	return &server{data: data, token: tok, m: m, srv: srv}
}

func (s *server) client() *Client { return &Client{Base: s.srv.URL, Token: s.token} }

// specYAML is a spec crawling seeds without politeness delays.
func specYAML(id string, seeds ...string) []byte {
	y := fmt.Sprintf("id: %s\nworkers: 2\npoliteness: {off: true}\nrdf: {interval: 5ms}\nseeds:\n", id)
	for _, s := range seeds {
		y += "  - " + s + "\n"
	}
	return []byte(y)
}
