package api

import (
	"fmt"
	"time"
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
// oldest first, and each read into its fields (a zero LogEntry for a
// line that does not parse).
type Log struct {
	Lines   []string   `json:"lines"`
	Entries []LogEntry `json:"entries"`
}

// LogEntry is the fields of a crawl.log line that clients show.
type LogEntry struct {
	Time     time.Time `json:"time"`
	Status   int       `json:"status"` // HTTP status or Heritrix fetch status code
	Size     int64     `json:"size"`   // content bytes; negative when unknown
	URI      string    `json:"uri"`
	HopPath  string    `json:"hop_path,omitempty"`
	Via      string    `json:"via,omitempty"`
	MimeType string    `json:"mime_type,omitempty"`
}

// WARCFile is one WARC file of a crawl.
type WARCFile struct {
	Name     string    `json:"name"`
	Size     int64     `json:"size"`
	Open     bool      `json:"open"` // still being written
	CDXJ     bool      `json:"cdxj"` // its index is written
	Modified time.Time `json:"modified"`
}

// WARCs is the answer of GET /api/crawls/ID/warcs.
type WARCs struct {
	Files []WARCFile `json:"files"`
}

// Learned is the answer of GET /api/learned: the patterns learned when
// sites' templates no longer matched the knowledge base (package
// kb/adapt), and the file they are kept in.
type Learned struct {
	File     string     `json:"file"`
	Patterns []Proposal `json:"patterns"`
}

// Preview is the answer of GET /api/learned/ID/preview: what the
// pattern's level extracts from a stored page without and with it.
type Preview struct {
	URL     string      `json:"url"`
	Preview Extractions `json:"preview"`
}

// Proposal is a pattern learned by the knowledge base's adaptation
// (package kb/adapt), as the review API sends it.
type Proposal struct {
	// ID names the proposal in the learned file and the review API.
	ID     string       `json:"id"`
	Status ReviewStatus `json:"status"`
	// Site is the host (host:port) the pattern was learned on.
	Site  string `json:"site"`
	Type  string `json:"type"`
	Level string `json:"level"`
	// Action is "field" (Object and Field say which), "navigate"
	// (Target says which) or "detect" (the level's detection).
	Action string `json:"action"`
	Object string `json:"object,omitempty"`
	Field  string `json:"field,omitempty"`
	Target string `json:"target,omitempty"`
	// Pattern is the learned XPath; Replaces the KB alternatives that
	// failed on the site.
	Pattern  string   `json:"pattern"`
	Replaces []string `json:"replaces,omitempty"`
	// Method is "relearn" or "relax"; Relaxations the number of
	// relaxations of a relaxed one.
	Method      string `json:"method"`
	Relaxations int    `json:"relaxations,omitempty"`
	// Pages are the URLs the pattern was checked on and worked on;
	// Checked how many pages it was tried on in all.
	Pages   []string  `json:"pages"`
	Checked int       `json:"checked"`
	Learned time.Time `json:"learned"`
}

// What says what the proposal changes, e.g. "wordpress/post: blog-post
// title".
func (p *Proposal) What() string {
	switch p.Action {
	case "field":
		return fmt.Sprintf("%s/%s: %s %s", p.Type, p.Level, p.Object, p.Field)
	case "navigate":
		return fmt.Sprintf("%s/%s: navigation to %s", p.Type, p.Level, p.Target)
	}
	return fmt.Sprintf("%s/%s: level detection", p.Type, p.Level)
}

// ReviewStatus is where a proposal is in review.
type ReviewStatus string

// Review states.
const (
	Pending  ReviewStatus = "pending"
	Accepted ReviewStatus = "accepted"
	Rejected ReviewStatus = "rejected"
)

// Extractions is what a pattern's level extracts from a page without
// (Before) and with (After) the pattern.
type Extractions struct {
	Before, After                 []Object
	BeforeFailures, AfterFailures []Failure
}

// Object is an object extracted from a page.
type Object struct {
	Kind       string
	IRI        string
	ID         string
	Title      string
	Author     string
	AuthorURL  string
	Date       time.Time
	DateText   string
	Modified   time.Time
	Content    string
	Tags       []string
	Categories []string
	ReplyTo    string
	Note       string
	VersionOf  string
}

// Failure is an extraction action that matched nothing where it should
// have.
type Failure struct {
	Type     string
	Level    string
	Action   string // "navigate", "records" or "field"
	Field    string // for a field failure
	Patterns []string
}

// InjectResult is the answer of POST /crawls/ID/urls.
type InjectResult struct {
	Scheduled   int `json:"scheduled"`   // URLs scheduled or rescored
	Blacklisted int `json:"blacklisted"` // URLs blacklisted
}

// ErrorBody is every error answer.
type ErrorBody struct {
	Error  string `json:"error"`
	Detail any    `json:"detail,omitempty"`
}
