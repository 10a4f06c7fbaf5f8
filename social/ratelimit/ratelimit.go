// Package ratelimit keeps a social platform's API client within the rate
// limits the platform announces, per credential: it reads the rate-limit
// headers of every response (Twitter's x-rate-limit-limit/-remaining/-reset,
// reset in epoch seconds; Mastodon's X-RateLimit-Limit/-Remaining/-Reset,
// reset as an ISO 8601 time; Retry-After, in seconds or as an HTTP date),
// and before sending a request it waits until the window resets when the
// remaining budget is 0, rather than sending a request the server would
// refuse. A 429 is waited out (Retry-After, else the announced reset, else
// exponential back-off) and the request sent again, a bounded number of
// times; a 5xx is retried with exponential back-off. Every wait honours the
// request's context. A Limiter may also hold a request budget: past it,
// requests fail with ErrBudget instead of being sent.
//
// A Limiter belongs to one credential of one platform and is shared by every
// campaign that uses that credential (a Registry hands them out), since the
// platform counts requests per credential, not per campaign.
//
// The transport wraps the recording one: Limiter.Transport(recorder). The
// recorder is thus the last step before the network, and every real
// exchange is written to WARC, the 429s and 5xx this package waits out and
// retries included, as the archive must show what the platform answered;
// a request this package holds back or refuses (budget spent) was never
// sent and leaves no record.
package ratelimit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/social/internal/apierr"
)

// Options tune a Limiter. The zero value of a field takes its default.
type Options struct {
	// Budget is the number of requests the credential may send in all;
	// 0 is no budget.
	Budget int64
	// MinInterval is the least time between two requests (politeness
	// beyond what the headers ask); 0 is none.
	MinInterval time.Duration
	// Attempts is how many times one request is sent at most when the
	// server answers 429 or 5xx (default 5).
	Attempts int
	// Backoff is the first wait after a 5xx, or after a 429 that says
	// nothing of when to come back; it doubles on each retry up to
	// MaxBackoff (defaults 1 s and 1 min).
	Backoff, MaxBackoff time.Duration
	// Slack is added to an announced reset time, for clock skew between
	// client and server (default 1 s; a negative value is none).
	Slack time.Duration
	// MaxWait is the longest single wait; a server that asks for more
	// fails the request with an error saying when to come back, rather
	// than holding a campaign silently (default 16 min: Twitter's window
	// is 15 min).
	MaxWait time.Duration
	// Bucket names the rate-limit bucket a request counts against. The
	// default, ByHost, has one per host (Mastodon counts all requests of
	// an account together); ByPath has one per endpoint (Twitter counts
	// each endpoint apart).
	Bucket func(*http.Request) string
}

// ByHost puts all requests to a host in one bucket.
func ByHost(r *http.Request) string { return r.URL.Host }

// ByPath puts each endpoint (host and path) in a bucket of its own.
func ByPath(r *http.Request) string { return r.URL.Host + r.URL.Path }

// ForPlatform returns the options that suit a platform's way of counting
// requests, by the platform's campaign name.
func ForPlatform(name string) Options {
	switch name {
	case "twitter":
		return Options{Bucket: ByPath}
	default:
		return Options{Bucket: ByHost}
	}
}

func (o Options) withDefaults() Options {
	if o.Attempts <= 0 {
		o.Attempts = 5
	}
	if o.Backoff <= 0 {
		o.Backoff = time.Second
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = time.Minute
	}
	if o.Slack == 0 {
		o.Slack = time.Second
	} else if o.Slack < 0 {
		o.Slack = 0
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 16 * time.Minute
	}
	if o.Bucket == nil {
		o.Bucket = ByHost
	}
	return o
}

// ErrBudget is returned for a request past the credential's budget.
var ErrBudget = errors.New("request budget of the credential spent")

// ErrRateLimited is wrapped by the error of a request the server still
// refused with 429 after every attempt, or that would have to wait longer
// than MaxWait.
var ErrRateLimited = errors.New("rate limited")

// WaitError says a request was not (or no longer) sent because of the rate
// limit, and when the server said to come back.
type WaitError struct {
	Method, URL string // credentials removed
	Until       time.Time
	Reason      string
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("%s %s: %v: %s; retry after %s", e.Method, e.URL, ErrRateLimited,
		e.Reason, e.Until.UTC().Format(time.RFC3339))
}

func (e *WaitError) Unwrap() error { return ErrRateLimited }

// Limiter is the rate-limit state of one credential.
type Limiter struct {
	o        Options
	mu       sync.Mutex
	buckets  map[string]*bucket
	sent     int64
	lastSend time.Time
}

type bucket struct {
	limit, remaining int64
	known            bool      // limit and remaining come from the server
	headerless       bool      // the server announces no limit
	reset            time.Time // end of the server's window; zero if not said
	blockedUntil     time.Time // from a 429's Retry-After
	inflight         int64     // requests sent and not yet answered
	changed          chan struct{}
}

