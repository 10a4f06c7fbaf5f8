package endpoint

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/results"
)

// graphStore holds :a in the store's default graph, :b in graph g1, :c in
// g2 (each as ?s :in "graph name").
func graphStore(t *testing.T) *graph.Store {
	t.Helper()
	s := tempStore(t)
	b := s.NewBatch()
	for _, q := range [][2]string{{"a", ""}, {"b", "g1"}, {"c", "g2"}} {
		var g rdf.Term
		if q[1] != "" {
			g = rdf.IRI(ex + q[1])
		}
		b.Add(rdf.Quad{S: rdf.IRI(ex + q[0]), P: rdf.IRI(ex + "in"), O: rdf.Literal(q[1], rdf.XSDString), G: g})
	}
	if _, err := b.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestProtocolDataset checks default-graph-uri and named-graph-uri (SPARQL
// 1.1 Protocol §2.1.4), by GET, form POST and direct POST, including
// their precedence over the query's FROM and FROM NAMED.
func TestProtocolDataset(t *testing.T) {
	_, srv := serve(t, graphStore(t), Config{})
	const (
		subjects = `SELECT ?s WHERE { ?s <http://example.org/in> ?o }`
		named    = `SELECT ?s WHERE { GRAPH ?g { ?s <http://example.org/in> ?o } }`
	)
	for _, tc := range []struct {
		name, query string
		params      url.Values
		want        []string
	}{
		{"no dataset: the union of all graphs", subjects, nil, []string{"a", "b", "c"}},
		{"default-graph-uri", subjects, url.Values{"default-graph-uri": {ex + "g1"}}, []string{"b"}},
		{"two default graphs merge", subjects, url.Values{"default-graph-uri": {ex + "g1", ex + "g2"}}, []string{"b", "c"}},
		{"named-graph-uri only: empty default graph", subjects, url.Values{"named-graph-uri": {ex + "g2"}}, nil},
		{"named-graph-uri", named, url.Values{"named-graph-uri": {ex + "g2"}}, []string{"c"}},
		{"default graphs are not named", named, url.Values{"default-graph-uri": {ex + "g1"}}, nil},
		{"protocol over FROM", `SELECT ?s FROM <http://example.org/g2> WHERE { ?s ?p ?o }`,
			url.Values{"default-graph-uri": {ex + "g1"}}, []string{"b"}},
		{"protocol over FROM NAMED", `SELECT ?s FROM NAMED <http://example.org/g1> WHERE { GRAPH ?g { ?s ?p ?o } }`,
			url.Values{"named-graph-uri": {ex + "g2"}}, []string{"c"}},
		{"FROM without protocol dataset", `SELECT ?s FROM <http://example.org/g2> WHERE { ?s ?p ?o }`, nil, []string{"c"}},
	} {
		for _, method := range []string{"GET", "POST form", "POST direct"} {
			params := url.Values{}
			for k, v := range tc.params {
				params[k] = v
			}
			var req *http.Request
			switch method {
			case "GET":
				params.Set("query", tc.query)
				req, _ = http.NewRequest(http.MethodGet, srv.URL+"/sparql?"+params.Encode(), nil)
			case "POST form":
				params.Set("query", tc.query)
				req, _ = http.NewRequest(http.MethodPost, srv.URL+"/sparql", strings.NewReader(params.Encode()))
				req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			default:
				req, _ = http.NewRequest(http.MethodPost, srv.URL+"/sparql?"+params.Encode(), strings.NewReader(tc.query))
				req.Header.Set("Content-Type", "application/sparql-query")
			}
			req.Header.Set("Accept", results.JSON.MediaType())
			resp, body := do(t, req)
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("%s, %s: %s: %s", tc.name, method, resp.Status, body)
			}
			res, err := results.Read(strings.NewReader(body), results.JSON, tc.name)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, row := range res.Rows {
				got = append(got, strings.TrimPrefix(row[0].Value, ex))
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s, %s: subjects %v, want %v", tc.name, method, got, tc.want)
			}
		}
	}
}
