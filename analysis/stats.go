package analysis

import (
	"context"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// stats are the figures of one crawl's analysis graph that the measures,
// topics, associations and changes are computed from.
type stats struct {
	docs        map[string]bool            // texts analysed
	terms       map[string]map[string]int  // text → its most frequent terms → count
	df          map[string]int             // term → texts among whose most frequent terms it is
	entities    map[string]*entityStats    // by entity IRI
	docEntities map[string]map[string]int  // text → entity IRI → mentions
	types       map[string]map[string]bool // entity IRI → classes
	// fresh are the texts new or changed in the crawl (its own time's),
	// nil when the crawl was compared with none (all are).
	fresh map[string]bool
	// changed are the fresh texts that are changed versions, and prior
	// the entities of each text in the crawl before: in a changed text
	// only the entities its earlier version did not name are of its time.
	changed map[string]bool
	prior   map[string]map[string]int
	// status is the version status of each object against the crawl
	// before (none when the crawl was compared with none).
	status map[string]string
}

// nFresh is the number of the crawl's new or changed texts (at least 1).
func (s *stats) nFresh() float64 {
	if s.fresh == nil {
		return float64(max(len(s.docs), 1))
	}
	return float64(max(len(s.fresh), 1))
}

// freshDocs is the number of new or changed texts naming e.
func (s *stats) freshDocs(e string) int {
	es := s.entities[e]
	if es == nil {
		return 0
	}
	if s.fresh == nil {
		return len(es.docs)
	}
	n := 0
	for d := range es.docs {
		if s.fresh[d] && !(s.changed[d] && s.prior[d][e] > 0) {
			n++
		}
	}
	return n
}

// entityStats are one entity's mentions in a crawl.
type entityStats struct {
	docs                 map[string]bool
	mentions             int
	sentiments           int     // mentions with a sentiment
	sum, abs             float64 // of their compound scores, and of its absolute value
	opinions             int     // mentions with an opinion: beyond ±neutral
	strongPos, strongNeg int     // mentions at or beyond ±strong
}

// A mention with a compound score beyond ±neutral carries an opinion
// (VADER's own threshold for a positive or negative sentence); from
// ±strong a clear one.
const (
	neutral = 0.05
	strong  = 0.5
)

// loadStats reads the analysis graph g.
func loadStats(ctx context.Context, v *graph.View, g string) (*stats, error) {
	s := &stats{docs: map[string]bool{}, terms: map[string]map[string]int{}, df: map[string]int{},
		entities: map[string]*entityStats{}, docEntities: map[string]map[string]int{}, types: map[string]map[string]bool{}}
	in := "GRAPH " + rdf.IRI(g).String()
	err := each(ctx, v, `SELECT ?o WHERE { `+in+` { ?o mneme:textLength ?n } }`, func(row []rdf.Term) error {
		s.docs[row[0].Value] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = each(ctx, v, `SELECT ?o ?tc WHERE { `+in+` { ?o mneme:termCounts ?tc } }`, func(row []rdf.Term) error {
		m := parseTermCounts(row[1].Value)
		s.terms[row[0].Value] = m
		for t := range m {
			s.df[t]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = each(ctx, v, `SELECT ?e ?o ?s WHERE { `+in+` { ?m mneme:mentionOf ?e ; mneme:inObject ?o . OPTIONAL { ?m mneme:sentiment ?s } } }`,
		func(row []rdf.Term) error {
			e, o := row[0].Value, row[1].Value
			es := s.entities[e]
			if es == nil {
				es = &entityStats{docs: map[string]bool{}}
				s.entities[e] = es
			}
			es.docs[o] = true
			es.mentions++
			if de := s.docEntities[o]; de == nil {
				s.docEntities[o] = map[string]int{e: 1}
			} else {
				de[e]++
			}
			if !row[2].IsZero() {
				c, err := strconv.ParseFloat(row[2].Value, 64)
				if err != nil {
					return nil
				}
				es.sentiments++
				es.sum += c
				if c < 0 {
					es.abs -= c
				} else {
					es.abs += c
				}
				if c >= neutral || c <= -neutral {
					es.opinions++
				}
				if c >= strong {
					es.strongPos++
				}
				if c <= -strong {
					es.strongNeg++
				}
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	err = each(ctx, v, `SELECT ?o ?s WHERE { `+in+` { ?v mneme:versionOf ?o ; mneme:versionStatus ?s } }`, func(row []rdf.Term) error {
		if s.status == nil {
			s.status = map[string]string{}
		}
		s.status[row[0].Value] = row[1].Value
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.setFresh()
	err = each(ctx, v, `SELECT ?e ?t WHERE { `+in+` { ?e a mneme:Entity, ?t } }`, func(row []rdf.Term) error {
		m := s.types[row[0].Value]
		if m == nil {
			m = map[string]bool{}
			s.types[row[0].Value] = m
		}
		m[row[1].Value] = true
		return nil
	})
	return s, err
}

// setFresh sets the new or changed texts from the versions' status.
func (s *stats) setFresh() {
	if s.status == nil {
		s.fresh, s.changed = nil, nil
		return
	}
	s.fresh, s.changed = map[string]bool{}, map[string]bool{}
	for o, st := range s.status {
		if st == ontology.StatusNew || st == ontology.StatusChanged {
			s.fresh[o] = true
			s.changed[o] = st == ontology.StatusChanged
		}
	}
}

// parseTermCounts reads a mneme:termCounts literal.
func parseTermCounts(v string) map[string]int {
	m := map[string]int{}
	for _, f := range strings.Fields(v) {
		i := strings.LastIndexByte(f, ':')
		if i <= 0 {
			continue
		}
		n, err := strconv.Atoi(f[i+1:])
		if err != nil {
			continue
		}
		m[f[:i]] = n
	}
	return m
}

// entityKey returns the key (nlp.Key) an entity IRI was made from.
func entityKey(iri string) string {
	k, ok := strings.CutPrefix(iri, "urn:mneme:entity:")
	if !ok {
		return ""
	}
	if u, err := url.PathUnescape(k); err == nil {
		k = u
	}
	return strings.ReplaceAll(k, "_", " ")
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// cooccurring returns, for entity e, the other entities of its texts with
// the number of texts they share, and the terms of its texts with the
// number of its texts whose most frequent terms include them.
func (s *stats) cooccurring(e string) (ents, terms map[string]int) {
	ents, terms = map[string]int{}, map[string]int{}
	es := s.entities[e]
	if es == nil {
		return
	}
	for d := range es.docs {
		for f := range s.docEntities[d] {
			if f != e {
				ents[f]++
			}
		}
		for t := range s.terms[d] {
			terms[t]++
		}
	}
	return
}
