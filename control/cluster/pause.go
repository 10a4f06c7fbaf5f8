package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-archive/mneme/control/api"
)

// The pause of a crawl in the whole cluster is one key (the crawl's
// token) in bucket mneme_pause, which every node of the crawl watches:
// any node, or `mneme cluster pause` with no node at all, sets it, and
// every node follows the latest revision, also one that joins or
// restarts later (it reads the key before its crawl runs). Bucket
// entries do not expire: a pause lasts until someone resumes.
const pauseBucket = "mneme_pause"

// Pauser reads and sets a crawl's pause in the cluster and waits for the
// nodes to follow it.
type Pauser struct {
	kv, members jetstream.KeyValue
	crawl       string
	token       string
	live        func() []string // the live set of the node waiting; nil for mneme cluster
}

// NewPauser opens the pause of crawl on a NATS server whose nodes have
// set up the cluster's buckets.
func NewPauser(ctx context.Context, nc *nats.Conn, crawl string) (*Pauser, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	kv, err := js.KeyValue(ctx, pauseBucket)
	if err == nil {
		var members jetstream.KeyValue
		if members, err = js.KeyValue(ctx, membersBucket); err == nil {
			return &Pauser{kv: kv, members: members, crawl: crawl, token: Token(crawl)}, nil
		}
	}
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("no crawler node has run on the NATS server at %s yet (bucket %s or %s missing)",
			nc.ConnectedUrlRedacted(), pauseBucket, membersBucket)
	}
	return nil, fmt.Errorf("cluster: the NATS server at %s: %w", nc.ConnectedUrlRedacted(), err)
}

// Get reads the crawl's pause; a crawl never paused is running (Rev 0).
func (p *Pauser) Get(ctx context.Context) (api.Pause, error) {
	e, err := p.kv.Get(ctx, p.token)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return api.Pause{}, nil
	}
	if err != nil {
		return api.Pause{}, err
	}
	return decodePause(e), nil
}

// Set pauses (or resumes) the crawl in the whole cluster in the name of
// by; the nodes follow as they see it (Wait waits for them).
func (p *Pauser) Set(ctx context.Context, paused bool, by string) (api.Pause, error) {
	v := api.Pause{Paused: paused, By: by, At: time.Now().UTC()}
	b, err := json.Marshal(v)
	if err != nil {
		return v, err
	}
	if v.Rev, err = p.kv.Put(ctx, p.token, b); err != nil {
		return v, fmt.Errorf("setting the pause of crawl %s: %w", p.crawl, err)
	}
	return v, nil
}

func decodePause(e jetstream.KeyValueEntry) api.Pause {
	var v api.Pause
	if e.Operation() == jetstream.KeyValuePut {
		// An unreadable value pauses nothing, as a deleted key.
		_ = json.Unmarshal(e.Value(), &v)
	}
	v.Rev = e.Revision()
	return v
}

// Wait waits until every live node of the crawl follows pause v: it
// carries v's revision (or a later one) in its heartbeat and, for a
// pause, has nothing left in flight, so that no fetch runs anywhere in
// the cluster until the crawl is resumed. It returns the nodes as their
// heartbeats then say. It fails when the pause changed meanwhile (someone
// else paused or resumed), and when ctx ends first, naming the nodes it
// still waits for.
//
// It follows the heartbeats with one watch. A watch's first values can
// miss a heartbeat being rewritten at that moment; the node's next beat
// comes as an update. So a node is waited for once it was seen, until its
// heartbeat expires, and also when the live set of the node waiting names
// it; a Pauser of no node (mneme cluster) waits at least half the
// heartbeat TTL, in which every live node beats at least once.
func (p *Pauser) Wait(ctx context.Context, v api.Pause) ([]api.Node, error) {
	st, err := p.members.Status(ctx)
	if err != nil {
		return nil, err
	}
	ttl := st.TTL()
	settle := time.Now()
	if p.live == nil {
		settle = settle.Add(ttl / 2)
	}
	w, err := p.members.Watch(ctx, p.token+".*")
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	type beat struct {
		n       api.Node
		created time.Time
	}
	beats := map[string]beat{}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	waiting := []string{"the heartbeats"}
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("crawl %s: %s: not every node followed: still waiting for %s", p.crawl, v, strings.Join(waiting, ", "))
		case e, ok := <-w.Updates():
			if !ok {
				return nil, fmt.Errorf("crawl %s: the watch of the heartbeats closed", p.crawl)
			}
			if e != nil {
				name := strings.TrimPrefix(e.Key(), p.token+".")
				var n api.Node
				if e.Operation() != jetstream.KeyValuePut {
					delete(beats, name) // it left
				} else if json.Unmarshal(e.Value(), &n) == nil {
					beats[name] = beat{n, e.Created()}
				}
			}
			continue
		case <-tick.C:
		}
		cur, err := p.Get(ctx)
		if err != nil {
			waiting = []string{"the pause to be readable (" + err.Error() + ")"}
			continue
		}
		if cur.Rev != v.Rev {
			return nil, fmt.Errorf("crawl %s: the cluster's pause changed meanwhile: now %s", p.crawl, cur)
		}
		now := time.Now()
		names := map[string]bool{}
		for name, b := range beats {
			if now.Sub(b.created) > ttl {
				delete(beats, name) // expired: the node is gone
				continue
			}
			names[name] = true
		}
		if p.live != nil {
			for _, name := range p.live() {
				names[name] = true
			}
		}
		waiting = waiting[:0]
		var nodes []api.Node
		for _, name := range slices.Sorted(maps.Keys(names)) {
			b, ok := beats[name]
			switch {
			case !ok:
				waiting = append(waiting, name+" (no heartbeat read yet)")
			case b.n.Leaving:
			case b.n.PauseRev < v.Rev:
				waiting = append(waiting, name+" (has not seen it yet)")
			case v.Paused && b.n.InFlight > 0:
				waiting = append(waiting, fmt.Sprintf("%s (%d URLs in flight)", name, b.n.InFlight))
			}
			if ok {
				nodes = append(nodes, b.n)
			}
		}
		if len(waiting) == 0 && !now.Before(settle) {
			return nodes, nil
		}
		if len(waiting) == 0 {
			waiting = append(waiting, "the heartbeats of nodes not seen yet")
		}
	}
}

