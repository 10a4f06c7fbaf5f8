package campaign

import (
	"context"
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/socialrdf"
	"github.com/mneme-archive/mneme/sparql"
)

// pairState is a pair and its latest committed checkpoint.
type pairState struct {
	socialrdf.Pair
	cp        socialrdf.Checkpoint // Seq 0: never fetched
	errors    int                  // failures in a row
	allErrors int64
	lastErr   string
}

// PairStatus is what a campaign's status says of one pair.
type PairStatus struct {
	Platform  string `json:"platform"`
	Kind      string `json:"kind"`
	Query     string `json:"query"`
	Derived   bool   `json:"derived,omitempty"` // added by the platform's strategy
	Pass      int64  `json:"pass"`              // the pass of its latest page; 0 before the first
	Done      bool   `json:"done"`              // nothing more in that pass
	Posts     int64  `json:"posts"`
	Requests  int64  `json:"requests"`
	Errors    int64  `json:"errors"` // failed pages since the campaign (re)started
	LastError string `json:"last-error,omitempty"`
}

func (p *pairState) status() PairStatus {
	return PairStatus{Platform: p.Platform, Kind: string(p.Query.Kind), Query: p.Query.Text, Derived: p.Parent != "",
		Pass: p.cp.Pass, Done: p.cp.Done, Posts: p.cp.Posts, Requests: p.cp.Requests, Errors: p.allErrors, LastError: p.lastErr}
}

// due reports whether the pair has work in pass.
func (p *pairState) due(pass int64) bool { return p.cp.Pass < pass || !p.cp.Done }

// loadPairs reads a campaign's pairs and their latest checkpoints from
// the store: the spec's pairs first in spec order (with a fresh state
// when the store has none yet), then the derived ones.
func loadPairs(ctx context.Context, st *graph.Store, s *Spec) ([]*pairState, error) {
	id := s.ID
	state := socialrdf.StateGraph(id)
	rows, err := selectRows(ctx, st, fmt.Sprintf(`SELECT ?pair ?platform ?kind ?text ?parent WHERE { GRAPH <%s> {
  ?pair a <%s> ; <%s> ?platform ; <%s> ?kind ; <%s> ?text .
  OPTIONAL { ?pair <%s> ?parent } } }`, state, ontology.QueryPair, ontology.Platform, ontology.QueryKind, ontology.Keyword, ontology.ProvWasDerivedFrom))
	if err != nil {
		return nil, err
	}
	byIRI := map[string]*pairState{}
	var out []*pairState
	for i := range s.Pairs {
		q := s.Query(i)
		p := &pairState{Pair: socialrdf.Pair{IRI: socialrdf.PairIRI(id, s.Pairs[i].Platform, q.Kind, q.Text), Platform: s.Pairs[i].Platform, Query: q, Base: s.Base(i)}}
		if byIRI[p.IRI] == nil {
			byIRI[p.IRI] = p
			out = append(out, p)
		}
	}
	var derived []*pairState
	for _, r := range rows {
		if byIRI[r[0].Value] != nil {
			continue
		}
		p := &pairState{Pair: socialrdf.Pair{IRI: r[0].Value, Platform: r[1].Value,
			Query: platform.Query{Kind: platform.QueryKind(r[2].Value), Text: r[3].Value}, Parent: r[4].Value}}
		byIRI[p.IRI] = p
		derived = append(derived, p)
	}
	sort.Slice(derived, func(i, j int) bool { return derived[i].IRI < derived[j].IRI })
	for _, p := range derived {
		// A derived pair asks the API its ancestor asked, in its window.
		for a := byIRI[p.Parent]; a != nil; a = byIRI[a.Parent] {
			if a.Parent == "" {
				p.Base, p.Query.Since, p.Query.Until = a.Base, a.Query.Since, a.Query.Until
				break
			}
		}
	}
	out = append(out, derived...)
	rows, err = selectRows(ctx, st, fmt.Sprintf(`SELECT ?pair ?seq ?pass ?done ?req ?posts ?cursor WHERE { GRAPH <%s> {
  ?c <%s> ?pair ; <%s> ?seq ; <%s> ?pass ; <%s> ?done ; <%s> ?req ; <%s> ?posts .
  OPTIONAL { ?c <%s> ?cursor } } }`, state, ontology.CheckpointOf, ontology.Sequence, ontology.Pass, ontology.PassDone,
		ontology.RequestCount, ontology.PostCount, ontology.Cursor))
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		p := byIRI[r[0].Value]
		seq, _ := strconv.ParseInt(r[1].Value, 10, 64)
		if p == nil || seq <= p.cp.Seq {
			continue
		}
		cp := socialrdf.Checkpoint{Seq: seq}
		cp.Pass, _ = strconv.ParseInt(r[2].Value, 10, 64)
		cp.Done = r[3].Value == "true"
		cp.Requests, _ = strconv.ParseInt(r[4].Value, 10, 64)
		cp.Posts, _ = strconv.ParseInt(r[5].Value, 10, 64)
		if r[6].Value != "" {
			if cp.Cursor, err = base64.StdEncoding.DecodeString(r[6].Value); err != nil {
				return nil, fmt.Errorf("checkpoint %d of %s: bad cursor: %w", seq, p.IRI, err)
			}
		}
		p.cp = cp
	}
	return out, nil
}

// selectRows runs a SELECT query over the store and returns its rows.
func selectRows(ctx context.Context, st *graph.Store, q string) ([][]rdf.Term, error) {
	snap := st.Snapshot()
	defer snap.Close()
	var out [][]rdf.Term
	err := sparql.Each(ctx, snap, q, func(row []rdf.Term) error {
		out = append(out, append([]rdf.Term(nil), row...))
		return nil
	})
	return out, err
}

// ReadStatus reads the pairs of a campaign as its store has them, for a
// status without a running campaign.
func ReadStatus(ctx context.Context, st *graph.Store, s *Spec) ([]PairStatus, error) {
	pairs, err := loadPairs(ctx, st, s)
	if err != nil {
		return nil, err
	}
	out := make([]PairStatus, len(pairs))
	for i, p := range pairs {
		out[i] = p.status()
	}
	return out, nil
}
