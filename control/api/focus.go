package api

import (
	"context"
	"encoding/json"
	"net/url"
)

// FocusTerm is a weighted term of a focused crawl's topic.
type FocusTerm struct {
	Term   string  `json:"term"`
	Weight float64 `json:"weight"`
}

// Focus is the state of a focused crawl's analysis
// (GET /api/crawls/{id}/focus).
type Focus struct {
	Weights   map[string]float64 `json:"weights"`
	Update    string             `json:"update"`
	Threshold float64            `json:"threshold"`
	Terms     []FocusTerm        `json:"terms"` // the topic's heaviest
	Harvest   Harvest            `json:"harvest"`
	// Reference is the reference crawl's state, nil when there is none.
	Reference *FocusReference `json:"reference,omitempty"`
	// PerPageNS is the time per analysed page of each module and of the
	// text analysis ("text").
	PerPageNS map[string]int64 `json:"per-page-ns"`
}

// Harvest is the harvest ratio of a focused crawl: the share of analysed
// pages whose cosine with the topic exceeds the threshold.
type Harvest struct {
	Pages    int64     `json:"pages"`
	Relevant int64     `json:"relevant"`
	Ratio    float64   `json:"ratio"`
	Step     int64     `json:"step"`   // pages between points of Series
	Series   []float64 `json:"series"` // the ratio after Step, 2·Step … pages
}

// FocusReference is the reference crawl: the terms it proposes for the
// topic, which the archivist accepts or drops.
type FocusReference struct {
	Pages    int         `json:"pages"`
	Done     bool        `json:"done"`
	Proposed []FocusTerm `json:"proposed"`
}

// FocusTerms accepts and drops proposed terms
// (POST /api/crawls/{id}/focus/terms).
type FocusTerms struct {
	Accept []string `json:"accept,omitempty"`
	Drop   []string `json:"drop,omitempty"`
}

// Explanation says why a frontier URL has its score
// (GET /api/crawls/{id}/focus/explain?url=…).
type Explanation struct {
	URL       string  `json:"url"`
	Sightings int     `json:"sightings"` // links to it analysed
	Score     float64 `json:"score"`     // as the frontier combined its sightings
	Current   float64 `json:"current"`   // its aggregate under the current weights
	// Modules are each module's value (absent: the module gave none);
	// Contributions are wₘ·vₘ / Σ wₘ, which sum to Current.
	Modules       map[string]float64 `json:"modules"`
	Contributions map[string]float64 `json:"contributions"`
	Weights       map[string]float64 `json:"weights"`
	Update        string             `json:"update"`
}

// Focus returns the state of a focused crawl's analysis.
func (c *Client) Focus(ctx context.Context, id string) (Focus, error) {
	var out Focus
	return out, c.do(ctx, "GET", crawlPath(id, "/focus"), "", nil, &out)
}

// Explain says why url, queued in a focused crawl, has its score.
func (c *Client) Explain(ctx context.Context, id, u string) (Explanation, error) {
	var out Explanation
	return out, c.do(ctx, "GET", crawlPath(id, "/focus/explain?url="+url.QueryEscape(u)), "", nil, &out)
}

// SetFocusWeights changes module weights (those given) of a running
// focused crawl, which rescores its queued URLs; it returns the state.
func (c *Client) SetFocusWeights(ctx context.Context, id string, weights map[string]float64) (Focus, error) {
	body, _ := json.Marshal(weights)
	var out Focus
	return out, c.do(ctx, "PATCH", crawlPath(id, "/focus/weights"), "application/json", body, &out)
}

// DecideFocusTerms accepts and drops terms the reference crawl proposed.
func (c *Client) DecideFocusTerms(ctx context.Context, id string, d FocusTerms) (Focus, error) {
	body, _ := json.Marshal(d)
	var out Focus
	return out, c.do(ctx, "POST", crawlPath(id, "/focus/terms"), "application/json", body, &out)
}
