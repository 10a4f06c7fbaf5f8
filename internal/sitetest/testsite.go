// Package sitetest is the small site on 127.0.0.1 that the tests crawl: a
// binary tree of pages, with options for the shapes the crawler's and the
// command's tests need (titles, an image, links home, a delay, robots.txt,
// handlers of their own by path), a gate page that holds a crawl running
// until the test lets it answer, and a blog post whose template the
// knowledge base no longer matches.
package sitetest

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// PostHTML is the site's /post: a WordPress post page whose theme moved
// the title out of the knowledge base's reach (a h2.headline, no h1).
const PostHTML = `<html><head><title>Barn owls</title></head><body class="single-post">
<article class="post"><h2 class="headline">Barn owls nest again</h2>
<div class="entry-content"><p>Two chicks this spring.</p></div></article></body></html>`

// LogoPNG is the body of the site's /logo.png.
const LogoPNG = "\x89PNG fake image bytes"

// Options shape a site.
type Options struct {
	// Pages is how many pages /p/0 … /p/Pages-1 there are.
	Pages int
	// Host is the loopback address to listen on (127.0.0.1 if empty);
	// two sites on two addresses are two politeness queues.
	Host string
	// Gate links /p/0 to /p/gate, which answers only once Open is called.
	Gate bool
	// Rich pages have a title, the image /logo.png and a link home to
	// /p/0.
	Rich bool
	// Delay is how long each page waits before it answers.
	Delay time.Duration
}

// Site serves pages /p/0 … /p/N-1, page i linking to 2i+1 and 2i+2 (a
// binary tree, so every page is reachable from /p/0); /post (PostHTML);
// and what Options add.
type Site struct {
	// Hit gets a value (when there is room) each time /p/gate is asked
	// for.
	Hit chan struct{}
	// Robots is the body of /robots.txt; "" answers 404. Set it before
	// the crawl starts.
	Robots string
	// Override answers the paths it holds instead of the site; set it
	// before the crawl starts or under Lock.
	Override map[string]http.HandlerFunc
	opt      Options
	srv      *httptest.Server
	mu       sync.Mutex
	hits     map[string]int
	gate     chan struct{}
	once     sync.Once
}

// New serves a site of n pages, /p/0 linking to the gate, until the test
// ends; its gate opens first, so that crawls held by it can stop.
func New(t testing.TB, n int) *Site { return Serve(t, Options{Pages: n, Gate: true}) }

// Serve serves a site shaped by o until the test ends; it skips the test
// if o.Host cannot be listened on.
func Serve(t testing.TB, o Options) *Site {
	t.Helper()
	s := &Site{opt: o, hits: map[string]int{}, gate: make(chan struct{}), Hit: make(chan struct{}, 16),
		Override: map[string]http.HandlerFunc{}}
	host := o.Host
	if host == "" {
		host = "127.0.0.1"
	}
	ln, err := net.Listen("tcp", host+":0")
	if err != nil {
		t.Skipf("cannot listen on %s: %v", host, err)
	}
	s.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: s}}
	s.srv.Start()
	t.Cleanup(s.srv.Close)
	t.Cleanup(s.Open)
	return s
}

// URL is the site's URL of path p.
func (s *Site) URL(p string) string { return s.srv.URL + p }

// Host is the site's host:port, its crawl queue's key.
func (s *Site) Host() string { return strings.TrimPrefix(s.srv.URL, "http://") }

// Close stops serving.
func (s *Site) Close() { s.srv.Close() }

// Open lets /p/gate answer.
func (s *Site) Open() { s.once.Do(func() { close(s.gate) }) }

// Wrap puts a handler of the test's in front of the site's (before the
// crawl starts): f gets the site's handler and returns the one to serve.
func (s *Site) Wrap(f func(http.Handler) http.Handler) {
	s.srv.Config.Handler = f(s.srv.Config.Handler)
}

// Lock holds the site's requests, so that Override can change.
func (s *Site) Lock() { s.mu.Lock() }

// Unlock lets them go on.
func (s *Site) Unlock() { s.mu.Unlock() }

// Hits is how often path p (with its query, if any) was asked for.
func (s *Site) Hits(p string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[p]
}

// URLs lists the URLs of the site's pages (and of its image if Rich),
// sorted.
func (s *Site) URLs() []string {
	var urls []string
	if s.opt.Rich {
		urls = append(urls, s.URL("/logo.png"))
	}
	for i := range s.opt.Pages {
		urls = append(urls, s.URL(fmt.Sprintf("/p/%d", i)))
	}
	sort.Strings(urls)
	return urls
}

func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.RequestURI()]++
	h := s.Override[r.URL.Path]
	s.mu.Unlock()
	if h != nil {
		h(w, r)
		return
	}
	switch r.URL.Path {
	case "/robots.txt":
		if s.Robots == "" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, s.Robots)
		return
	case "/logo.png":
		if !s.opt.Rich {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		fmt.Fprint(w, LogoPNG)
		return
	case "/post":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, PostHTML)
		return
	case "/p/gate":
		if !s.opt.Gate {
			http.NotFound(w, r)
			return
		}
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
	if _, err := fmt.Sscanf(r.URL.Path, "/p/%d", &i); err != nil || i < 0 || i >= s.opt.Pages || r.URL.Path != fmt.Sprintf("/p/%d", i) {
		http.NotFound(w, r)
		return
	}
	time.Sleep(s.opt.Delay)
	if s.opt.Rich {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<html><head><title>Page %d</title></head><body><img src=\"/logo.png\"><p>", i)
	} else {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><p>page %d</p>", i)
	}
	for _, j := range []int{2*i + 1, 2*i + 2} {
		if j < s.opt.Pages {
			fmt.Fprintf(w, `<a href="/p/%d">page %d</a> `, j, j)
		}
	}
	if s.opt.Rich {
		fmt.Fprint(w, `<a href="/p/0">home</a></p>`)
	}
	if i == 0 && s.opt.Gate {
		fmt.Fprint(w, `<a href="/p/gate">gate</a>`)
	}
	fmt.Fprint(w, "</body></html>")
}
