// Package cluster runs one crawl over several crawler nodes (processes,
// possibly on several machines) coordinated through NATS JetStream, as
// ARCOMEM's large-scale crawler ran one crawl over many machines:
//
//   - Membership: each node puts a heartbeat in a key-value bucket whose
//     entries expire (the bucket's TTL); the live set is the keys present,
//     which every node reads the same. A node that stops heartbeating is
//     gone after at most the TTL plus one poll.
//   - Ownership: a pay-level domain belongs to the node of the live set
//     that rendezvous hashing ranks first for it, so a change of
//     membership moves only the domains of the node that joined or left.
//   - Forwarding: a link a node finds on a domain it does not own goes,
//     batched, to the owner through a durable stream (one subject per
//     node); the owner's frontier takes it with its score and the crawl's
//     update function and only then acknowledges it. Messages to a node
//     that left are read by a live node and routed again.
//   - Hand-over: when membership changes, a node sends the queued URLs of
//     the domains it no longer owns to their owners (a graceful leave
//     hands over everything).
//   - Fetch ledger: a node records each URL in a bucket before fetching it
//     (create if absent), so a URL whose domain moved after it was fetched
//     is not fetched again by its new owner.
//   - IP registry: before fetching, a node claims the host's IP in a
//     bucket (create if absent, compare-and-set when the holder released
//     it or left); the claim holds while the fetch runs and names the time
//     until which the IP rests (the politeness delay). A crashed node's
//     claims are void once it leaves the live set, and expire with the
//     bucket's TTL in any case.
//   - Termination: the crawl ends when every node is idle, the forwarding
//     stream is empty and nothing moved between two polls.
//   - Pause: the crawl's pause is one key in a bucket that every node
//     watches (and reads before its crawl runs), so any node, or a Pauser
//     with no node, pauses and resumes the crawl on every node; a node's
//     heartbeat says which revision it follows and what it has in flight.
//
// Node implements crawler.Cluster; cmd/mneme's node command wires it to a
// crawl.
package cluster
