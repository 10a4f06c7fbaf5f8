package cluster

import (
	"slices"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Lending evens out the work when ownership does not: domains are few or
// unequal, so one node can run out of URLs while another still has many
// queues. A node that sees a live peer with nothing queued lends it a
// share of its waiting queues (whole queues, with their state), marked so
// that the borrower crawls them instead of routing them back. The fetch
// ledger keeps each URL fetched once and the IP registry keeps politeness
// whichever node fetches; links found on borrowed pages go to the
// domains' owners as usual, and a borrower hands its borrowed queues back
// to their owners at the next change of membership.

// lentHeader marks a batch of lent URLs.
const lentHeader = "Mneme-Lent"

// lendCooldown is how many heartbeats a node waits before lending to the
// same peer again: the peer's heartbeat must first show what it got.
const lendCooldown = 4

// lend lends idle peers of view a share of this node's waiting queues:
// with k idle peers, k/(k+1) of the queues that hold URLs and have none
// in flight, each peer an equal part.
func (n *Node) lend(view []api.Node, live []string) {
	c := n.crawl.Load()
	if c == nil || n.leaving.Load() || c.Status().State != crawler.StateRunning || !n.lending.CompareAndSwap(false, true) {
		return
	}
	now := time.Now()
	var idle []string
	for _, s := range view {
		// A peer that fetched and has nothing queued is out of work (one
		// that fetched nothing yet may not be crawling at all; a paused
		// one would sit on what it borrowed).
		if s.Name == n.cfg.Name || s.Leaving || s.Paused || s.Queued > 0 || s.Fetched == 0 || !slices.Contains(live, s.Name) ||
			now.Sub(n.lentAt[s.Name]) < lendCooldown*n.cfg.Heartbeat {
			continue
		}
		idle = append(idle, s.Name)
	}
	var keys []string
	if len(idle) > 0 {
		c.Queues(func(q frontier.QueueStats) bool {
			if q.Size > 0 && q.InFlight == 0 {
				keys = append(keys, q.Key)
			}
			return true
		})
	}
	share := len(keys) * len(idle) / (len(idle) + 1)
	if share == 0 {
		n.lending.Store(false)
		return
	}
	to := make(map[string]string, share) // queue key → borrower
	for i, k := range keys[:share] {
		to[k] = idle[i%len(idle)]
	}
	for _, p := range idle {
		n.lentAt[p] = now
	}
	go func() {
		defer n.lending.Store(false)
		n.rebalanceMu.Lock()
		defer n.rebalanceMu.Unlock()
		moved, err := c.HandOver(func(key string) bool { return to[key] == "" }, func(qs []frontier.Queued) error {
			return n.sendQueued(n.ctx, qs, func(key string) string { return to[key] }, true)
		})
		n.lent.Add(int64(moved))
		if moved > 0 {
			n.log.printf("lent %d queued URLs of %d queues to idle nodes %s", moved, share, strings.Join(idle, " "))
		}
		if err != nil && n.ctx.Err() == nil {
			n.log.printf("lending queues: %v", err)
		}
	}()
}

// lentTo says whether m holds URLs lent to this node (and not merely
// waiting for a node that left, which this node reads in its place).
func (n *Node) lentTo(subject string, lent bool) bool {
	return lent && subject == n.subject(n.cfg.Name)
}