// Nodes reads the heartbeats of the crawl's live nodes.
func (p *Pauser) Nodes(ctx context.Context) ([]api.Node, error) {
	w, err := p.members.Watch(ctx, p.token+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	var out []api.Node
	err = readCurrent(ctx, w, func(e jetstream.KeyValueEntry) {
		var n api.Node
		if json.Unmarshal(e.Value(), &n) == nil {
			out = append(out, n)
		}
	})
	slices.SortFunc(out, func(a, b api.Node) int { return strings.Compare(a.Name, b.Name) })
	return out, err
}

// watchPause follows the crawl's pause until the node closes: the value
// at the time of the call is applied before it returns (a node that
// joins a paused cluster starts paused), later ones as they come. A
// watch that breaks (the NATS server went away) is set up again.
func (n *Node) watchPause(ctx context.Context) error {
	w, err := n.pause.kv.Watch(n.ctx, n.token)
	if err != nil {
		return fmt.Errorf("cluster: watching the pause: %w", err)
	}
	for first := true; first; {
		select {
		case <-ctx.Done():
			w.Stop()
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return errors.New("cluster: watching the pause: the watch closed")
			}
			if e == nil {
				first = false
			} else {
				n.followPause(decodePause(e))
			}
		}
	}
	n.pauseDone = make(chan struct{})
	go func() {
		defer close(n.pauseDone)
		for {
			select {
			case <-n.ctx.Done():
				w.Stop()
				return
			case e, ok := <-w.Updates():
				if ok {
					if e != nil {
						n.followPause(decodePause(e))
					}
					continue
				}
			}
			// The watch closed: set it up again; it gives the latest
			// value first, which followPause takes if it is new.
			w.Stop()
			for {
				if w, err = n.pause.kv.Watch(n.ctx, n.token); err == nil {
					break
				}
				n.log.trouble("watching the pause", err)
				select {
				case <-n.ctx.Done():
					return
				case <-time.After(n.cfg.Heartbeat):
				}
			}
		}
	}()
	return nil
}

// followPause makes the node follow a revision of the cluster's pause
// later than the one it follows.
func (n *Node) followPause(v api.Pause) {
	n.pauseMu.Lock()
	cur := n.clusterPause
	if v.Rev <= cur.Rev {
		n.pauseMu.Unlock()
		return
	}
	n.clusterPause = v
	n.applyPause()
	n.pauseMu.Unlock()
	if v.Paused != cur.Paused {
		n.log.printf("crawl %s %s", n.cfg.Crawl, v)
	}
	n.beatSoon()
}

// applyPause pauses or resumes the node's crawl as the cluster's pause,
// the node's own and a leave say. pauseMu is held.
func (n *Node) applyPause() {
	c := n.crawl.Load()
	if c == nil {
		return
	}
	if n.clusterPause.Paused || n.pausedHere || n.leaving.Load() {
		c.Pause()
	} else {
		c.Resume()
	}
}

// paused says whether the node claims no URLs, the node's own pause, and
// the revision of the cluster's pause it follows.
func (n *Node) paused() (paused, here bool, rev uint64) {
	n.pauseMu.Lock()
	defer n.pauseMu.Unlock()
	return n.clusterPause.Paused || n.pausedHere, n.pausedHere, n.clusterPause.Rev
}

// beatSoon writes the heartbeat now, so that the cluster learns a change
// of pause without waiting for the next beat.
func (n *Node) beatSoon() {
	go func() {
		ctx, cancel := context.WithTimeout(n.ctx, 5*time.Second)
		defer cancel()
		if n.leaving.Load() {
			return
		}
		if err := n.beat(ctx); err != nil && n.ctx.Err() == nil {
			n.log.trouble("heartbeat", err)
		}
	}()
}

// Crawl is the id of the node's crawl.
func (n *Node) Crawl() string { return n.cfg.Crawl }

// PauseCluster pauses (or resumes) the crawl on every node of the
// cluster: this node follows at once (it claims no URL once it returns),
// the others as soon as they see it; WaitPause waits for them.
func (n *Node) PauseCluster(ctx context.Context, paused bool) (api.Pause, error) {
	v, err := n.pause.Set(ctx, paused, n.cfg.Name)
	if err != nil {
		return v, err
	}
	n.followPause(v)
	return v, nil
}

// WaitPause waits until every live node follows pause v (see Pauser.Wait).
func (n *Node) WaitPause(ctx context.Context, v api.Pause) ([]api.Node, error) {
	return n.pause.Wait(ctx, v)
}

// PauseHere pauses (or resumes) this node's crawl only; the node stays
// paused while either its own pause or the cluster's holds. Its domains
// wait meanwhile (other nodes do not take them).
func (n *Node) PauseHere(paused bool) {
	n.pauseMu.Lock()
	n.pausedHere = paused
	n.applyPause()
	n.pauseMu.Unlock()
	n.beatSoon()
}
