package api

import (
	"context"
	"encoding/json"
	"net/url"
	"time"
)

// AnalysisRequest starts the analysis of a crawl's texts
// (POST /api/analyses).
type AnalysisRequest struct {
	Crawl string `json:"crawl"`
	// Entities are known entities in the YAML of mneme analyze --entities
	// (optional).
	Entities string `json:"entities,omitempty"`
	// NoStoreNames leaves out the names of people the store knows.
	NoStoreNames bool `json:"no_store_names,omitempty"`
}

// Analysis is an analysis job's state and progress.
type Analysis struct {
	Crawl          string         `json:"crawl"`
	Graph          string         `json:"graph"` // the named graph of its results
	State          string         `json:"state"` // running, finished or failed
	Error          string         `json:"error,omitempty"`
	Started        time.Time      `json:"started"`
	ElapsedSeconds float64        `json:"elapsed_seconds"`
	Stage          string         `json:"stage"`    // texts, measures, topics, changes, done
	Captures       int            `json:"captures"` // captures to read when it started
	Done           int            `json:"done"`     // of them read
	Texts          int            `json:"texts"`
	Skipped        int            `json:"skipped"`
	Bytes          int64          `json:"bytes"`
	Mentions       int            `json:"mentions"`
	Entities       int            `json:"entities,omitempty"`
	Previous       string         `json:"previous,omitempty"` // crawl compared against
	Versions       map[string]int `json:"versions,omitempty"` // objects by version status
	NameChanges    int            `json:"name_changes,omitempty"`
	// TopicsPending are the texts whose topic terms are outdated (marked
	// mneme:awaitsTopicTerms), left for a later run.
	TopicsPending int `json:"topics_pending,omitempty"`
}

func analysisPath(crawl string) string { return "/api/analyses/" + url.PathEscape(crawl) }

// Analyze starts the analysis of a crawl; it runs in the server.
func (c *Client) Analyze(ctx context.Context, req AnalysisRequest) (Analysis, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return Analysis{}, err
	}
	var out Analysis
	return out, c.do(ctx, "POST", "/api/analyses", "application/json", body, &out)
}

// Analysis returns the state of the latest analysis of a crawl run by the
// server.
func (c *Client) Analysis(ctx context.Context, crawl string) (Analysis, error) {
	var out Analysis
	return out, c.do(ctx, "GET", analysisPath(crawl), "", nil, &out)
}

// Analyses lists the analyses the server ran since it started.
func (c *Client) Analyses(ctx context.Context) ([]Analysis, error) {
	var out []Analysis
	return out, c.do(ctx, "GET", "/api/analyses", "", nil, &out)
}
