// Package sitetest is the small site on 127.0.0.1 that the tests of the
// control API and of the TUI's crawl screens crawl: a binary tree of
// pages, a gate page that holds a crawl running until the test lets it
// answer, and a blog post whose template the knowledge base no longer
// matches.
package sitetest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// PostHTML is the site's /post: a WordPress post page whose theme moved
// the title out of the knowledge base's reach (a h2.headline, no h1).
const PostHTML = `<html><head><title>Barn owls</title></head><body class="single-post">
<article class="post"><h2 class="headline">Barn owls nest again</h2>
<div class="entry-content"><p>Two chicks this spring.</p></div></article></body></html>`

// Site serves pages /p/0 … /p/N-1, page i linking to 2i+1 and 2i+2 and
// /p/0 also to /p/gate, which answers only once Open is called (or the
// request is cancelled), so that a crawl stays running until then; and
// /post (PostHTML).
type Site struct {
	// Hit gets a value (when there is room) each time /p/gate is asked
	// for.
	Hit  chan struct{}
	n    int
	srv  *httptest.Server
	mu   sync.Mutex
	hits map[string]int
	gate chan struct{}
	once sync.Once
}

// New serves a site of n pages until the test ends; its gate opens
// first, so that crawls held by it can stop.
func New(t testing.TB, n int) *Site {
	s := &Site{n: n, hits: map[string]int{}, gate: make(chan struct{}), Hit: make(chan struct{}, 16)}
	s.srv = httptest.NewServer(s)
	t.Cleanup(s.srv.Close)
	t.Cleanup(s.Open)
	return s
}

// URL is the site's URL of path p.
func (s *Site) URL(p string) string { return s.srv.URL + p }

// Host is the site's host:port, its crawl queue's key.
func (s *Site) Host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

// Open lets /p/gate answer.
func (s *Site) Open() { s.once.Do(func() { close(s.gate) }) }

// Hits is how often path p was asked for.
func (s *Site) Hits(p string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[p]
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
	switch r.URL.Path {
	case "/post":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, PostHTML)
		return
	case "/p/gate":
		select {
		case s.Hit <- struct{}{}:
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
