package crawler

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/clock"
	"github.com/mneme-archive/mneme/crawler/inject"
)

const testToken = "0123456789abcdef0123456789abcdef-test"

// injectionAPI serves the injection handler for c on 127.0.0.1.
func injectionAPI(t *testing.T, c *Crawl) string {
	t.Helper()
	h := &inject.Handler{Token: testToken, Lookup: func(id string) (inject.Target, bool) { return c, id == c.ID() }}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL + "/crawls/" + c.ID() + "/urls"
}

// post sends body with the token (when set) and returns status and body.
func post(t *testing.T, url, token, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestInjectionAPI checks authentication, validation without partial
// application, and blacklisting, on a real crawl's frontier.
func TestInjectionAPI(t *testing.T) {
	site := newSite(t, "", 3)
	s := testSpec(t, site.URL("/p/0"))
	s.Politeness.Off = true
	c, err := New(s, Deps{Store: openStore(t, s.Output)})
	if err != nil {
		t.Fatal(err)
	}
	api := injectionAPI(t, c)
	queued := func() int64 { return c.Status().Queued }
	if queued() != 1 {
		t.Fatalf("%d queued before injection, want the seed", queued())
	}
	for _, tc := range []struct {
		token, body string
		code        int
		msg         string
	}{
		{"", `[{"url": "` + site.URL("/x") + `"}]`, 401, "bearer token is required"},
		{"wrong-token", `[{"url": "` + site.URL("/x") + `"}]`, 401, "bearer token is required"},
		{testToken, `[{"url": "` + site.URL("/x") + `", "score": 0.5}, {"url": "http://"}]`, 400, `item 2: url \"http://\"`},
		{testToken, `[{"url": "` + site.URL("/x") + `"}`, 400, "bad JSON"},
	} {
		code, body := post(t, api, tc.token, tc.body)
		if code != tc.code || !strings.Contains(body, tc.msg) {
			t.Errorf("POST %s with token %q: %d %s; want %d with %q", tc.body, tc.token, code, body, tc.code, tc.msg)
		}
	}
	if queued() != 1 {
		t.Fatalf("%d queued after rejected requests: something was applied", queued())
	}
	if code, body := post(t, strings.Replace(api, "/test/", "/nope/", 1), testToken, `[]`); code != 404 {
		t.Errorf("unknown crawl: %d %s", code, body)
	}
	code, body := post(t, api, testToken, `[{"url": "`+site.URL("/p/1")+`", "score": 0.5}, {"url": "`+site.URL("/p/2")+`", "blacklisted": true}]`)
	var res inject.Result
	if code != 200 || json.Unmarshal([]byte(body), &res) != nil || res != (inject.Result{Scheduled: 1, Blacklisted: 1}) {
		t.Fatalf("injection: %d %s", code, body)
	}
	if queued() != 2 {
		t.Errorf("%d queued after injecting one URL, want 2", queued())
	}
	if err := c.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if site.Hits("/p/1") != 1 || site.Hits("/p/2") != 0 {
		t.Errorf("/p/1 fetched %d times, blacklisted /p/2 %d times; want 1 and 0", site.Hits("/p/1"), site.Hits("/p/2"))
	}
	if code, body := post(t, api, testToken, `[{"url": "`+site.URL("/p/1")+`"}]`); code != http.StatusConflict {
		t.Errorf("injection into an ended crawl: %d %s", code, body)
	}
}

// TestInjectionAdmission: injected URLs go through the scope and, with
// politeness off, the loopback rule; a refusal is a 400 naming the item
// and why, and applies nothing; an operator may override the scope (not
// the loopback rule), and the override is logged.
func TestInjectionAdmission(t *testing.T) {
	site, other := newSite(t, "", 3), newSite(t, "", 3)
	s := testSpec(t, site.URL("/p/0"))
	s.Politeness.Off = true
	var log strings.Builder
	c, err := New(s, Deps{Store: openStore(t, s.Output), Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	api := injectionAPI(t, c)
	for _, tc := range []struct{ body, msg string }{
		{`[{"url": "` + site.URL("/p/1") + `"}, {"url": "` + other.URL("/p/1") + `"}]`, `item 2: url \"` + other.URL("/p/1") + `\" refused: out of scope (not-in-scope)`},
		{`[{"url": "http://example.org/"}]`, "politeness is off in this crawl, so only URLs on loopback hosts can be injected; example.org is not one"},
		{`[{"url": "http://192.0.2.1/", "override-scope": true}]`, "only URLs on loopback hosts"},
		{`[{"url": "` + site.URL("/p/a/a/a/a/a/a") + `"}]`, "out of scope (repeated-segments)"},
	} {
		if code, body := post(t, api, testToken, tc.body); code != http.StatusBadRequest || !strings.Contains(body, tc.msg) {
			t.Errorf("POST %s: %d %s; want 400 with %q", tc.body, code, body, tc.msg)
		}
	}
	if q := c.Status().Queued; q != 1 {
		t.Fatalf("%d queued after refused injections, want only the seed", q)
	}
	code, body := post(t, api, testToken, `[{"url": "`+other.URL("/p/1")+`", "override-scope": true}]`)
	if code != 200 || c.Status().Queued != 2 {
		t.Fatalf("override: %d %s, %d queued", code, body, c.Status().Queued)
	}
	if !strings.Contains(log.String(), "injected by operator override despite the scope: "+other.URL("/p/1")) {
		t.Errorf("override not logged: %q", log.String())
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestPriorityUpdates injects scores over HTTP in three requests and
// checks that each update function orders the queue as it defines: FIRST
// keeps the first score, LAST the newest, MAX the highest, SUM their sum,
// AVG their mean.
func TestPriorityUpdates(t *testing.T) {
	scores := map[string][]float64{
		"/a": {0.1, 0.9},
		"/b": {0.6},
		"/c": {0.5, 0.3, 0.4},
		"/d": {0.7, 0.2},
	}
	combine := map[string]func([]float64) float64{
		"FIRST": func(s []float64) float64 { return s[0] },
		"LAST":  func(s []float64) float64 { return s[len(s)-1] },
		"MAX":   func(s []float64) float64 { return slices.Max(s) },
		"SUM": func(s []float64) (t float64) {
			for _, x := range s {
				t += x
			}
			return t
		},
		"AVG": func(s []float64) (t float64) {
			for _, x := range s {
				t += x
			}
			return t / float64(len(s))
		},
	}
	orders := map[string]bool{}
	for _, fn := range []string{"FIRST", "LAST", "MAX", "SUM", "AVG"} {
		t.Run(fn, func(t *testing.T) {
			site := newSite(t, "127.0.0.1", 0)
			for p := range scores {
				site.Override[p] = func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "no links") }
			}
			seedSite := newSite(t, "127.0.0.2", 1)
			s := testSpec(t, seedSite.URL("/p/0"))
			s.Scope.SURTPrefixes = []string{site.URL("/")} // the injected URLs' site
			s.Update = fn
			s.Workers = 1
			var ev events
			c, err := New(s, Deps{Store: openStore(t, s.Output), OnFetch: ev.add,
				Clock: clock.NewVirtual(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
			if err != nil {
				t.Fatal(err)
			}
			api := injectionAPI(t, c)
			for round := range 3 {
				var items []string
				for _, p := range slices.Sorted(maps.Keys(scores)) {
					if round < len(scores[p]) {
						items = append(items, fmt.Sprintf(`{"url": %q, "score": %v}`, site.URL(p), scores[p][round]))
					}
				}
				if code, body := post(t, api, testToken, "["+strings.Join(items, ",")+"]"); code != 200 {
					t.Fatalf("round %d: %d %s", round+1, code, body)
				}
			}
			want := slices.Sorted(maps.Keys(scores))
			slices.SortStableFunc(want, func(x, y string) int {
				sx, sy := combine[fn](scores[x]), combine[fn](scores[y])
				if sx == sy {
					t.Fatalf("%s gives %s and %s the same score: the test cannot tell their order", fn, x, y)
				}
				if sx > sy {
					return -1
				}
				return 1
			})
			if err := c.Run(t.Context()); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range ev.byQueue(queueKey(site)) {
				got = append(got, strings.TrimPrefix(f.URL, site.URL("")))
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: fetch order %v, want %v", fn, got, want)
			}
			orders[strings.Join(want, " ")] = true
		})
	}
	if len(orders) != 5 {
		t.Errorf("the five update functions give only %d distinct orders: the test does not tell them apart", len(orders))
	}
}
