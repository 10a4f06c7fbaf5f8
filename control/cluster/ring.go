package cluster

import (
	"net"

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