// answered ends a request of b and wakes those waiting for news of b.
func (b *bucket) answered() {
	b.inflight--
	close(b.changed)
	b.changed = make(chan struct{})
}

// NewLimiter returns a Limiter with options o.
func NewLimiter(o Options) *Limiter {
	return &Limiter{o: o.withDefaults(), buckets: map[string]*bucket{}}
}

// Transport returns an http.RoundTripper that sends requests through next
// within l's limits.
func (l *Limiter) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &transport{l: l, next: next}
}

// BucketState is one bucket's state, for progress displays.
type BucketState struct {
	Bucket           string
	Limit, Remaining int64 // -1 when the server has not said
	Reset            time.Time
}

// State is a Limiter's state, for progress displays.
type State struct {
	Sent    int64 // requests sent, retries included
	Budget  int64 // 0: none
	Buckets []BucketState
}

// State returns l's state now.
func (l *Limiter) State() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := State{Sent: l.sent, Budget: l.o.Budget}
	for k, b := range l.buckets {
		bs := BucketState{Bucket: k, Limit: -1, Remaining: -1, Reset: b.reset}
		if b.known {
			bs.Limit, bs.Remaining = b.limit, b.remaining
		}
		s.Buckets = append(s.Buckets, bs)
	}
	sort.Slice(s.Buckets, func(i, j int) bool { return s.Buckets[i].Bucket < s.Buckets[j].Bucket })
	return s
}

type transport struct {
	l    *Limiter
	next http.RoundTripper
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	l := t.l
	ctx := req.Context()
	key := l.o.Bucket(req)
	backoff := l.o.Backoff
	for attempt := 1; ; attempt++ {
		if err := l.acquire(ctx, req, key); err != nil {
			return nil, err
		}
		resp, err := t.next.RoundTrip(req)
		now := time.Now()
		l.observe(key, resp, now)
		if err != nil {
			return nil, err
		}
		retryable := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500
		if !retryable {
			return resp, nil
		}
		last := attempt >= l.o.Attempts || (req.Body != nil && req.Body != http.NoBody && req.GetBody == nil)
		var until time.Time
		if ra, ok := retryAfter(resp.Header, now); ok {
			until = ra
		} else if resp.StatusCode == http.StatusTooManyRequests {
			if r := l.resetOf(key); r.After(now) {
				until = r
			}
		}
		if until.IsZero() {
			until = now.Add(backoff)
			backoff = min(2*backoff, l.o.MaxBackoff)
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			l.block(key, until)
			if last {
				drain(resp)
				return nil, &WaitError{Method: req.Method, URL: apierr.RedactURL(req.URL), Until: until,
					Reason: fmt.Sprintf("429 Too Many Requests after %d attempts", attempt)}
			}
		} else if last {
			// A 5xx after the last attempt is the platform's answer; the
			// client reports it with its body.
			return resp, nil
		}
		drain(resp)
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req.Body = body
		}
		if err := l.sleep(ctx, req, until, "server asked to wait"); err != nil {
			return nil, err
		}
	}
}

// drain reads a little of a response that will not be used, so its
// connection can be reused, and closes it.
func drain(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}

