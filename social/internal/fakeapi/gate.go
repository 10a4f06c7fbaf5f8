// Package fakeapi holds what the loopback test servers of the social
// platforms share: a Gate that counts requests and enforces a rate limit the
// way the platforms announce it (fixed windows, rate-limit headers, 429 with
// Retry-After), and counts every request that broke it, so tests can check
// that a client never exceeded the limit; and helpers to make test servers
// answer with broken bodies.
//
// The real platforms cannot be reached from the tests; these servers speak
// their documented wire protocols to the real client libraries.
package fakeapi

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Header styles of rate-limit announcements.
const (
	// Twitter: x-rate-limit-limit/-remaining, -reset in epoch seconds.
	Twitter = "twitter"
	// Mastodon: X-RateLimit-Limit/-Remaining, -Reset as an ISO 8601 time.
	Mastodon = "mastodon"
	// Bluesky: RateLimit-Limit/-Remaining/-Policy, -Reset in epoch seconds.
	Bluesky = "bluesky"
)

// Gate wraps an API handler with a rate limit. Set its fields before use.
type Gate struct {
	Style  string        // Twitter or Mastodon
	Limit  int           // requests per window; 0: no limit
	Window time.Duration // window length, whole seconds for the Twitter and Bluesky styles
	// ThrottleEvery answers every n-th request with 429 and Retry-After:
	// RetryAfter seconds, as a server under load does; 0: never.
	ThrottleEvery int
	RetryAfter    int
	// Skip, if set, exempts requests from the gate (a health check).
	Skip func(*http.Request) bool

	mu           sync.Mutex
	window       int64
	count        int
	seen         int
	blockedUntil time.Time
	stats        Stats
}

// Stats are a Gate's counts.
type Stats struct {
	Requests  int // every request that reached the gate
	Served    int // passed to the API handler
	Throttled int // answered 429 by ThrottleEvery
	// Over counts requests sent although the window's budget was spent,
	// Early those sent before a Retry-After had passed: a polite client
	// makes neither.
	Over, Early int
}

// Stats returns the counts so far.
func (g *Gate) Stats() Stats {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.stats
}

// Wrap returns h behind the gate.
func (g *Gate) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.Skip != nil && g.Skip(r) {
			h.ServeHTTP(w, r)
			return
		}
		ok := g.admit(w)
		if ok {
			h.ServeHTTP(w, r)
		}
	})
}

func (g *Gate) admit(w http.ResponseWriter) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	g.stats.Requests++
	g.seen++
	if now.Before(g.blockedUntil) {
		g.stats.Early++
		w.Header().Set("Retry-After", strconv.Itoa(int(time.Until(g.blockedUntil)/time.Second)+1))
		tooMany(w)
		return false
	}
	if g.ThrottleEvery > 0 && g.seen%g.ThrottleEvery == 0 {
		g.stats.Throttled++
		g.blockedUntil = now.Add(time.Duration(g.RetryAfter) * time.Second)
		w.Header().Set("Retry-After", strconv.Itoa(g.RetryAfter))
		tooMany(w)
		return false
	}
	if g.Limit <= 0 {
		g.stats.Served++
		return true
	}
	win := now.UnixNano() / int64(g.Window)
	if win != g.window {
		g.window, g.count = win, 0
	}
	reset := time.Unix(0, (win+1)*int64(g.Window))
	if g.count >= g.Limit {
		g.stats.Over++
		g.headers(w, 0, reset)
		tooMany(w)
		return false
	}
	g.count++
	g.stats.Served++
	g.headers(w, g.Limit-g.count, reset)
	return true
}

func (g *Gate) headers(w http.ResponseWriter, remaining int, reset time.Time) {
	h := w.Header()
	switch g.Style {
	case Twitter:
		h.Set("x-rate-limit-limit", strconv.Itoa(g.Limit))
		h.Set("x-rate-limit-remaining", strconv.Itoa(remaining))
		h.Set("x-rate-limit-reset", strconv.FormatInt(reset.Unix(), 10))
	case Bluesky:
		h.Set("RateLimit-Limit", strconv.Itoa(g.Limit))
		h.Set("RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		h.Set("RateLimit-Policy", strconv.Itoa(g.Limit)+";w="+strconv.Itoa(int(g.Window/time.Second)))
	default:
		h.Set("X-RateLimit-Limit", strconv.Itoa(g.Limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("X-RateLimit-Reset", reset.UTC().Format("2006-01-02T15:04:05.000Z"))
	}
}

func tooMany(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte(`{"error":"Too many requests"}`))
}

// Fault is a way a server answers badly.
type Fault string

// The faults a test server can be told to answer with.
const (
	Malformed Fault = "malformed" // 200 with JSON that does not parse
	HTML      Fault = "html"      // 200 with an HTML page
	Truncated Fault = "truncated" // 200 with JSON cut short mid-body
	Status401 Fault = "401"       // 401 with the platform's error body
	Status403 Fault = "403"       // 403
	Status404 Fault = "404"       // 404
	EchoAuth  Fault = "echo-auth" // 401 whose body repeats the Authorization header
	Nothing   Fault = ""          // no fault
)

// Faults are the bad answers every platform's tests try.
var Faults = []Fault{Malformed, HTML, Truncated, Status401, Status403, Status404, EchoAuth}

// Serve answers r with fault f, errorBody being the platform's JSON error
// body for a status; it reports whether it answered.
func Serve(w http.ResponseWriter, r *http.Request, f Fault, errorBody func(status int, msg string) []byte) bool {
	status := 0
	msg := ""
	switch f {
	case Nothing:
		return false
	case Malformed:
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"id": "1", "content": "unterminated` + "\x00" + `, }`))
		return true
	case HTML:
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>…</form></body></html>"))
		return true
	case Truncated:
		// A Content-Length longer than the body: the connection closes
		// early, as when a proxy cuts a response.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "4096")
		_, _ = w.Write([]byte(`[{"id":"1","created_at":"2026-01-01T00:00:00.000Z","content":"<p>cut`))
		if hj, ok := w.(http.Hijacker); ok {
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
			if c, _, err := hj.Hijack(); err == nil {
				c.Close()
			}
		}
		return true
	case Status401:
		status, msg = 401, "The access token is invalid"
	case Status403:
		status, msg = 403, "This action is not allowed"
	case Status404:
		status, msg = 404, "Record not found"
	case EchoAuth:
		status, msg = 401, "invalid token: "+r.Header.Get("Authorization")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(errorBody(status, msg))
	return true
}
