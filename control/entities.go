package control

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/analysis"
	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// Routes of the entities the analysis graphs hold (read-only; the model
// and the queries are those of docs/analysis.md):
//
//	GET /api/entities?q=TEXT&limit=N       entities whose label or an alias contains TEXT (any case); no q: the most popular
//	GET /api/entities/{id}?mentions=N      one entity: measures per crawl, names, latest mentions, neighbours

// Bounds of the entity answers: what a screen shows, not a dump.
const (
	entityLimit     = 50
	maxEntityLimit  = 1000
	mentionLimit    = 100
	maxMentionLimit = 5000
	neighbourLimit  = 50
)

const (
	entityIRIPrefix = "urn:mneme:entity:"
	// entityQueryStart are the prefixes of the entity queries.
	entityQueryStart = `PREFIX mneme: <https://w3id.org/mneme#>
PREFIX prov: <http://www.w3.org/ns/prov#>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
PREFIX owl: <http://www.w3.org/2002/07/owl#>
PREFIX schema: <http://schema.org/>
`
)

func (h *Handler) entityRoutes() {
	h.mux.HandleFunc("GET /api/entities", h.read(h.findEntities))
	h.mux.HandleFunc("GET /api/entities/{id}", h.read(h.entity))
}

// limitParam reads a positive bound, def when absent, at most top.
func limitParam(r *http.Request, name string, def, top int) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, &InputError{fmt.Errorf("%s=%q: want a positive number", name, v)}
	}
	return min(n, top), nil
}

// noStore answers for a server without a store (none in the crawl
// daemons of tests that leave it out).
func (h *Handler) noStore(w http.ResponseWriter) bool {
	if h.m.deps.Store != nil {
		return false
	}
	writeError(w, http.StatusServiceUnavailable, "this server has no store to read entities from", nil)
	return true
}

func (h *Handler) findEntities(w http.ResponseWriter, r *http.Request) {
	if h.noStore(w) {
		return
	}
	limit, err := limitParam(r, "limit", entityLimit, maxEntityLimit)
	if err != nil {
		h.fail(w, err)
		return
	}
	hits, err := findEntities(r.Context(), h.m.deps.Store, r.URL.Query().Get("q"), limit)
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, hits)
}

func (h *Handler) entity(w http.ResponseWriter, r *http.Request) {
	if h.noStore(w) {
		return
	}
	limit, err := limitParam(r, "mentions", mentionLimit, maxMentionLimit)
	if err != nil {
		h.fail(w, err)
		return
	}
	id := r.PathValue("id")
	iri := rdf.IRI(entityIRIPrefix + id)
	if id == "" || strings.ContainsAny(id, " <>\"{}|^`\\") || iri.Validate("entity") != nil {
		h.fail(w, &InputError{fmt.Errorf("entity %q: not an entity id (the part of urn:mneme:entity:… after the prefix)", id)})
		return
	}
	e, err := entity(r.Context(), h.m.deps.Store, iri, limit)
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, e)
}

// selectRows runs a SELECT query (prefixes added) on the snapshot v and
// calls fn with every row.
func selectRows(ctx context.Context, v *graph.View, q string, fn func(row []rdf.Term)) error {
	err := sparql.Each(ctx, v, entityQueryStart+q, func(row []rdf.Term) error { fn(row); return nil })
	if err != nil {
		return fmt.Errorf("entity query: %w", err)
	}
	return nil
}

func num(t rdf.Term) float64 {
	f, _ := strconv.ParseFloat(t.Value, 64)
	return f
}

func integer(t rdf.Term) int64 { return int64(num(t)) }

// entityID is the id of an entity IRI in the routes.
func entityID(iri string) string { return strings.TrimPrefix(iri, entityIRIPrefix) }

func crawlOf(t rdf.Term) string {
	if id, ok := analysis.CrawlID(t.Value); ok {
		return id
	}
	return t.Value
}

// kindOf names an entity type as the analysis types it.
func kindOf(types []string) string {
	for _, t := range types {
		switch t {
		case "http://schema.org/Person":
			return "person"
		case "http://schema.org/Organization":
			return "organization"
		case "http://schema.org/Place":
			return "place"
		}
	}
	return "thing"
}

