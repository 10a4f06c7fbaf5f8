package ratelimit

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/social/internal/fakeapi"
)

func ok(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{}`) }

// send makes n GET requests from workers goroutines and fails on any error
// or non-200 answer.
func send(t *testing.T, c *http.Client, url string, n, workers int) {
	t.Helper()
	var wg sync.WaitGroup
	var next atomic.Int64
	errs := make(chan error, n)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				resp, err := c.Get(url)
				if err != nil {
					errs <- err
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs <- errors.New(resp.Status)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// Both header styles: the client spreads its requests over the server's
// windows and never sends one past the announced budget.
func TestKeepsWithinAnnouncedLimit(t *testing.T) {
	for _, style := range []string{fakeapi.Twitter, fakeapi.Mastodon} {
		t.Run(style, func(t *testing.T) {
			g := &fakeapi.Gate{Style: style, Limit: 4, Window: time.Second}
			srv := httptest.NewServer(g.Wrap(http.HandlerFunc(ok)))
			defer srv.Close()
			l := NewLimiter(Options{Slack: 20 * time.Millisecond})
			c := &http.Client{Transport: l.Transport(nil)}
			send(t, c, srv.URL+"/api", 7, 6) // more workers than the limit
			st := g.Stats()
			if st.Over != 0 || st.Served != 7 {
				t.Fatalf("server counts %+v: want 7 served, none over the limit", st)
			}
			ls := l.State()
			if ls.Sent != 7 || len(ls.Buckets) != 1 || ls.Buckets[0].Limit != 4 {
				t.Fatalf("limiter state %+v", ls)
			}
		})
	}
}

// A 429 with Retry-After is waited out and the request sent again; the
// server sees no request before the time it gave.
func TestWaitsOutRetryAfter(t *testing.T) {
	g := &fakeapi.Gate{Style: fakeapi.Mastodon, ThrottleEvery: 3, RetryAfter: 1}
	srv := httptest.NewServer(g.Wrap(http.HandlerFunc(ok)))
	defer srv.Close()
	c := &http.Client{Transport: NewLimiter(Options{}).Transport(nil)}
	// One at a time: a request already on its way when another is
	// refused could not have known.
	send(t, c, srv.URL, 4, 1)
	st := g.Stats()
	if st.Served != 4 || st.Throttled == 0 || st.Early != 0 {
		t.Fatalf("server counts %+v: want 4 served, a 429, none early", st)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	var n atomic.Int32
	var after atomic.Int64
	var early atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			at := time.Now().Truncate(time.Second).Add(time.Second)
			after.Store(at.UnixNano())
			w.Header().Set("Retry-After", at.UTC().Format(http.TimeFormat))
			w.WriteHeader(429)
			return
		}
		early.Store(time.Now().UnixNano() < after.Load())
		ok(w, r)
	}))
	defer srv.Close()
	c := &http.Client{Transport: NewLimiter(Options{}).Transport(nil)}
	send(t, c, srv.URL, 1, 1)
	if n.Load() != 2 || early.Load() {
		t.Fatalf("requests %d, second before the Retry-After date: %v", n.Load(), early.Load())
	}
}

func TestGivesUpAfterAttempts(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(429)
	}))
	defer srv.Close()
	c := &http.Client{Transport: NewLimiter(Options{Attempts: 3}).Transport(nil)}
	_, err := c.Get(srv.URL + "/x?access_token=s3cr3t-token")
	var we *WaitError
	if !errors.Is(err, ErrRateLimited) || !errors.As(err, &we) || n.Load() != 3 {
		t.Fatalf("err %v after %d requests: want ErrRateLimited after 3", err, n.Load())
	}
	// (net/http's url.Error around it quotes the URL as it was asked.)
	if strings.Contains(we.Error(), "s3cr3t") || !strings.Contains(we.Error(), "/x?access_token=redacted") {
		t.Fatalf("error does not name the request without its token: %v", we)
	}
}

func TestBacksOffOn5xx(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if n.Add(1) <= 2 || string(b) != "payload" {
			w.WriteHeader(503)
			return
		}
		ok(w, r)
	}))
	defer srv.Close()
	c := &http.Client{Transport: NewLimiter(Options{Backoff: 10 * time.Millisecond}).Transport(nil)}
	resp, err := c.Post(srv.URL, "text/plain", strings.NewReader("payload"))
	if err != nil || resp.StatusCode != 200 || n.Load() != 3 {
		t.Fatalf("err %v, status %v after %d requests: want 200 on the third", err, resp, n.Load())
	}
	resp.Body.Close()

	// A server that keeps failing: its answer comes back after the
	// last attempt, for the client to report.
	n.Store(-100)
	c = &http.Client{Transport: NewLimiter(Options{Backoff: time.Millisecond, Attempts: 2}).Transport(nil)}
	resp, err = c.Post(srv.URL, "text/plain", strings.NewReader("payload"))
	if err != nil || resp.StatusCode != 503 || n.Load() != -98 {
		t.Fatalf("err %v, resp %v after %d requests: want 503 after 2", err, resp, n.Load()+100)
	}
	resp.Body.Close()
}

func TestBudget(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1); ok(w, r) }))
	defer srv.Close()
	r := &Registry{Options: func(string) Options { return Options{Budget: 2} }}
	creds := map[string]string{"access-token": "tok-123456"}
	c := &http.Client{Transport: r.For("mastodon", creds).Transport(nil)}
	send(t, c, srv.URL, 2, 1)
	// Another campaign with the same credential shares its budget.
	c2 := &http.Client{Transport: r.For("mastodon", map[string]string{"access-token": "tok-123456"}).Transport(nil)}
	if _, err := c2.Get(srv.URL); !errors.Is(err, ErrBudget) || n.Load() != 2 {
		t.Fatalf("third request: %v after %d sent: want ErrBudget after 2", err, n.Load())
	}
	if k := Key("mastodon", creds); strings.Contains(k, "tok-123456") || k == Key("mastodon", nil) {
		t.Fatalf("key %q reveals or ignores the credential", k)
	}
}

// A spent window whose reset is far away: the wait honours the context, and
// one past MaxWait fails at once saying when to come back.
func TestLongWaits(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("x-rate-limit-limit", "1")
		w.Header().Set("x-rate-limit-remaining", "0")
		w.Header().Set("x-rate-limit-reset", r.URL.Query().Get("reset"))
		ok(w, r)
	}))
	defer srv.Close()
	in := func(d time.Duration) string {
		return srv.URL + "/?reset=" + strconv.FormatInt(time.Now().Add(d).Unix(), 10)
	}

	c := &http.Client{Transport: NewLimiter(Options{}).Transport(nil)}
	send(t, c, in(10*time.Minute), 1, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	if _, err := c.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's deadline, got %v", err)
	}

	c = &http.Client{Transport: NewLimiter(Options{}).Transport(nil)}
	send(t, c, in(2*time.Hour), 1, 1)
	if _, err := c.Get(srv.URL); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("want ErrRateLimited for a 2 h wait, got %v", err)
	}
}
