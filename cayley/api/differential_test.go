package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cayleygraph/quad"

	"github.com/mneme-archive/mneme/cayley"
	"github.com/mneme-archive/mneme/cayley/api"
	"github.com/mneme-archive/mneme/sparql"
)

// iris expands the prefixes of the queries below (in <prefix:name>).
var iris = strings.NewReplacer(
	"<rdf:", "<http://www.w3.org/1999/02/22-rdf-syntax-ns#",
	"<mneme:", "<https://w3id.org/mneme#",
	"<prov:", "<http://www.w3.org/ns/prov#",
	"<sioc:", "<http://rdfs.org/sioc/ns#",
	"<sioct:", "<http://rdfs.org/sioc/types#",
	"<dcterms:", "<http://purl.org/dc/terms/",
	"<xsd:", "<http://www.w3.org/2001/XMLSchema#",
)

const sparqlPrefixes = `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>
PREFIX mneme: <https://w3id.org/mneme#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX sioc: <http://rdfs.org/sioc/ns#>
PREFIX sioct: <http://rdfs.org/sioc/types#>
PREFIX dcterms: <http://purl.org/dc/terms/>
PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>
`

// differential pairs a Gizmo or GraphQL query with the SPARQL query that
// asks the same; the SPARQL variables are named after the Gizmo tags
// ("id" for the path's end) or the GraphQL fields.
var differential = []struct {
	name, lang, query, sparql string
}{
	{"captures of a URL", "gizmo",
		`g.V("<http://site1.example/p3>").In("<mneme:url>").All()`,
		`SELECT ?id { ?id mneme:url <http://site1.example/p3> }`},
	{"capture times of a URL", "gizmo",
		`g.V("<http://site1.example/p3>").In("<mneme:url>").Out("<prov:generatedAtTime>").All()`,
		`SELECT ?id { ?c mneme:url <http://site1.example/p3> ; prov:generatedAtTime ?id }`},
	{"earlier captures of a URL (revision chain)", "gizmo",
		`g.V("<http://site2.example/p6>").In("<mneme:url>").FollowRecursive("<prov:wasRevisionOf>").All()`,
		`SELECT ?id { ?c mneme:url <http://site2.example/p6> ; prov:wasRevisionOf+ ?id }`},
	{"posts of an author", "gizmo",
		`g.V("<http://site0.example/author/0>").In("<sioc:has_creator>").All()`,
		`SELECT ?id { ?id sioc:has_creator <http://site0.example/author/0> }`},
	{"titles of an author's posts (language literals)", "gizmo",
		`g.V("<http://site0.example/author/0>").In("<sioc:has_creator>").Out("<dcterms:title>").All()`,
		`SELECT ?id { ?p sioc:has_creator <http://site0.example/author/0> ; dcterms:title ?id }`},
	{"posts of an author in a blog (intersection)", "gizmo",
		`g.V("<http://site3.example/author/3>").In("<sioc:has_creator>").And(g.V("<http://site3.example/blog>").In("<sioc:has_container>")).All()`,
		`SELECT ?id { ?id sioc:has_creator <http://site3.example/author/3> ; sioc:has_container <http://site3.example/blog> }`},
	{"links from one site to another", "gizmo",
		`g.V().Has("<rdf:type>", "<mneme:Capture>").Out("<mneme:url>").Filter(regex("^http://site0\\.example/", true)).Tag("from").In("<mneme:url>").Out("<mneme:linksTo>").Filter(regex("^http://site2\\.example/", true)).All()`,
		`SELECT ?from ?id { ?c a mneme:Capture ; mneme:url ?from ; mneme:linksTo ?id
		  FILTER(STRSTARTS(STR(?from), "http://site0.example/") && STRSTARTS(STR(?id), "http://site2.example/")) }`},
	{"captures of a URL in one crawl (label)", "gizmo",
		`g.V("<http://site1.example/p3>").LabelContext("<urn:mneme:crawl:c1>").In("<mneme:url>").All()`,
		`SELECT ?id { GRAPH <urn:mneme:crawl:c1> { ?id mneme:url <http://site1.example/p3> } }`},
	{"crawls that captured a URL", "gizmo",
		`g.V("<http://site0.example/p9>").In("<mneme:url>").Out("<prov:wasGeneratedBy>").All()`,
		`SELECT ?id { ?c mneme:url <http://site0.example/p9> ; prov:wasGeneratedBy ?id }`},
	{"posts nobody commented on (except)", "gizmo",
		`g.V().Has("<rdf:type>", "<sioc:Post>").Except(g.V().Has("<rdf:type>", "<sioct:Comment>").Out("<sioc:reply_of>")).All()`,
		`SELECT ?id { ?id a sioc:Post FILTER NOT EXISTS { ?c sioc:reply_of ?id } }`},
	{"posts with their authors' names (two tags)", "gizmo",
		`g.V().Has("<rdf:type>", "<sioc:Post>").Tag("post").Out("<sioc:has_creator>").Out("<sioc:name>").All()`,
		`SELECT ?post ?id { ?post a sioc:Post ; sioc:has_creator ?a . ?a sioc:name ?id }`},
	{"failed captures (typed literal)", "gizmo",
		`g.V().Has("<mneme:httpStatus>", "\"404\"^^<xsd:integer>").Out("<mneme:url>").All()`,
		`SELECT ?id { ?c mneme:httpStatus 404 ; mneme:url ?id }`},
	{"post quads counted per graph", "gizmo",
		`g.emit(g.V().Has("<rdf:type>", "<sioc:Post>").Count())`,
		`SELECT (COUNT(*) AS ?id) { GRAPH ?g { ?p a sioc:Post } }`},
	{"an author's posts and titles", "graphql",
		`{ posts(<sioc:has_creator>: <http://site1.example/author/3>) { id title: <dcterms:title> } }`,
		`SELECT ?id ?title { ?id sioc:has_creator <http://site1.example/author/3> ; dcterms:title ?title }`},
	{"captures of a URL with their times", "graphql",
		`{ page(id: <http://site3.example/p12>) { captures: <mneme:url> @rev { id time: <prov:generatedAtTime> } } }`,
		`SELECT ?id ?time { ?id mneme:url <http://site3.example/p12> ; prov:generatedAtTime ?time }`},
}

