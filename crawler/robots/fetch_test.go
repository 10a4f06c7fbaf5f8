package robots

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// fetch does what the crawler's fetcher does for a robots.txt prerequisite.
func fetch(client *http.Client, url string) Result {
	resp, err := client.Get(url)
	if err != nil {
		return FromResponse(0, nil, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBytes))
	return FromResponse(resp.StatusCode, body, err)
}

func TestFetchOverHTTP(t *testing.T) {
	huge := "User-agent: *\nDisallow: /early\n" + strings.Repeat("# filler line of a huge robots.txt\n", 40000) + "Disallow: /late\n"
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/ok/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: mneme\nDisallow: /private\nCrawl-delay: 3\nSitemap: http://127.0.0.1/s.xml\n")
	})
	mux.HandleFunc("/gone/robots.txt", http.NotFound)
	mux.HandleFunc("/down/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/moved/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/hop/3", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/hop/", func(w http.ResponseWriter, r *http.Request) {
		n := strings.TrimPrefix(r.URL.Path, "/hop/")
		next := map[string]string{"3": "/hop/2", "2": "/hop/1", "1": "/ok/robots.txt"}[n]
		http.Redirect(w, r, next, http.StatusFound)
	})
	mux.HandleFunc("/loop/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/loop/robots.txt", http.StatusFound)
	})
	mux.HandleFunc("/slow/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/huge/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, huge)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(release)
	if host, _, _ := net.SplitHostPort(srv.Listener.Addr().String()); host != "127.0.0.1" {
		t.Fatalf("test server not on loopback: %s", host)
	}
	client := &http.Client{CheckRedirect: CheckRedirect, Timeout: 2 * time.Second}

	tests := []struct {
		path    string
		kind    Kind
		private bool // /private allowed
		early   bool // /early allowed
	}{
		{"/ok/robots.txt", Available, false, true},
		{"/gone/robots.txt", Unavailable, true, true},
		{"/down/robots.txt", Unreachable, false, false},
		{"/moved/robots.txt", Available, false, true}, // 4 redirects: followed
		{"/loop/robots.txt", Unavailable, true, true}, // more than 5: unavailable
		{"/huge/robots.txt", Available, true, false},
	}
	for _, tt := range tests {
		r := fetch(client, srv.URL+tt.path)
		a := r.Agent("Mneme")
		if r.Kind != tt.kind || a.Allowed("/private") != tt.private || a.Allowed("/early") != tt.early {
			t.Errorf("%s: kind %v (%s), /private %v, /early %v; want %v, %v, %v",
				tt.path, r.Kind, r.Reason, a.Allowed("/private"), a.Allowed("/early"), tt.kind, tt.private, tt.early)
		}
	}
	if r := fetch(client, srv.URL+"/ok/robots.txt"); len(r.Robots.Sitemaps) != 1 {
		t.Errorf("sitemaps = %q", r.Robots.Sitemaps)
	} else if d, set := r.Agent("mneme").CrawlDelay(time.Minute); d != 3*time.Second || !set {
		t.Errorf("crawl-delay = %v, %v", d, set)
	}
	if r := fetch(client, srv.URL+"/huge/robots.txt"); !r.Agent("x").Allowed("/late") {
		t.Error("a rule past 500 KiB must be ignored")
	}

	// A timeout is a network error: unreachable, so nothing may be fetched.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	slow := &http.Client{Timeout: 100 * time.Millisecond}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/slow/robots.txt", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := slow.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatal("slow server answered")
	}
	if r := FromResponse(0, nil, err); r.Kind != Unreachable || r.Agent("x").Allowed("/") {
		t.Errorf("timeout: kind %v (%s), want unreachable and disallow all", r.Kind, r.Reason)
	}
}
