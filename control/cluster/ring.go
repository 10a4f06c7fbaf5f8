package cluster

import (
	"net"
	"sync"

	"github.com/cespare/xxhash/v2"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// Domain is the pay-level domain of a frontier queue key (a host or
// host:port): the unit of ownership.
func Domain(queueKey string) string {
	host := queueKey
	if h, _, err := net.SplitHostPort(queueKey); err == nil {
		host = h
	}
	return canon.RegistrableDomain(host)
}

// Owner is the node of nodes that rendezvous (highest random weight)
// hashing gives domain: each node scores the domain and the highest score
// wins, so removing a node moves only its own domains, and adding one moves
// to it only the domains it now wins. It is "" when nodes is empty.
func Owner(domain string, nodes []string) string {
	best, bestScore := "", uint64(0)
	for _, n := range nodes {
		s := weight(n, domain)
		if best == "" || s > bestScore || s == bestScore && n < best {
			best, bestScore = n, s
		}
	}
	return best
}

// weight is a node's score for a domain.
func weight(node, domain string) uint64 {
	var d xxhash.Digest
	d.Reset()
	d.WriteString(node)
	d.Write([]byte{0})
	d.WriteString(domain)
	return d.Sum64()
}

// ownerOf is the owner of a queue key's domain in the live set live,
// cached while the live set stays the same: every forwarded URL is routed
// by its sender and again by its receiver.
func (n *Node) ownerOf(queueKey string, live *[]string) string {
	c := &n.ownerCache
	c.mu.Lock()
	if c.live != live || len(c.m) >= maxOwners {
		c.live, c.m = live, make(map[string]string)
	}
	o, ok := c.m[queueKey]
	c.mu.Unlock()
	if ok {
		return o
	}
	o = Owner(Domain(queueKey), *live)
	c.mu.Lock()
	if c.live == live {
		c.m[queueKey] = o
	}
	c.mu.Unlock()
	return o
}

// maxOwners bounds the owner cache: it is emptied when full.
const maxOwners = 1 << 16

// ownerCache is Node.ownerOf's cache, for one live set.
type ownerCache struct {
	mu   sync.Mutex
	live *[]string
	m    map[string]string // queue key → owner
}
