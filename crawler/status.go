package crawler

import (
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Fetch reports one finished URL: what was fetched and what it did to its
// queue. OnFetch and Status.Recent carry them.
type Fetch struct {
	URL      string
	Queue    string // politeness key
	Hops     string
	Via      string
	Worker   int
	Claimed  time.Time     // crawl clock time the URL was claimed
	Status   int           // HTTP status or Heritrix code (e.g. -9998: robots.txt)
	Duration time.Duration // fetch time
	Size     int64         // response bytes as received; 0 when none
	MimeType string
	Outcome  string // succeeded, retry, failed or disregarded; prerequisite (robots.txt) or sample (Page.Fetch); elsewhere (another node of the cluster fetched it)
	// Wait is the pause imposed on the queue after this fetch: the politeness
	// delay, or for a retry the delay until it.
	Wait    time.Duration
	Revisit bool   // the payload was a duplicate, stored as a revisit record
	Links   int    // outlinks found
	Error   string // why the fetch failed, when it did without a status
}

// Status is a snapshot of a running or ended crawl.
type Status struct {
	ID      string
	State   string // StateRunning, StatePaused, StateStopped, StateFinished
	Reason  string // why it finished or stopped
	Started time.Time
	Elapsed time.Duration // running time summed over runs
	// Incremental marks a crawl that revisits its URLs and never finishes.
	Incremental bool

	Fetched    int64 // responses received (robots.txt included)
	Bytes      int64 // response bytes received
	Revisits   int64 // responses stored as revisit records
	Links      int64 // outlinks found
	Errors     map[string]int64
	Queued     int64 // URLs in the frontier awaiting their first visit (or a retry)
	Waiting    int64 // visited URLs waiting for their revisit (incremental crawls)
	InFlight   int64 // URLs claimed and not yet completed
	Succeeded  int64 // frontier completions by outcome
	Failed     int64
	Disregard  int64
	Queues     int64 // queues (hosts) known
	QueueState map[frontier.QueueState]int64
	Recent     []Fetch // the last fetches, newest last
	// Seeds is how each seed fared in the current run (none before Run).
	Seeds []SeedFate
}

// recentSize is how many fetches Status keeps.
const recentSize = 32

// counters are the live figures behind Status.
type counters struct {
	mu       sync.Mutex
	fetched  int64
	bytes    int64
	revisits int64
	links    int64
	errors   map[string]int64
	recent   [recentSize]Fetch
	n        int // fetches recorded in recent, total
}

func (c *counters) record(f Fetch, errKind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if f.Size > 0 || f.Status > 0 {
		c.fetched++
		c.bytes += f.Size
	}
	if f.Revisit {
		c.revisits++
	}
	c.links += int64(f.Links)
	if errKind != "" {
		if c.errors == nil {
			c.errors = map[string]int64{}
		}
		c.errors[errKind]++
	}
	c.recent[c.n%recentSize] = f
	c.n++
}

func (c *counters) snapshot(s *Status) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s.Fetched, s.Bytes, s.Revisits, s.Links = c.fetched, c.bytes, c.revisits, c.links
	s.Errors = make(map[string]int64, len(c.errors))
	for k, v := range c.errors {
		s.Errors[k] = v
	}
	for i := max(0, c.n-recentSize); i < c.n; i++ {
		s.Recent = append(s.Recent, c.recent[i%recentSize])
	}
}

func (c *counters) pagesBytes() (int64, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fetched, c.bytes
}
