package control

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/control/api"
)

// TestAuthAndBadInput checks every write for 401 without a token and 403
// with a wrong one, and the precise JSON errors of bad requests.
func TestAuthAndBadInput(t *testing.T) {
	a := newSite(t, 3)
	s := newServer(t)
	if _, err := s.client().Create(context.Background(), specYAML("c1", a.URL("/p/0"))); err != nil {
		t.Fatal(err)
	}
	writes := []struct{ method, path string }{
		{"POST", "/api/crawls"}, {"POST", "/api/crawls/c1/start"}, {"POST", "/api/crawls/c1/pause"},
		{"POST", "/api/crawls/c1/resume"}, {"POST", "/api/crawls/c1/stop"}, {"POST", "/api/crawls/c1/seeds"},
		{"PATCH", "/api/crawls/c1/scope"}, {"POST", "/crawls/c1/urls"},
	}
	for _, w := range writes {
		for _, c := range []struct {
			auth string
			code int
			msg  string
		}{{"", 401, "bearer token is required"}, {"Bearer not-the-token", 403, "wrong bearer token"}} {
			code, msg := call(t, s, w.method, w.path, c.auth, "{}")
			if code != c.code || !strings.Contains(msg, c.msg) {
				t.Errorf("%s %s with %q: %d %q, want %d %q", w.method, w.path, c.auth, code, msg, c.code, c.msg)
			}
		}
	}
	tok := "Bearer " + s.token
	for _, c := range []struct {
		method, path, body string
		code               int
		msg                string
	}{
		{"POST", "/api/crawls", "seeds: [", 400, "spec: yaml"},
		{"POST", "/api/crawls", "seedz: [http://x/]", 400, "field seedz not found"},
		{"POST", "/api/crawls", "id: c2\nseeds: [ftp://x/]", 400, "seeds[0]"},
		{"POST", "/api/crawls", "id: c2\noutput: /elsewhere\nseeds: [http://127.0.0.1/]", 400, "output"},
		{"POST", "/api/crawls", "", 400, "empty body"},
		{"POST", "/api/crawls", string(specYAML("c1", a.URL("/p/0"))), 409, "already exists"},
		{"POST", "/api/crawls/nope/start", "", 404, `"nope"`},
		{"POST", "/api/crawls/c1/jump", "", 404, `no action "jump"`},
		{"POST", "/api/crawls/c1/pause", "", 409, "not running"},
		{"POST", "/api/crawls/c1/seeds", `{"add": `, 400, "bad JSON"},
		{"POST", "/api/crawls/c1/seeds", `{"add": []}`, 400, "at least one seed"},
		{"POST", "/api/crawls/c1/seeds", `{"add": ["mailto:x@y"]}`, 400, "seeds[1]"},
		{"PATCH", "/api/crawls/c1/scope", `{"exclud": ["x"]}`, 400, "field exclud not found"},
		{"PATCH", "/api/crawls/c1/scope", `{"exclude": ["("]}`, 400, "exclude"},
		{"PATCH", "/api/crawls/nope/scope", `{"max-hops": 2}`, 404, `"nope"`},
		{"POST", "/crawls/c1/urls", `[{"url": 3}]`, 400, "field url"},
		{"POST", "/crawls/nope/urls", `[]`, 404, `no crawl "nope"`},
		{"GET", "/api/crawls/c1/queues?limit=x", "", 400, `limit "x"`},
		{"GET", "/api/crawls/c1/frontier?limit=0", "", 400, `limit "0": an integer from 1 to 10000`},
		{"GET", "/api/crawls/c1/frontier?limit=10001", "", 400, `limit "10001"`},
		{"GET", "/api/crawls/nope/frontier", "", 404, `"nope"`},
		{"GET", "/api/crawls/c1/log?lines=x", "", 400, `lines "x"`},
		{"GET", "/api/crawls/c1/log?lines=-3", "", 400, `lines "-3"`},
		{"GET", "/api/crawls/nope/log", "", 404, `"nope"`},
		{"GET", "/api/crawls/nope/warcs", "", 404, `"nope"`},
		{"GET", "/api/crawls/nope/status", "", 404, `"nope"`},
		{"GET", "/api/crawls/nope/events", "", 404, `"nope"`},
		{"GET", "/nowhere", "", 404, "no such resource"},
	} {
		code, msg := call(t, s, c.method, c.path, tok, c.body)
		if code != c.code || !strings.Contains(msg, c.msg) {
			t.Errorf("%s %s %q: %d %q, want %d %q", c.method, c.path, c.body, code, msg, c.code, c.msg)
		}
	}
	// A crawl created and not started cannot be stopped.
	if code, msg := call(t, s, "POST", "/api/crawls/c1/stop", tok, ""); code != 409 {
		t.Errorf("stop of a crawl not running: %d %q", code, msg)
	}
}

// call makes a request and returns the status and the JSON error message.
func call(t *testing.T, s *server, method, path, auth, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, s.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var eb api.ErrorBody
	if resp.StatusCode >= 400 {
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: error as %q, want JSON", method, path, ct)
		}
		if err := json.NewDecoder(resp.Body).Decode(&eb); err != nil || eb.Error == "" {
			t.Errorf("%s %s: error body not {\"error\": …}: %v", method, path, err)
		}
	}
	return resp.StatusCode, eb.Error
}
