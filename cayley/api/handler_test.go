package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/cayley/api"
	"github.com/mneme-archive/mneme/graph"
)

// post sends a query and returns the status and the decoded answer.
func post(t *testing.T, srv *httptest.Server, lang, query string, params url.Values) (int, map[string]any) {
	t.Helper()
	if params == nil {
		params = url.Values{}
	}
	params.Set("lang", lang)
	resp, err := http.Post(srv.URL+"/api/v2/query?"+params.Encode(), "application/javascript", strings.NewReader(query))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("status %d, answer %q: %v", resp.StatusCode, body, err)
	}
	return resp.StatusCode, out
}

func serve(t *testing.T, s *graph.Store, cfg api.Config) *httptest.Server {
	srv := httptest.NewServer(api.New(s, cfg))
	t.Cleanup(srv.Close)
	return srv
}

func TestQueryAnswers(t *testing.T) {
	srv := serve(t, crawlStore(t, 1), api.Config{})
	status, out := post(t, srv, "gizmo", `g.V("<http://site0.example/author/0>").In("<http://rdfs.org/sioc/ns#has_creator>").All()`, nil)
	if status != http.StatusOK {
		t.Fatalf("status %d: %v", status, out)
	}
	if res, _ := out["result"].([]any); len(res) == 0 {
		t.Fatalf("no posts: %v", out)
	}
}

func TestSyntaxErrorsHavePositions(t *testing.T) {
	srv := serve(t, crawlStore(t, 1), api.Config{})
	for _, c := range []struct{ lang, query, where string }{
		{"gizmo", "g.V(\"<a>\")\n  .Out(\"<b>\"))", "line 2, column 14"},
		{"graphql", "{\n  nodes(id: <a>) { id \n", "line 3, column 1"},
		{"graphql", "{ nodes(id: <a>) { id } ", "line 1, column 25"},
	} {
		status, out := post(t, srv, c.lang, c.query, nil)
		msg, _ := out["error"].(string)
		if status != http.StatusBadRequest || !strings.Contains(msg, c.where) || !strings.Contains(msg, c.lang+" syntax error") {
			t.Errorf("%s %q: status %d, error %q; want 400 at %s", c.lang, c.query, status, msg, c.where)
		}
	}
}

// TestUnboundedTraversalTimesOut runs Gizmo traversals that never end
// (a script looping over a traversal) and wants them stopped at the
// timeout with 503, and the server still answering afterwards.
func TestUnboundedTraversalTimesOut(t *testing.T) {
	srv := serve(t, crawlStore(t, 1), api.Config{Timeout: 300 * time.Millisecond})
	query := `var n = 0; while (true) { g.V().Out("<https://w3id.org/mneme#linksTo>").ForEach(function(d) { n++ }) }`
	start := time.Now()
	status, out := post(t, srv, "gizmo", query, nil)
	if status != http.StatusServiceUnavailable || !strings.Contains(out["error"].(string), "timed out") {
		t.Fatalf("status %d, %v; want 503 timed out", status, out)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("stopped after %v", d) // not a timing assertion: a hang guard
	}
	if status, _ := post(t, srv, "gizmo", `g.V("<http://site0.example/blog>").All()`, nil); status != http.StatusOK {
		t.Fatalf("after the timeout: status %d", status)
	}
}

func TestRowLimit(t *testing.T) {
	srv := serve(t, crawlStore(t, 1), api.Config{MaxRows: 5})
	status, out := post(t, srv, "gizmo", `g.V().All()`, nil)
	if res, _ := out["result"].([]any); status != http.StatusOK || len(res) != 5 {
		t.Fatalf("status %d, %d results; want 5", status, len(res))
	}
	status, out = post(t, srv, "gizmo", `g.V().All()`, url.Values{"limit": {"3"}})
	if res, _ := out["result"].([]any); status != http.StatusOK || len(res) != 3 {
		t.Fatalf("limit 3: status %d, %d results", status, len(res))
	}
}

func TestWritesNeedToken(t *testing.T) {
	s := crawlStore(t, 1)
	const nq = "<http://x.example/a> <http://x.example/p> \"v\" <urn:g> .\n"
	write := func(srv *httptest.Server, tok string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v2/write", strings.NewReader(nq))
		req.Header.Set("Content-Type", "application/n-quads")
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := write(serve(t, s, api.Config{}), "x"); st != http.StatusForbidden {
		t.Errorf("read-only server: write got %d, want 403", st)
	}
	srv := serve(t, s, api.Config{Token: "secret"})
	if st := write(srv, "wrong"); st != http.StatusUnauthorized {
		t.Errorf("wrong token: %d, want 401", st)
	}
	if st := write(srv, "secret"); st != http.StatusOK {
		t.Fatalf("token: %d, want 200", st)
	}
	status, out := post(t, srv, "gizmo", `g.V("<http://x.example/a>").Out("<http://x.example/p>").All()`, nil)
	res, _ := out["result"].([]any)
	if status != http.StatusOK || len(res) != 1 || res[0].(map[string]any)["id"] != "v" {
		t.Fatalf("written quad not read back: %d %v", status, out)
	}
}