// findEntities answers /api/entities: the entities matching q by label
// or alias, the most popular first (then by label).
func findEntities(ctx context.Context, st *graph.Store, q string, limit int) ([]api.EntityHit, error) {
	v := st.Snapshot()
	defer v.Close()
	filter := ""
	if q = strings.ToLower(strings.TrimSpace(q)); q != "" {
		lit := rdf.String(q).String()
		filter = `FILTER EXISTS { GRAPH ?g { ?entity rdfs:label|mneme:alias ?name } FILTER (CONTAINS(LCASE(STR(?name)), ` + lit + `)) }`
	}
	// Ranked and cut in the query, which spills to disk past its row
	// bound: an archive's entities are not held here.
	var out []api.EntityHit
	err := selectRows(ctx, v, `SELECT ?entity (SUM(?p) AS ?pop) (COUNT(DISTINCT ?crawl) AS ?crawls) WHERE {
  GRAPH ?a { ?m mneme:measuresOf ?entity ; mneme:popularity ?p ; mneme:inCrawl ?crawl }
  `+filter+`
} GROUP BY ?entity ORDER BY DESC(?pop) ?entity LIMIT `+strconv.Itoa(limit), func(row []rdf.Term) {
		out = append(out, api.EntityHit{ID: entityID(row[0].Value), IRI: row[0].Value, Popularity: integer(row[1]), Crawls: int(integer(row[2]))})
	})
	if err != nil {
		return nil, err
	}
	for i := range out {
		e := rdf.IRI(out[i].IRI)
		if out[i].Label, err = labelOf(ctx, v, e); err != nil {
			return nil, err
		}
		types, err := typesOf(ctx, v, e)
		if err != nil {
			return nil, err
		}
		out[i].Kind = kindOf(types)
	}
	if out == nil {
		out = []api.EntityHit{}
	}
	return out, nil
}

// labelOf is an entity's label (the first, should crawls differ), "" when
// none names it an entity.
func labelOf(ctx context.Context, v *graph.View, e rdf.Term) (string, error) {
	label := ""
	err := selectRows(ctx, v, `SELECT ?label WHERE { GRAPH ?a { `+e.String()+` a mneme:Entity ; rdfs:label ?label } } ORDER BY ?label LIMIT 1`, func(row []rdf.Term) {
		label = row[0].Value
	})
	return label, err
}

func typesOf(ctx context.Context, v *graph.View, e rdf.Term) ([]string, error) {
	var types []string
	err := selectRows(ctx, v, `SELECT DISTINCT ?t WHERE { GRAPH ?a { `+e.String()+` a ?t } }`, func(row []rdf.Term) {
		types = append(types, row[0].Value)
	})
	return types, err
}

