package api

import (
	"context"
	"fmt"
	"net/url"
	"time"
)

// EntityHit is an entity found by name (GET /api/entities?q=…): its
// popularity summed over the crawls that mention it.
type EntityHit struct {
	ID         string `json:"id"`  // the key of its IRI, for /api/entities/{id}
	IRI        string `json:"iri"` // urn:mneme:entity:…
	Label      string `json:"label"`
	Kind       string `json:"kind"` // person, organization, place or thing
	Popularity int64  `json:"popularity"`
	Crawls     int    `json:"crawls"` // the crawls with measures of it
}

// Entity is what the analysis graphs say about one entity
// (GET /api/entities/{id}): its measures crawl by crawl, its names, its
// latest mentions and the entities it co-occurs with.
type Entity struct {
	EntityHit
	Aliases     []string          `json:"aliases"`
	SameAs      []string          `json:"same_as,omitempty"`
	Measures    []EntityMeasures  `json:"measures"` // oldest crawl first
	NameChanges []NameChange      `json:"name_changes"`
	Mentions    []EntityMention   `json:"mentions"`       // latest capture first, at most the limit asked
	MentionsAll int64             `json:"mentions_total"` // in every crawl
	Neighbours  []EntityNeighbour `json:"neighbours"`     // most shared texts first
}

// EntityMeasures are an entity's measures in one crawl (docs/analysis.md).
type EntityMeasures struct {
	Crawl            string    `json:"crawl"`
	Time             time.Time `json:"time"` // the crawl's start
	Popularity       int64     `json:"popularity"`
	Mentions         int64     `json:"mentions"`
	Attitude         float64   `json:"attitude"`
	Sentimentality   float64   `json:"sentimentality"`
	Controversiality float64   `json:"controversiality"`
	Connectedness    int64     `json:"connectedness"`
}

// NameChange is a proposed name change the entity takes part in, as the
// former name or the later one; the two entities stay separate.
type NameChange struct {
	Crawl      string   `json:"crawl"`
	Previous   string   `json:"previous,omitempty"` // the crawl compared against
	Former     Named    `json:"former"`
	Later      Named    `json:"later"`
	Score      float64  `json:"score"`
	Similarity float64  `json:"similarity"`
	Burst      float64  `json:"burst"`
	Evidence   []string `json:"evidence"`
}

// Named is an entity with its label.
type Named struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// EntityMention is one mention: the archived object, the capture it was
// read from, and the sentence.
type EntityMention struct {
	Crawl     string    `json:"crawl"`
	Object    string    `json:"object"`
	Capture   string    `json:"capture"`
	URL       string    `json:"url,omitempty"`         // the capture's URL
	Time      time.Time `json:"capture_time,omitzero"` // when captured
	Surface   string    `json:"surface"`
	Sentence  string    `json:"sentence"`
	Sentiment *float64  `json:"sentiment,omitempty"` // VADER compound; English sentences only
}

// EntityNeighbour is an entity co-occurring with another, over every
// crawl's associations.
type EntityNeighbour struct {
	Named
	Shared int64   `json:"shared"` // texts naming both, summed over crawls
	Crawls int     `json:"crawls"`
	Weight float64 `json:"weight"` // the largest pointwise mutual information
}

// FindEntities finds up to limit entities whose label or an alias
// contains q (any case); an empty q lists the most popular.
func (c *Client) FindEntities(ctx context.Context, q string, limit int) ([]EntityHit, error) {
	var out []EntityHit
	return out, c.do(ctx, "GET", fmt.Sprintf("/api/entities?q=%s&limit=%d", url.QueryEscape(q), limit), "", nil, &out)
}

// Entity returns an entity with at most mentions of its latest mentions.
func (c *Client) Entity(ctx context.Context, id string, mentions int) (Entity, error) {
	var out Entity
	return out, c.do(ctx, "GET", fmt.Sprintf("/api/entities/%s?mentions=%d", url.PathEscape(id), mentions), "", nil, &out)
}
