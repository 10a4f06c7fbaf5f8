package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Node is one crawler node of a cluster as its heartbeat describes it
// (GET /api/cluster/nodes lists those of the live set).
type Node struct {
	Name    string    `json:"name"`
	Crawl   string    `json:"crawl"`
	API     string    `json:"api,omitempty"` // the node's control API, when it serves one
	Started time.Time `json:"started"`
	Beat    time.Time `json:"beat"` // when this heartbeat was written
	// Idle: nothing queued or in flight here and nothing unsent.
	Idle           bool    `json:"idle"`
	Leaving        bool    `json:"leaving,omitempty"`
	Queued         int64   `json:"queued"`
	InFlight       int64   `json:"in_flight"`
	Fetched        int64   `json:"fetched"`
	PagesPerSecond float64 `json:"pages_per_second"` // since the last heartbeat
	Queues         int64   `json:"queues"`           // host queues in this node's frontier
	// Forwarded and Received count URLs sent to and taken from other
	// nodes (found links and hand-overs); Batches* the stream messages.
	Forwarded        int64 `json:"forwarded"`
	Received         int64 `json:"received"`
	BatchesSent      int64 `json:"batches_sent"`
	BatchesReceived  int64 `json:"batches_received"`
	HandedOver       int64 `json:"handed_over"`       // queued URLs sent to new owners
	FetchedElsewhere int64 `json:"fetched_elsewhere"` // URLs skipped: another node fetched them
	IPClaims         int64 `json:"ip_claims"`         // IPs this node holds now
	Lent             int64 `json:"lent,omitempty"`    // queued URLs lent to idle nodes
	// Paused: the node claims no URLs (the cluster's pause, or its own
	// with PausedHere); InFlight counts what it still fetches and commits.
	// PauseRev is the revision of the cluster's pause it follows.
	Paused     bool   `json:"paused,omitempty"`
	PausedHere bool   `json:"paused_here,omitempty"`
	PauseRev   uint64 `json:"pause_rev,omitempty"`
	// Domains counts the pay-level domains this node owns among the host
	// queues of its frontier; TopDomains are the ones with the most URLs
	// queued (a bounded list).
	Domains    int64        `json:"domains"`
	TopDomains []DomainLoad `json:"top_domains,omitempty"`
}

// DomainLoad is a pay-level domain of a node's frontier: its host queues
// and the URLs queued in them.
type DomainLoad struct {
	Domain string `json:"domain"`
	Hosts  int    `json:"hosts"`
	Queued int64  `json:"queued"`
}

// Cluster is the cluster a node belongs to, as that node sees it.
type Cluster struct {
	Crawl string `json:"crawl"`
	Self  string `json:"self"`
	Nodes []Node `json:"nodes"` // the live set, by name
	// Pending is the number of forwarded URL batches waiting in the
	// stream for their owner.
	Pending uint64    `json:"pending"`
	Done    bool      `json:"done"` // every node idle and nothing on its way
	Claims  []IPClaim `json:"ip_claims"`
	Pause   Pause     `json:"pause"` // the cluster's pause, as this node follows it
}

// Pause is the pause of a crawl in the whole cluster: every node follows
// the latest revision.
type Pause struct {
	Paused bool      `json:"paused"`
	By     string    `json:"by,omitempty"` // who set it: a node's name, or "mneme cluster"
	At     time.Time `json:"at,omitzero"`
	Rev    uint64    `json:"rev,omitempty"` // its revision in the cluster's bucket; 0: never set
}

// String says what the pause is: "paused by n1 at 2026-11-29 08:10:03".
func (p Pause) String() string {
	switch {
	case p.Rev == 0:
		return "running, never paused"
	case p.Paused:
		return fmt.Sprintf("paused by %s at %s", p.By, p.At.Local().Format(time.DateTime))
	}
	return fmt.Sprintf("running, resumed by %s at %s", p.By, p.At.Local().Format(time.DateTime))
}

// IPClaim is an IP address claimed in the cluster's registry.
type IPClaim struct {
	IP   string `json:"ip"`
	Node string `json:"node"` // the holder: its crawl (as a NATS token) and name, "crawl.node"

	Fetching bool      `json:"fetching"`       // a fetch is under way
	Until    time.Time `json:"until,omitzero"` // when released: the end of its politeness rest
}

// Domain is the owner of a pay-level domain.
type Domain struct {
	Domain string `json:"domain"`
	Owner  string `json:"owner"`
}

// ClusterStatus returns the cluster as the node serving the API sees it.
func (c *Client) ClusterStatus(ctx context.Context) (Cluster, error) {
	var out Cluster
	err := c.do(ctx, http.MethodGet, "/api/cluster", "", nil, &out)
	return out, err
}

// DomainOwner asks which node owns the domain of host.
func (c *Client) DomainOwner(ctx context.Context, host string) (Domain, error) {
	var out Domain
	err := c.do(ctx, http.MethodGet, "/api/cluster/domains?host="+url.QueryEscape(host), "", nil, &out)
	return out, err
}

// ClusterPause pauses (or resumes, paused false) the crawl in the whole
// cluster and waits up to wait for every live node to follow (paused:
// with nothing left in flight); wait 0 returns at once.
func (c *Client) ClusterPause(ctx context.Context, paused bool, wait time.Duration) (Cluster, error) {
	action := "resume"
	if paused {
		action = "pause"
	}
	var out Cluster
	err := c.do(ctx, http.MethodPost, "/api/cluster/"+action+"?wait="+url.QueryEscape(wait.String()), "", nil, &out)
	return out, err
}