// native is a term as Cayley's query languages write it in JSON.
func native(v quad.Value) any {
	out := v.Native()
	if nv, ok := out.(quad.Value); ok && v == nv {
		return quad.StringOf(v)
	}
	return out
}

func jsonOf(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// collect gathers the leaf values of a GraphQL answer by field name.
func collect(v any, key string, into map[string][]string, t *testing.T) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			collect(x, k, into, t)
		}
	case []map[string]any:
		for _, x := range v {
			collect(x, key, into, t)
		}
	case []any:
		for _, x := range v {
			collect(x, key, into, t)
		}
	default:
		into[key] = append(into[key], jsonOf(t, v))
	}
}

func distinct(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// TestDifferentialSPARQL runs each Gizmo or GraphQL query and its SPARQL
// twin over the same crawl store and compares the answers as sets (a
// traversal yields a node once per path, SPARQL a row per solution), the
// Gizmo and GraphQL queries both in a session of their own and in
// sessions kept across queries (api.Sessions).
func TestDifferentialSPARQL(t *testing.T) {
	s := crawlStore(t, 25)
	ctx := context.Background()
	poolQS := cayley.NewSnapshot(s) // the pool's one state
	defer poolQS.Close()
	pool := api.NewSessions(poolQS, 2)
	for _, c := range differential {
		t.Run(c.name, func(t *testing.T) {
			q, err := sparql.Prepare(sparqlPrefixes+c.sparql, sparql.Options{})
			if err != nil {
				t.Fatal(err)
			}
			snap := s.Snapshot()
			defer snap.Close()
			res, err := q.Exec(ctx, snap)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string][]string{}
			for res.Next() {
				for i, v := range res.Vars {
					if term := res.Row()[i]; !term.IsZero() {
						val := cayley.ToValue(term)
						if iri, ok := val.(quad.IRI); ok && c.lang == "graphql" {
							want[v] = append(want[v], jsonOf(t, string(iri)))
							continue
						}
						want[v] = append(want[v], jsonOf(t, native(val)))
					}
				}
			}
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			res.Close()

			if len(want["id"]) == 0 {
				t.Fatalf("SPARQL found nothing: the pair tests nothing")
			}
			qs := cayley.NewSnapshot(s)
			defer qs.Close()
			// Each query runs in a session of its own, then twice in the
			// pool's sessions, which earlier queries have run in.
			runs := []struct {
				name string
				run  func(ctx context.Context, lang, text string, limit int, emit func(any) error) (bool, error)
			}{
				{"own session", func(ctx context.Context, lang, text string, limit int, emit func(any) error) (bool, error) {
					return api.Run(ctx, qs, lang, text, limit, emit)
				}},
				{"pooled", pool.Run},
				{"pooled again", pool.Run},
			}
			for _, r := range runs {
				got := map[string][]string{}
				_, err = r.run(ctx, c.lang, iris.Replace(c.query), 0, func(v any) error {
					if c.lang == "graphql" {
						collect(v, "", got, t)
						return nil
					}
					switch v := v.(type) {
					case map[string]any:
						for k, x := range v {
							got[k] = append(got[k], jsonOf(t, x))
						}
					default: // an emitted value
						got["id"] = append(got["id"], jsonOf(t, v))
					}
					return nil
				})
				if err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				for _, v := range res.Vars {
					w, g := distinct(slices.Clone(want[v])), distinct(got[v])
					if !slices.Equal(w, g) {
						t.Errorf("%s: %s: SPARQL %d values, %s %d:\nSPARQL %v\n%s %v", r.name, v, len(w), c.lang, len(g), w, c.lang, g)
					}
				}
			}
			if t.Failed() {
				fmt.Println(c.query)
			}
		})
	}
}