// acquire waits until req may be sent and counts it.
func (l *Limiter) acquire(ctx context.Context, req *http.Request, key string) error {
	for {
		l.mu.Lock()
		if l.o.Budget > 0 && l.sent >= l.o.Budget {
			l.mu.Unlock()
			return fmt.Errorf("%s %s: %w (%d requests)", req.Method, apierr.RedactURL(req.URL), ErrBudget, l.o.Budget)
		}
		b := l.bucket(key)
		if !b.known && !b.headerless && b.inflight > 0 {
			// Until the server has announced its limit, one request
			// at a time: a burst could overrun a limit not yet known.
			ch := b.changed
			l.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		now := time.Now()
		var until time.Time
		reason := ""
		if b.blockedUntil.After(now) {
			until, reason = b.blockedUntil, "server asked to wait"
		}
		if b.known && !b.reset.IsZero() && !now.Before(b.reset.Add(l.o.Slack)) {
			// The server's window is over: its budget is whole again.
			b.remaining, b.reset = b.limit, time.Time{}
		}
		if b.known && b.remaining <= 0 {
			if b.reset.IsZero() {
				// Spent, with no reset said: ask the server once, it will
				// say when (a 429 carries Retry-After or a reset).
				b.known = false
			} else if r := b.reset.Add(l.o.Slack); r.After(until) {
				until, reason = r, "rate-limit window spent"
			}
		}
		if l.o.MinInterval > 0 && !l.lastSend.IsZero() {
			if n := l.lastSend.Add(l.o.MinInterval); n.After(until) {
				until, reason = n, "politeness interval"
			}
		}
		if !until.After(now) {
			if b.known {
				b.remaining--
			}
			b.inflight++
			l.sent++
			l.lastSend = now
			l.mu.Unlock()
			return nil
		}
		l.mu.Unlock()
		if err := l.sleep(ctx, req, until, reason); err != nil {
			return err
		}
	}
}

func (l *Limiter) sleep(ctx context.Context, req *http.Request, until time.Time, reason string) error {
	d := time.Until(until)
	if d <= 0 {
		return nil
	}
	if d > l.o.MaxWait {
		return &WaitError{Method: req.Method, URL: apierr.RedactURL(req.URL), Until: until,
			Reason: reason + ", longer than the longest wait " + l.o.MaxWait.String()}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *Limiter) bucket(key string) *bucket {
	b := l.buckets[key]
	if b == nil {
		b = &bucket{changed: make(chan struct{})}
		l.buckets[key] = b
	}
	return b
}

func (l *Limiter) block(key string, until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.bucket(key); until.After(b.blockedUntil) {
		b.blockedUntil = until
	}
}

func (l *Limiter) resetOf(key string) time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.bucket(key).reset
}

// observe ends a request of the bucket and takes the rate-limit headers
// of its response, if any (resp is nil when the request failed).
func (l *Limiter) observe(key string, resp *http.Response, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.bucket(key)
	defer b.answered()
	if resp == nil {
		return
	}
	limit, okL := headerInt(resp.Header, "X-Rate-Limit-Limit", "X-Ratelimit-Limit", "Ratelimit-Limit")
	remaining, okR := headerInt(resp.Header, "X-Rate-Limit-Remaining", "X-Ratelimit-Remaining", "Ratelimit-Remaining")
	reset, okT := resetTime(resp.Header, now)
	if !okR {
		if !b.known {
			b.headerless = true
		}
		return
	}
	// The other requests still in flight may not have been counted by
	// the server when it answered: take them off, to be safe.
	remaining -= b.inflight - 1
	if b.known && okT && b.reset.Equal(reset) {
		// The same window: the local count already holds the requests
		// sent since.
		b.remaining = min(b.remaining, remaining)
	} else {
		b.remaining = remaining
	}
	if okL {
		b.limit = limit
	} else if !b.known || b.limit < remaining {
		b.limit = remaining
	}
	b.known = true
	if okT {
		b.reset = reset
	} else {
		b.reset = time.Time{}
	}
}

func headerInt(h http.Header, names ...string) (int64, bool) {
	for _, n := range names {
		if v := strings.TrimSpace(h.Get(n)); v != "" {
			if i, err := strconv.ParseInt(v, 10, 64); err == nil {
				return i, true
			}
		}
	}
	return 0, false
}

// resetTime reads a window's end: an ISO 8601 time (Mastodon), epoch
// seconds (Twitter), or seconds from now (the IETF RateLimit fields).
func resetTime(h http.Header, now time.Time) (time.Time, bool) {
	for _, n := range []string{"X-Rate-Limit-Reset", "X-Ratelimit-Reset", "Ratelimit-Reset"} {
		v := strings.TrimSpace(h.Get(n))
		if v == "" {
			continue
		}
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t, true
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			if f > 1e9 {
				sec := int64(f)
				return time.Unix(sec, int64((f-float64(sec))*1e9)), true
			}
			return now.Add(time.Duration(f * float64(time.Second))), true
		}
	}
	return time.Time{}, false
}

// retryAfter reads Retry-After: seconds, or an HTTP date.
func retryAfter(h http.Header, now time.Time) (time.Time, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return time.Time{}, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return now.Add(time.Duration(s * float64(time.Second))), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// Registry hands out one Limiter per (platform, credential), so campaigns
// that share a credential share its limits.
type Registry struct {
	// Options returns a platform's options; nil is ForPlatform.
	Options func(platform string) Options
	mu      sync.Mutex
	m       map[string]*Limiter
}

// For returns the Limiter of platform's credential creds.
func (r *Registry) For(platform string, creds map[string]string) *Limiter {
	k := Key(platform, creds)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]*Limiter{}
	}
	l := r.m[k]
	if l == nil {
		opts := ForPlatform
		if r.Options != nil {
			opts = r.Options
		}
		l = NewLimiter(opts(platform))
		r.m[k] = l
	}
	return l
}

// Key names a platform's credential without revealing it: the platform
// and a hash of the credential's values, fit for logs and displays.
func Key(platform string, creds map[string]string) string {
	ks := make([]string, 0, len(creds))
	for k := range creds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	h := sha256.New()
	for _, k := range ks {
		fmt.Fprintf(h, "%s=%s\x00", k, creds[k])
	}
	return platform + ":" + hex.EncodeToString(h.Sum(nil))[:12]
}
