package control

import (
	"time"

	"github.com/mneme-archive/mneme/kb/adapt"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Status is a crawl's status as the API sends it.
type Status struct {
	ID     string `json:"id"`
	State  string `json:"state"` // running, paused, stopped or finished
	Reason string `json:"reason,omitempty"`
	Live   bool   `json:"live"` // open in the server: the figures are live
	// Incremental marks a crawl that revisits its URLs and so never
	// finishes: clients show its activity rather than a progress bar.
	Incremental    bool             `json:"incremental,omitempty"`
	Started        time.Time        `json:"started"`
	ElapsedSeconds float64          `json:"elapsed_seconds"`
	Fetched        int64            `json:"fetched"`
	Bytes          int64            `json:"bytes"`
	PagesPerSecond float64          `json:"pages_per_second"` // over the running time
	BytesPerSecond float64          `json:"bytes_per_second"`
	Revisits       int64            `json:"revisits"`
	Links          int64            `json:"links"`
	Errors         map[string]int64 `json:"errors"` // by kind
	Queued         int64            `json:"queued"`
	Waiting        int64            `json:"waiting"` // visited URLs waiting for their revisit (incremental crawls)
	InFlight       int64            `json:"in_flight"`
	Succeeded      int64            `json:"succeeded"`
	Failed         int64            `json:"failed"`
	Disregarded    int64            `json:"disregarded"`
	Queues         int64            `json:"queues"`
	QueueStates    map[string]int64 `json:"queue_states"`
	Recent         []Fetch          `json:"recent"` // newest last
}

// Fetch is one finished URL.
type Fetch struct {
	URL        string    `json:"url"`
	Queue      string    `json:"queue"`
	Hops       string    `json:"hops"`
	Via        string    `json:"via,omitempty"`
	Claimed    time.Time `json:"claimed"`
	Status     int       `json:"status"`
	DurationMS float64   `json:"duration_ms"`
	Size       int64     `json:"size"`
	MimeType   string    `json:"mime_type,omitempty"`
	Outcome    string    `json:"outcome"`
	Revisit    bool      `json:"revisit,omitempty"`
	Links      int       `json:"links"`
}

// Queue is one per-host queue of a crawl.
type Queue struct {
	Key         string    `json:"key"`
	State       string    `json:"state"` // ready, busy, snoozed, empty or exhausted
	Size        int64     `json:"size"`
	Waiting     int64     `json:"waiting"` // visited URLs waiting for their revisit (incremental crawls)
	InFlight    int64     `json:"in_flight"`
	Valence     int64     `json:"valence"`
	Budget      int64     `json:"budget"`
	BudgetUsed  int64     `json:"budget_used"`
	NextReady   time.Time `json:"next_ready,omitzero"`
	NextDue     time.Time `json:"next_due,omitzero"` // due time of the first waiting URL
	LastFetchMS float64   `json:"last_fetch_ms"`
}

// Queues is a page of a crawl's queues.
type Queues struct {
	Total  int     `json:"total"`
	Queues []Queue `json:"queues"`
}

// Crawl is a crawl's status and specification.
type Crawl struct {
	Status Status `json:"status"`
	Spec   string `json:"spec"` // YAML
}

// Seeds is the body of POST /api/crawls/ID/seeds.
type Seeds struct {
	Add []string `json:"add"`
}

// Spec is the answer to an edit: the crawl's specification as now.
type Spec struct {
	Spec string `json:"spec"` // YAML
}

func toStatus(s crawler.Status, live bool) Status {
	out := Status{
		ID: s.ID, State: s.State, Reason: s.Reason, Live: live, Incremental: s.Incremental, Started: s.Started,
		ElapsedSeconds: s.Elapsed.Seconds(), Fetched: s.Fetched, Bytes: s.Bytes, Revisits: s.Revisits,
		Links: s.Links, Errors: s.Errors, Queued: s.Queued, Waiting: s.Waiting, InFlight: s.InFlight, Succeeded: s.Succeeded,
		Failed: s.Failed, Disregarded: s.Disregard, Queues: s.Queues, QueueStates: map[string]int64{},
		Recent: make([]Fetch, 0, len(s.Recent)),
	}
	if out.Errors == nil {
		out.Errors = map[string]int64{}
	}
	if secs := s.Elapsed.Seconds(); secs > 0 {
		out.PagesPerSecond, out.BytesPerSecond = float64(s.Fetched)/secs, float64(s.Bytes)/secs
	}
	for k, v := range s.QueueState {
		out.QueueStates[string(k)] = v
	}
	for _, f := range s.Recent {
		out.Recent = append(out.Recent, Fetch{
			URL: f.URL, Queue: f.Queue, Hops: f.Hops, Via: f.Via, Claimed: f.Claimed, Status: f.Status,
			DurationMS: ms(f.Duration), Size: f.Size, MimeType: f.MimeType, Outcome: f.Outcome,
			Revisit: f.Revisit, Links: f.Links,
		})
	}
	return out
}

func toQueue(q frontier.QueueStats) Queue {
	return Queue{
		Key: q.Key, State: string(q.State), Size: q.Size, Waiting: q.Waiting, InFlight: q.InFlight, Valence: q.Valence,
		Budget: q.Budget, BudgetUsed: q.BudgetUsed, NextReady: q.NextReady, NextDue: q.NextDue, LastFetchMS: ms(q.LastFetch),
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Queued is a URL waiting in a crawl's frontier.
type Queued struct {
	URL   string  `json:"url"`
	Queue string  `json:"queue"`
	Hops  string  `json:"hops"`
	Via   string  `json:"via,omitempty"`
	Score float64 `json:"score"`
}

// Frontier is the answer of GET /api/crawls/ID/frontier: the best-scored
// queued URLs, best first.
type Frontier struct {
	URLs []Queued `json:"urls"`
}

// Log is the answer of GET /api/crawls/ID/log: the last crawl.log lines,
// oldest first.
type Log struct {
	Lines []string `json:"lines"`
}

// WARCs is the answer of GET /api/crawls/ID/warcs.
type WARCs struct {
	Files []WARCFile `json:"files"`
}

// Learned is the answer of GET /api/learned: the patterns learned when
// sites' templates no longer matched the knowledge base (package
// kb/adapt), and the file they are kept in.
type Learned struct {
	File     string           `json:"file"`
	Patterns []adapt.Proposal `json:"patterns"`
}

// Preview is the answer of GET /api/learned/ID/preview: what the
// pattern's level extracts from a stored page without and with it.
type Preview struct {
	URL     string        `json:"url"`
	Preview adapt.Preview `json:"preview"`
}
