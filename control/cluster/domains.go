package cluster

import (
	"cmp"
	"slices"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

// topDomains bounds the domains a heartbeat lists.
const topDomains = 50

// domains counts the pay-level domains this node owns among the host
// queues of c's frontier, and lists those with the most URLs queued
// (then by name), at most topDomains.
func (n *Node) domains(c *crawler.Crawl) (int64, []api.DomainLoad) {
	type queue struct {
		key  string
		size int64
	}
	var qs []queue
	c.Queues(func(s frontier.QueueStats) bool {
		qs = append(qs, queue{s.Key, s.Size})
		return true
	})
	owners := n.owners()
	byDomain := map[string]*api.DomainLoad{}
	for _, q := range qs {
		d := Domain(q.key)
		if Owner(d, owners) != n.cfg.Name {
			continue
		}
		l := byDomain[d]
		if l == nil {
			l = &api.DomainLoad{Domain: d}
			byDomain[d] = l
		}
		l.Hosts++
		l.Queued += q.size
	}
	out := make([]api.DomainLoad, 0, len(byDomain))
	for _, l := range byDomain {
		out = append(out, *l)
	}
	slices.SortFunc(out, func(a, b api.DomainLoad) int {
		return cmp.Or(cmp.Compare(b.Queued, a.Queued), cmp.Compare(a.Domain, b.Domain))
	})
	return int64(len(out)), out[:min(len(out), topDomains)]
}
