// Package sim replays a link graph with the real frontier (a Pebble
// frontier in a temporary folder), the real link extractor and the real
// focus analysis, without network, to compare update functions and batch
// settings by harvest ratio (the share of crawled pages whose cosine with
// the topic exceeds the threshold).
//
// # Modes
//
//   - breadth-first: every link scores 0, so each queue is served in
//     discovery order;
//   - adaptive (B): up to B URLs of each host queue are in flight at a
//     time (claimed best first); as soon as a page is analysed its links
//     are scheduled with their scores (a known URL's score updated by the
//     update function) and the next URL is claimed;
//   - batch (B, K): the crawl goes in rounds: the B best URLs of each host
//     queue are claimed, fetched and analysed, and the links found are
//     scored into the frontier only once K pages have been analysed since
//     the last time; then the next round is claimed.
package sim

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/mneme-archive/mneme/analysis/focus"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/extract"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// Graph is the web being replayed.
type Graph interface {
	// Page returns the HTML of a URL; ok is false when there is none.
	Page(url string) (body []byte, ok bool)
}

// Mode is how the simulated crawl orders its URLs.
type Mode string

// The modes (see the package comment).
const (
	BreadthFirst Mode = "breadth-first"
	Adaptive     Mode = "adaptive"
	Batch        Mode = "batch"
)

// Config is one simulated crawl.
type Config struct {
	Graph  Graph
	Seeds  []string
	Focus  *spec.Focus
	Update frontier.UpdateFunc
	Mode   Mode
	B      int // URLs per host queue at a time; default 1
	K      int // batch: pages between scoring rounds; default B
	Pages  int // pages to crawl
}

// Result is what a simulated crawl harvested.
type Result struct {
	Pages    int
	Relevant int
	Ratio    float64
}

// Run replays one crawl.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.B <= 0 {
		cfg.B = 1
	}
	if cfg.K <= 0 {
		cfg.K = cfg.B
	}
	dir, err := os.MkdirTemp("", "mneme-sim-")
	if err != nil {
		return Result{}, err
	}
	defer os.RemoveAll(dir)
	b := int64(cfg.B)
	f, err := frontier.Open(dir, frontier.Options{SeenBatch: 1, NoSyncCompletions: true, CacheSize: 8 << 20, MemTableSize: 4 << 20,
		QueuePolicy: func(string) frontier.QueuePolicy { return frontier.QueuePolicy{Valence: b} }})
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	cn := canon.New(canon.Options{})
	sc, err := focus.New(focus.Options{Focus: cfg.Focus, Update: cfg.Update, Canon: cn})
	if err != nil {
		return Result{}, err
	}
	defer sc.Close()
	ex := extract.New(extract.Options{Canonicalizer: cn})
	var seeds []frontier.Candidate
	for _, s := range cfg.Seeds {
		u, err := cn.Parse(s)
		if err != nil {
			return Result{}, fmt.Errorf("seed %q: %w", s, err)
		}
		seeds = append(seeds, frontier.Candidate{URL: u.Canonical, QueueKey: u.HostKey(), Score: 1, Update: cfg.Update})
	}
	if err := f.Schedule(seeds); err != nil {
		return Result{}, err
	}
	var res Result
	var pending []frontier.Candidate
	pendingPages := 0
	flush := func() error {
		err := f.Schedule(pending)
		pending, pendingPages = pending[:0], 0
		if err == nil {
			err = f.Flush()
		}
		return err
	}
	// visit fetches and analyses one claimed URL, adding its scored links
	// to pending.
	visit := func(cl *frontier.Claim) error {
		body, ok := cfg.Graph.Page(cl.URL)
		if !ok {
			return f.Complete(cl.URL, frontier.Outcome{Status: frontier.Failed})
		}
		u, err := cn.Parse(cl.URL)
		if err != nil {
			return err
		}
		links, err := ex.Extract(extract.Document{URL: u, MediaType: "text/html", Text: body})
		if err != nil {
			return err
		}
		fl := make([]focus.Link, 0, len(links))
		for _, l := range links {
			if l.Hop == extract.Link {
				fl = append(fl, focus.Link{URL: l.URL, Hop: l.Hop, Text: l.Text, Paragraph: l.Paragraph})
			}
		}
		pr, scores, err := sc.Score(u, extract.ContentText(body), fl)
		if err != nil {
			return err
		}
		res.Pages++
		if pr.Relevant {
			res.Relevant++
		}
		for i, l := range fl {
			s := scores[i]
			if math.IsNaN(s) {
				continue
			}
			if cfg.Mode == BreadthFirst {
				s = 0
			}
			pending = append(pending, frontier.Candidate{URL: l.URL.Canonical, QueueKey: l.URL.HostKey(), Score: s, Update: cfg.Update, Via: cl.URL, Hops: cl.Hops + "L"})
		}
		pendingPages++
		return f.Complete(cl.URL, frontier.Outcome{Status: frontier.Succeeded})
	}
	var inFlight []*frontier.Claim
	for res.Pages < cfg.Pages {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		// Claim what the mode allows: every queue up to B in flight.
		for {
			cl, _, err := f.Next(ctx)
			if err != nil {
				return res, err
			}
			if cl == nil {
				break
			}
			inFlight = append(inFlight, cl)
		}
		if len(inFlight) == 0 {
			if len(pending) == 0 {
				break // the graph is exhausted
			}
			if err := flush(); err != nil {
				return res, err
			}
			continue
		}
		if cfg.Mode == Batch {
			for _, cl := range inFlight {
				if res.Pages >= cfg.Pages {
					break
				}
				if err := visit(cl); err != nil {
					return res, err
				}
				if pendingPages >= cfg.K {
					if err := flush(); err != nil {
						return res, err
					}
				}
			}
			inFlight = inFlight[:0]
			continue
		}
		cl := inFlight[0]
		inFlight = inFlight[1:]
		if err := visit(cl); err != nil {
			return res, err
		}
		if err := flush(); err != nil {
			return res, err
		}
	}
	if res.Pages > 0 {
		res.Ratio = float64(res.Relevant) / float64(res.Pages)
	}
	return res, nil
}
