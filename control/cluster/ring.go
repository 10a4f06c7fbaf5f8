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
	domains.mu.Lock()
	d, ok := domains.m[queueKey]
	domains.mu.Unlock()
	if ok {
		return d
	}
	d = domainOf(queueKey)
	domains.mu.Lock()
	if len(domains.m) >= maxDomains {
		clear(domains.m)
	}
	domains.m[queueKey] = d
	domains.mu.Unlock()
	return d
}

// domains caches Domain: the public-suffix lookup costs about a
// microsecond, and every forwarded URL is routed twice (by its sender and
// by its receiver). The cache is emptied when full, so it stays bounded.
var domains = struct {
	mu sync.Mutex
	m  map[string]string
}{m: map[string]string{}}

const maxDomains = 1 << 16

func domainOf(queueKey string) string {
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
