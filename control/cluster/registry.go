package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-archive/mneme/control/api"
)

// Begin records in the crawl's fetch ledger that this node fetches url,
// unless a node did before: a URL whose domain moved after its fetch
// comes to its new owner again, which must not fetch it twice. A URL this
// node recorded before (it crashed or stopped mid-fetch) is fetched again.
func (n *Node) Begin(ctx context.Context, url string) (string, bool, error) {
	sum := sha256.Sum256([]byte(url))
	key := hex.EncodeToString(sum[:16])
	for {
		_, err := n.ledger.Create(ctx, key, []byte(n.cfg.Name))
		if err == nil {
			n.log.ok()
			return n.cfg.Name, true, nil
		}
		if exists(err) {
			e, err := n.ledger.Get(ctx, key)
			if err == nil {
				by := string(e.Value())
				if by != n.cfg.Name {
					n.elsewhere.Add(1)
				}
				return by, by == n.cfg.Name, nil
			}
			if errors.Is(err, jetstream.ErrKeyNotFound) {
				continue
			}
		}
		if err := n.retry(ctx, "recording a fetch in the ledger", err); err != nil {
			return "", false, err
		}
	}
}

// retry reports a NATS failure and waits a little before the caller
// tries again, or returns why it should not.
func (n *Node) retry(ctx context.Context, what string, err error) error {
	n.log.trouble(what, err)
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", what, err)
	case <-time.After(250 * time.Millisecond):
		return nil
	}
}

// claim is the value of an IP's key in the registry: the holder and, once
// released, the end of the IP's politeness rest ("node 0" while a fetch
// is under way).
type claim struct {
	node  string
	until time.Time
}

func (c claim) encode() []byte {
	u := int64(0)
	if !c.until.IsZero() {
		u = c.until.UnixNano()
	}
	return []byte(c.node + " " + strconv.FormatInt(u, 10))
}

func decodeClaim(b []byte) (claim, error) {
	node, u, ok := strings.Cut(string(b), " ")
	if !ok {
		return claim{}, fmt.Errorf("cluster: bad IP claim %q", b)
	}
	ns, err := strconv.ParseInt(u, 10, 64)
	if err != nil {
		return claim{}, fmt.Errorf("cluster: bad IP claim %q", b)
	}
	c := claim{node: node}
	if ns != 0 {
		c.until = time.Unix(0, ns)
	}
	return c, nil
}

// ipKey is an IP's key in the registry.
func ipKey(ip netip.Addr) string {
	return "ip." + strings.NewReplacer(".", "_", ":", "_").Replace(ip.String())
}

// Acquire waits until this node may fetch from ip: no fetch of any node
// (this one's other workers and crawls included) is under way there and
// its politeness rest is over. It holds the IP, renewing the claim while
// the fetch lasts, until release(wait), which rests the IP for wait.
func (n *Node) Acquire(ctx context.Context, ip netip.Addr) (func(time.Duration), error) {
	key := ipKey(ip)
	me := n.memberKey(n.cfg.Name)
	mine := claim{node: me}.encode()
	pause := 2 * time.Millisecond
	// One worker of this process at a time goes for an IP: a claim in
	// this node's name that the process does not hold is then one an
	// earlier process of the node left (it was killed).
	if err := n.lockLocal(ctx, key); err != nil {
		return nil, err
	}
	locked := true
	defer func() {
		if locked {
			n.unlockLocal(key)
		}
	}()
	for {
		rev, err := n.ips.Create(ctx, key, mine)
		if err != nil && exists(err) {
			var e jetstream.KeyValueEntry
			e, err = n.ips.Get(ctx, key)
			if errors.Is(err, jetstream.ErrKeyNotFound) {
				continue
			}
			if err == nil {
				var c claim
				if c, err = decodeClaim(e.Value()); err == nil {
					// Free: rested, or held by a node gone from the live
					// set, or in this node's name by an earlier process
					// (this one's workers take turns: lockLocal).
					free := !c.until.IsZero() && !time.Now().Before(c.until)
					if c.until.IsZero() {
						free = c.node == me || !n.isLive(ctx, c.node)
					}
					if free {
						rev, err = n.ips.Update(ctx, key, mine, e.Revision())
						if err == nil {
							locked = false
							return n.hold(key, rev), nil
						}
						if exists(err) {
							continue // another node was quicker
						}
					} else {
						wait := pause
						if !c.until.IsZero() {
							wait = max(time.Until(c.until), time.Millisecond)
						} else {
							pause = min(2*pause, 50*time.Millisecond)
						}
						select {
						case <-ctx.Done():
							return nil, ctx.Err()
						case <-time.After(wait):
						}
						continue
					}
				}
			}
		}
		if err == nil {
			locked = false
			return n.hold(key, rev), nil
		}
		if err := n.retry(ctx, "claiming IP "+ip.String(), err); err != nil {
			return nil, err
		}
	}
}

