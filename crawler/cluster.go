package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"time"

	"github.com/mneme-archive/mneme/crawler/crawllog"
	"github.com/mneme-archive/mneme/crawler/fetch"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/rdf"
)

// Cluster is what a crawl run by one of several crawler nodes needs from
// the others (package control/cluster implements it over NATS JetStream).
// The crawl calls it from its workers, concurrently.
type Cluster interface {
	// Route keeps the candidates this node owns and sends the others to
	// their owners. sent, when not nil, returns once they are durably
	// with the cluster (or why not): a page is completed only after.
	Route(cands []frontier.Candidate) (local []frontier.Candidate, sent func() error, err error)
	// Begin records that this node fetches url now; it returns the node
	// that did, and false, when another node fetched it already (the URL
	// came back after its domain moved).
	Begin(ctx context.Context, url string) (by string, ok bool, err error)
	// Acquire waits until this node may fetch from ip and holds it until
	// release is called with the politeness delay before anyone fetches
	// from ip again.
	Acquire(ctx context.Context, ip netip.Addr) (release func(wait time.Duration), err error)
	// Done is asked when this node has nothing left to crawl: it says
	// whether no node has anything left (and nothing is on its way).
	Done() bool
}

// RDFSink is implemented by a Cluster that gathers the statements of
// every node into one store: each committed batch's statements (and the
// crawl's description) go to PublishRDF, which returns once they are
// safe, before the batch's URLs are completed.
type RDFSink interface {
	PublishRDF(quads []rdf.Quad) error
}

// annotFetchedElsewhere marks the crawl.log line of a URL another node of
// the cluster fetched; outcomeElsewhere is its Fetch.Outcome.
const (
	annotFetchedElsewhere = "fetched-by:"
	outcomeElsewhere      = "elsewhere"
)

// elsewhere ends a URL another node of the cluster fetched: logged (status
// -5002, blocked by a pre-fetch rule), not fetched, not a failure.
func (c *Crawl) elsewhere(worker int, cl *frontier.Claim, ev Fetch, by string) item {
	c.logLine(worker, crawllog.Entry{Status: fetch.StatusBlockedCustom, Size: -1, URI: cl.URL, HopPath: cl.Hops, Via: cl.Via,
		Annotations: []string{annotFetchedElsewhere + by}})
	ev.Status, ev.Outcome = fetch.StatusBlockedCustom, outcomeElsewhere
	c.finish(ev)
	return item{url: cl.URL, outcome: frontier.Outcome{Status: frontier.Disregarded}}
}

// clusterWait is how long an idle node of a cluster waits before asking
// again whether the cluster is done (URLs may come from other nodes).
const clusterWait = 200 * time.Millisecond

// Accept schedules URLs another node of the cluster found and sends here,
// with their score and the crawl's update function: they passed the
// crawl's scope where they were found. They are durable when Accept
// returns.
func (c *Crawl) Accept(cands []frontier.Candidate) error {
	release, ok := c.hold()
	if !ok {
		return errClosed
	}
	defer release()
	for i := range cands {
		cands[i].Update = c.update
	}
	if err := c.front.Schedule(cands); err != nil {
		return err
	}
	// The seen-set pass now: a hand-over or a page's links come as one
	// batch, and the figures then count distinct URLs.
	if err := c.front.Flush(); err != nil {
		return err
	}
	if err := c.front.Sync(); err != nil {
		return err
	}
	c.wakeUp()
	return nil
}

var errClosed = errors.New("crawl: closed")

// HandOver takes the queued URLs of every queue that keep refuses out of
// the frontier and passes them, a batch at a time, to send, which must
// have them safe elsewhere when it returns (a crash after send and before
// the frontier forgets them makes the URLs queued twice, which the
// cluster's fetch ledger catches). URLs in flight stay and are fetched
// here. It returns how many URLs were handed over.
func (c *Crawl) HandOver(keep func(queueKey string) bool, send func([]frontier.Queued) error) (int, error) {
	release, ok := c.hold()
	if !ok {
		return 0, errClosed
	}
	defer release()
	var keys []string
	c.front.EachQueue(func(q frontier.QueueStats) bool {
		if q.Size > 0 && !keep(q.Key) {
			keys = append(keys, q.Key)
		}
		return true
	})
	n := 0
	for _, k := range keys {
		for {
			got, err := c.front.Release(k, handOverBatch, send)
			n += got
			if err != nil {
				return n, fmt.Errorf("handing over queue %s: %w", k, err)
			}
			if got < handOverBatch {
				break
			}
		}
	}
	return n, nil
}

const handOverBatch = 4096

// gate, in a cluster, waits until the node may fetch from the host's IP
// and returns the release to call with the politeness wait once the URL's
// fetches are over; a host that does not resolve is not gated (its fetch
// fails).
func (c *Crawl) gate(ctx context.Context, host string) (func(time.Duration), error) {
	cl := c.deps.Cluster
	addrs, err := c.fetcher.Lookup(ctx, host)
	if err != nil || len(addrs) == 0 {
		return func(time.Duration) {}, nil
	}
	return cl.Acquire(ctx, addrs[0].Unmap())
}

// route keeps the candidates this node schedules: all of them, or in a
// cluster those it owns, the others sent to their owners (sent waits for
// them to be safe).
func (c *Crawl) route(cands []frontier.Candidate) ([]frontier.Candidate, func() error, error) {
	if c.deps.Cluster == nil || len(cands) == 0 {
		return cands, noWait, nil
	}
	local, sent, err := c.deps.Cluster.Route(cands)
	if sent == nil {
		sent = noWait
	}
	return local, sent, err
}

func noWait() error { return nil }
