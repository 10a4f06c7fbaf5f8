package cluster

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOwnerMovesOnlyTheChangedNodesDomains is the property of rendezvous
// hashing the cluster relies on, over random live sets and domains: when
// a node joins, a domain changes owner only to go to it; when a node
// leaves, only its domains change owner; and shares stay balanced.
func TestOwnerMovesOnlyTheChangedNodesDomains(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	domains := make([]string, 3000)
	for i := range domains {
		domains[i] = fmt.Sprintf("site%d.example%d.org", r.IntN(1<<30), i%7)
	}
	for round := range 40 {
		var nodes []string
		for i := range 1 + r.IntN(8) {
			nodes = append(nodes, fmt.Sprintf("node-%d-%x", i, r.Uint32()))
		}
		joiner := fmt.Sprintf("joiner-%x", r.Uint32())
		grown := append(slices.Clone(nodes), joiner)
		leaver := nodes[r.IntN(len(nodes))]
		shrunk := slices.DeleteFunc(slices.Clone(nodes), func(n string) bool { return n == leaver })
		share := map[string]int{}
		for _, d := range domains {
			before := Owner(d, nodes)
			share[before]++
			if after := Owner(d, grown); after != before && after != joiner {
				t.Fatalf("round %d: %s moved from %s to %s when %s joined", round, d, before, after, joiner)
			}
			after := Owner(d, shrunk)
			if before != leaver && after != before {
				t.Fatalf("round %d: %s moved from %s to %s when %s left", round, d, before, after, leaver)
			}
			if len(shrunk) > 0 && after == leaver {
				t.Fatalf("round %d: %s still owned by %s, which left", round, d, leaver)
			}
			// The order of the live set does not matter.
			rev := slices.Clone(nodes)
			slices.Reverse(rev)
			if Owner(d, rev) != before {
				t.Fatalf("round %d: the owner of %s depends on the order of the live set", round, d)
			}
		}
		fair := len(domains) / len(nodes)
		for _, n := range nodes {
			if share[n] < fair/2 || share[n] > fair*3/2 {
				t.Errorf("round %d: node %s owns %d of %d domains over %d nodes", round, n, share[n], len(domains), len(nodes))
			}
		}
	}
	if Owner("example.org", nil) != "" {
		t.Error("a domain has an owner in an empty cluster")
	}
}

func TestDomainIsThePayLevelDomain(t *testing.T) {
	for key, want := range map[string]string{
		"www.bbc.co.uk":       "bbc.co.uk",
		"news.bbc.co.uk:8080": "bbc.co.uk",
		"a.site07.test:41234": "site07.test",
		"127.0.0.1:8081":      "127.0.0.1",
		"alice.github.io":     "alice.github.io",
		"[::1]:80":            "::1",
	} {
		if got := Domain(key); got != want {
			t.Errorf("Domain(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestBatchRoundTrip(t *testing.T) {
	in := []URL{
		{URL: "http://a.test/1", QueueKey: "a.test", Hops: "L", Via: "http://a.test/", Score: 0.5},
		{URL: "http://a.test/2", QueueKey: "a.test", Hops: "LL", Via: "http://a.test/", Score: -3, Retries: 2},
		{URL: "http://b.test/", QueueKey: "b.test:8080", Hops: "", Via: "", Score: 1},
	}
	var w batchWriter
	for _, u := range in {
		w.add(u)
	}
	b := w.bytes()
	got, err := decodeBatch(nil, b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, in) {
		t.Fatalf("got %+v, want %+v", got, in)
	}
	for cut := range len(b) - 1 {
		if _, err := decodeBatch(nil, b[:cut]); err == nil {
			t.Fatalf("a batch cut at %d of %d bytes decoded", cut, len(b))
		}
	}
	// A batch of version 1 (a uvarint count), as older nodes left in the
	// stream, still reads.
	v1 := append([]byte{1, byte(len(in))}, b[5:]...)
	if got, err := decodeBatch(nil, v1); err != nil || !slices.Equal(got, in) {
		t.Fatalf("version 1: got %+v, %v; want %+v", got, err, in)
	}
}