// lockLocal waits until no other worker of this process holds or seeks
// the IP of key, and marks it as this one's.
func (n *Node) lockLocal(ctx context.Context, key string) error {
	for {
		n.localMu.Lock()
		ch, busy := n.local[key]
		if !busy {
			n.local[key] = make(chan struct{})
			n.localMu.Unlock()
			return nil
		}
		n.localMu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (n *Node) unlockLocal(key string) {
	n.localMu.Lock()
	ch := n.local[key]
	delete(n.local, key)
	n.localMu.Unlock()
	close(ch)
}

// isLive says whether the node of a member key (crawl token and name)
// has a heartbeat: for a node of this crawl, in this node's last view (a
// leaving node still finishes its fetches); for a node of another crawl
// sharing the registry, in the members bucket.
func (n *Node) isLive(ctx context.Context, member string) bool {
	if name, ok := strings.CutPrefix(member, n.token+"."); ok && !strings.Contains(name, ".") {
		n.mu.Lock()
		defer n.mu.Unlock()
		for _, s := range n.view {
			if s.Name == name {
				return true
			}
		}
		return false
	}
	e, err := n.members.Get(ctx, member)
	if err != nil {
		// Unreachable counts as live: a claim is never taken on doubt.
		return !errors.Is(err, jetstream.ErrKeyNotFound) && !errors.Is(err, jetstream.ErrKeyDeleted)
	}
	return time.Since(e.Created()) <= n.cfg.TTL
}

// hold keeps a claimed IP renewed until the returned release.
func (n *Node) hold(key string, rev uint64) func(time.Duration) {
	n.claims.Add(1)
	n.log.ok()
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(n.cfg.IPTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-n.ctx.Done():
				return
			case <-t.C:
			}
			r, err := n.ips.Update(n.ctx, key, claim{node: n.memberKey(n.cfg.Name)}.encode(), rev)
			if err == nil {
				rev = r
			}
		}
	}()
	var once sync.Once
	return func(wait time.Duration) {
		once.Do(func() {
			close(stop)
			<-done
			n.claims.Add(-1)
			defer n.unlockLocal(key) // after the rest is recorded
			ctx, cancel := context.WithTimeout(n.ctx, 10*time.Second)
			defer cancel()
			val := claim{node: n.memberKey(n.cfg.Name), until: time.Now().Add(wait)}.encode()
			for {
				_, err := n.ips.Update(ctx, key, val, rev)
				if err == nil || exists(err) {
					return // released, or taken over meanwhile (this node was thought gone)
				}
				if err := n.retry(ctx, "releasing an IP claim", err); err != nil {
					return // the claim expires with the registry's TTL
				}
			}
		})
	}
}

// Claims lists the IP registry.
func (n *Node) Claims(ctx context.Context) ([]api.IPClaim, error) {
	w, err := n.ips.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	var out []api.IPClaim
	err = readCurrent(ctx, w, func(e jetstream.KeyValueEntry) {
		c, err := decodeClaim(e.Value())
		if err != nil {
			return
		}
		ip := strings.TrimPrefix(e.Key(), "ip.")
		if a, err := netip.ParseAddr(strings.ReplaceAll(ip, "_", ".")); err == nil {
			ip = a.String()
		}
		out = append(out, api.IPClaim{IP: ip, Node: c.node, Fetching: c.until.IsZero(), Until: c.until})
	})
	return out, err
}

// readCurrent passes each value a watch holds now to f, stopping the
// watch at the first nil update, which marks the end of those values.
func readCurrent(ctx context.Context, w jetstream.KeyWatcher, f func(jetstream.KeyValueEntry)) error {
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e := <-w.Updates():
			if e == nil {
				return nil
			}
			f(e)
		}
	}
}

// logger reports NATS trouble loudly once, then every troubleEvery while
// it lasts, and the recovery.
type logger struct {
	w     io.Writer
	mu    sync.Mutex
	since time.Time // trouble began; zero when none
	last  time.Time
}

const troubleEvery = 10 * time.Second

func (l *logger) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "cluster: "+format+"\n", args...)
}

func (l *logger) trouble(what string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	if l.since.IsZero() {
		l.since = now
	} else if now.Sub(l.last) < troubleEvery {
		return
	}
	l.last = now
	fmt.Fprintf(l.w, "cluster: NATS trouble for %v: %s: %v (retrying)\n", now.Sub(l.since).Round(time.Second), what, err)
}

func (l *logger) ok() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.since.IsZero() {
		fmt.Fprintf(l.w, "cluster: NATS is answering again after %v\n", time.Since(l.since).Round(time.Second))
		l.since = time.Time{}
	}
}
