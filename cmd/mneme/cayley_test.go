package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestQueryCayley runs Gizmo and GraphQL through mneme query, on a store
// and through the mneme serve holding it, and a Gizmo syntax error.
func TestQueryCayley(t *testing.T) {
	store := loadStore(t, queryData)
	const knows = `g.V("<http://e.org/alice>").Out("<http://e.org/knows>").All()`
	local := mustRun(t, "query", "--store", store, "--lang", "gizmo", knows)
	for _, want := range []string{`{"id":"\u003chttp://e.org/bob\u003e"}`, `"_:`} {
		if !strings.Contains(local, want) {
			t.Errorf("gizmo answer %q lacks %s", local, want)
		}
	}
	gql := mustRun(t, "query", "--store", store, "--lang", "graphql", `{ p(id: <http://e.org/alice>) { name: <http://e.org/name> age: <http://e.org/age> } }`)
	if !strings.Contains(gql, `"age":42`) || !strings.Contains(gql, `Alice \"Al\" Smith`) {
		t.Errorf("graphql answer %q", gql)
	}
	code, _, errOut := mneme(t, "", "query", "--store", store, "--lang", "gizmo", "g.V(\n.All()")
	if code != 1 || !strings.Contains(errOut, "query:2:") {
		t.Errorf("syntax error: exit %d, %q; want exit 1 and query:2:COL", code, errOut)
	}

	endpoint := startServe(t, store)
	code, out, errOut := mneme(t, "", "query", "--store", store, "--lang", "gizmo", knows)
	if code != 0 || out != local || !strings.Contains(errOut, "/api/v2/query") {
		t.Errorf("held store: exit %d, %q (want %q), stderr %q", code, out, local, errOut)
	}
	resp, err := http.Post(strings.TrimSuffix(endpoint, "/sparql")+"/api/v2/query?lang=graphql", "text/plain", strings.NewReader("{ x(id: <a>) { id }"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "line 1, column") {
		t.Errorf("served graphql syntax error: %s %s", resp.Status, body)
	}
	resp, err = http.PostForm(strings.TrimSuffix(endpoint, "/sparql")+"/api/v2/write", url.Values{})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("write to a read-only server: %s, want 403", resp.Status)
	}
}