// entity answers /api/entities/{id}.
func entity(ctx context.Context, st *graph.Store, e rdf.Term, mentions int) (*api.Entity, error) {
	v := st.Snapshot()
	defer v.Close()
	E := e.String()
	out := &api.Entity{EntityHit: api.EntityHit{ID: entityID(e.Value), IRI: e.Value},
		Aliases: []string{}, Measures: []api.EntityMeasures{}, NameChanges: []api.NameChange{},
		Mentions: []api.EntityMention{}, Neighbours: []api.EntityNeighbour{}}
	var err error
	if out.Label, err = labelOf(ctx, v, e); err != nil {
		return nil, err
	}
	if out.Label == "" {
		return nil, fmt.Errorf("entity %s: no analysis graph names it: %w", e.Value, ErrUnknown)
	}
	types, err := typesOf(ctx, v, e)
	if err != nil {
		return nil, err
	}
	out.Kind = kindOf(types)
	steps := []func() error{
		func() error {
			return selectRows(ctx, v, `SELECT DISTINCT ?alias WHERE { GRAPH ?a { `+E+` mneme:alias ?alias } } ORDER BY ?alias`, func(row []rdf.Term) {
				if row[0].Value != out.Label {
					out.Aliases = append(out.Aliases, row[0].Value)
				}
			})
		},
		func() error {
			return selectRows(ctx, v, `SELECT DISTINCT ?same WHERE { GRAPH ?a { `+E+` owl:sameAs ?same } } ORDER BY ?same`, func(row []rdf.Term) {
				out.SameAs = append(out.SameAs, row[0].Value)
			})
		},
		func() error { return measures(ctx, v, E, out) },
		func() error { return nameChanges(ctx, v, E, out) },
		func() error { return entityMentions(ctx, v, E, mentions, out) },
		func() error { return neighbours(ctx, v, E, out) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	out.Crawls = len(out.Measures)
	for _, m := range out.Measures {
		out.Popularity += m.Popularity
	}
	return out, nil
}

// measures reads the entity's timeline (the query "timeline" of
// docs/analysis.md).
func measures(ctx context.Context, v *graph.View, E string, out *api.Entity) error {
	return selectRows(ctx, v, `SELECT ?crawl ?time ?popularity ?count ?attitude ?sentimentality ?controversiality ?connectedness WHERE {
  GRAPH ?a {
    ?m mneme:measuresOf `+E+` ; mneme:inCrawl ?crawl ; mneme:crawlTime ?time ;
       mneme:popularity ?popularity ; mneme:mentionCount ?count ; mneme:attitude ?attitude ;
       mneme:sentimentality ?sentimentality ; mneme:controversiality ?controversiality ;
       mneme:connectedness ?connectedness .
  }
} ORDER BY ?time ?crawl`, func(row []rdf.Term) {
		t, _ := time.Parse(time.RFC3339Nano, row[1].Value)
		out.Measures = append(out.Measures, api.EntityMeasures{Crawl: crawlOf(row[0]), Time: t,
			Popularity: integer(row[2]), Mentions: integer(row[3]), Attitude: num(row[4]), Sentimentality: num(row[5]),
			Controversiality: num(row[6]), Connectedness: integer(row[7])})
	})
}

// nameChanges reads the proposals naming the entity as the former name
// or the later one, with their evidence and the other name's label.
func nameChanges(ctx context.Context, v *graph.View, E string, out *api.Entity) error {
	byNode := map[string]*api.NameChange{}
	var order []string
	err := selectRows(ctx, v, `SELECT ?x ?crawl ?prev ?o ?ol ?n ?nl ?score ?sim ?burst ?evidence WHERE {
  GRAPH ?a {
    ?x a mneme:NameChange ; mneme:formerName ?o ; mneme:laterName ?n ; mneme:inCrawl ?crawl ; mneme:score ?score .
    FILTER (?o = `+E+` || ?n = `+E+`)
    OPTIONAL { ?x mneme:previousCrawl ?prev }
    OPTIONAL { ?x mneme:contextSimilarity ?sim }
    OPTIONAL { ?x mneme:burst ?burst }
    OPTIONAL { ?x mneme:evidence ?evidence }
  }
  OPTIONAL { GRAPH ?g1 { ?o rdfs:label ?ol } }
  OPTIONAL { GRAPH ?g2 { ?n rdfs:label ?nl } }
} ORDER BY DESC(?score) ?x ?evidence`, func(row []rdf.Term) {
		c := byNode[row[0].Value]
		if c == nil {
			c = &api.NameChange{Crawl: crawlOf(row[1]), Former: api.Named{ID: entityID(row[3].Value), Label: row[4].Value},
				Later: api.Named{ID: entityID(row[5].Value), Label: row[6].Value}, Score: num(row[7]), Similarity: num(row[8]),
				Burst: num(row[9]), Evidence: []string{}}
			if !row[2].IsZero() {
				c.Previous = crawlOf(row[2])
			}
			byNode[row[0].Value] = c
			order = append(order, row[0].Value)
		}
		if ev := row[10].Value; ev != "" && (len(c.Evidence) == 0 || c.Evidence[len(c.Evidence)-1] != ev) {
			c.Evidence = append(c.Evidence, ev)
		}
	})
	for _, x := range order {
		out.NameChanges = append(out.NameChanges, *byNode[x])
	}
	return err
}

// entityMentions reads the latest mentions, with the capture's URL and
// time from the crawl's graph, and counts them all.
func entityMentions(ctx context.Context, v *graph.View, E string, limit int, out *api.Entity) error {
	err := selectRows(ctx, v, `SELECT (COUNT(?m) AS ?n) WHERE { GRAPH ?a { ?m mneme:mentionOf `+E+` } }`, func(row []rdf.Term) {
		out.MentionsAll = integer(row[0])
	})
	if err != nil {
		return err
	}
	return selectRows(ctx, v, `SELECT ?crawl ?object ?capture ?url ?time ?surface ?sentence ?sentiment ?start WHERE {
  GRAPH ?a {
    ?m mneme:mentionOf `+E+` ; mneme:inObject ?object ; prov:wasDerivedFrom ?capture ;
       mneme:surfaceForm ?surface ; mneme:sentence ?sentence .
    OPTIONAL { ?m mneme:sentiment ?sentiment }
    OPTIONAL { ?m mneme:startOffset ?start }
    ?a mneme:analysedCrawl ?crawl .
  }
  OPTIONAL { GRAPH ?crawl { ?capture prov:generatedAtTime ?time } }
  OPTIONAL { GRAPH ?crawl { ?capture mneme:url ?url } }
} ORDER BY DESC(?time) DESC(?crawl) ?object ?start LIMIT `+strconv.Itoa(limit), func(row []rdf.Term) {
		m := api.EntityMention{Crawl: crawlOf(row[0]), Object: row[1].Value, Capture: row[2].Value, URL: row[3].Value,
			Surface: row[5].Value, Sentence: row[6].Value}
		if !row[4].IsZero() {
			m.Time, _ = time.Parse(time.RFC3339Nano, row[4].Value)
		}
		if !row[7].IsZero() {
			s := num(row[7])
			m.Sentiment = &s
		}
		out.Mentions = append(out.Mentions, m)
	})
}

// neighbours reads the entities associated with the entity, summed over
// the crawls.
func neighbours(ctx context.Context, v *graph.View, E string, out *api.Entity) error {
	return selectRows(ctx, v, `SELECT ?f (SAMPLE(?label) AS ?l) (SUM(?n) AS ?shared) (COUNT(DISTINCT ?crawl) AS ?crawls) (MAX(?w) AS ?weight) WHERE {
  GRAPH ?a { ?x mneme:associationOf `+E+` ; mneme:associatedEntity ?f ; mneme:cooccurrences ?n ; mneme:weight ?w ; mneme:inCrawl ?crawl }
  OPTIONAL { GRAPH ?g { ?f rdfs:label ?label } }
} GROUP BY ?f ORDER BY DESC(?shared) DESC(?weight) ?f LIMIT `+strconv.Itoa(neighbourLimit), func(row []rdf.Term) {
		out.Neighbours = append(out.Neighbours, api.EntityNeighbour{Named: api.Named{ID: entityID(row[0].Value), Label: row[1].Value},
			Shared: integer(row[2]), Crawls: int(integer(row[3])), Weight: num(row[4])})
	})
}
