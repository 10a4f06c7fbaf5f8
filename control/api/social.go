package api

import (
	"context"
	"encoding/json"
	"net/url"
)

// Campaign is a social campaign's status (package social/campaign).
type Campaign struct {
	ID       string `json:"id"`
	State    string `json:"state"` // created, running, paused, stopped or done
	Reason   string `json:"reason,omitempty"`
	Live     bool   `json:"live"` // run by the server now: the figures are live
	Pass     int64  `json:"pass"`
	Posts    int64  `json:"posts"`
	Requests int64  `json:"requests"`
	// Budget is the spec's: 0 for no limit. Rate limits are the
	// platforms' and show in the pairs' errors when they bite.
	BudgetRequests int64          `json:"budget_requests"`
	BudgetPosts    int64          `json:"budget_posts"`
	Pairs          []CampaignPair `json:"pairs"`
	LastErrors     []string       `json:"last_errors,omitempty"` // newest last
}

// CampaignPair is one (query, platform) pair of a campaign.
type CampaignPair struct {
	Platform  string `json:"platform"`
	Kind      string `json:"kind"`
	Query     string `json:"query"`
	Derived   bool   `json:"derived,omitempty"`
	Pass      int64  `json:"pass"`
	Done      bool   `json:"done"`
	Posts     int64  `json:"posts"`
	Requests  int64  `json:"requests"`
	Errors    int64  `json:"errors"`
	LastError string `json:"last_error,omitempty"`
}

// NewPair is a query to add to a campaign.
type NewPair struct {
	Platform string `json:"platform"`
	Kind     string `json:"kind"`
	Query    string `json:"query"`
}

func campaignPath(id, rest string) string { return "/api/social/" + url.PathEscape(id) + rest }

// Campaigns returns every campaign's status.
func (c *Client) Campaigns(ctx context.Context) ([]Campaign, error) {
	var out []Campaign
	return out, c.do(ctx, "GET", "/api/social", "", nil, &out)
}

// CreateCampaign creates a campaign from a YAML specification.
func (c *Client) CreateCampaign(ctx context.Context, specYAML []byte) (Campaign, error) {
	var out Campaign
	return out, c.do(ctx, "POST", "/api/social", "application/yaml", specYAML, &out)
}

// CampaignStatus returns a campaign's status.
func (c *Client) CampaignStatus(ctx context.Context, id string) (Campaign, error) {
	var out Campaign
	return out, c.do(ctx, "GET", campaignPath(id, ""), "", nil, &out)
}

// CampaignDo runs action start, pause, resume or stop on a campaign.
func (c *Client) CampaignDo(ctx context.Context, id, action string) (Campaign, error) {
	var out Campaign
	return out, c.do(ctx, "POST", campaignPath(id, "/"+action), "", nil, &out)
}

// AddPair adds a (query, platform) pair to a campaign; a running campaign
// takes it up in its current pass.
func (c *Client) AddPair(ctx context.Context, id string, p NewPair) (Campaign, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return Campaign{}, err
	}
	var out Campaign
	return out, c.do(ctx, "POST", campaignPath(id, "/pairs"), "application/json", body, &out)
}
