package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
)

// Config sets up a Node.
type Config struct {
	Conn     *nats.Conn // connected to the cluster's NATS server(s)
	Name     string     // the node's name, unique in the cluster: letters, digits, - and _
	Crawl    string     // the crawl's id: every node of the cluster runs it
	SpecHash string     // SpecHash of the crawl's spec: nodes with another one are refused
	API      string     // the node's control API address, advertised in its heartbeat
	// Heartbeat is how often the node beats and reads the live set
	// (default 1 s); TTL how long a heartbeat lasts (default 5 s): a
	// silent node leaves the live set after TTL plus one Heartbeat.
	Heartbeat time.Duration
	TTL       time.Duration
	// IPTTL bounds how long an IP claim outlives its holder (default 60 s);
	// a holder that leaves the live set loses its claims at once.
	IPTTL time.Duration
	// Replicas of the streams and buckets (default 1; 3 on a NATS cluster
	// of three servers or more keeps them through the loss of one).
	Replicas int
	Log      io.Writer // membership changes, hand-overs, NATS trouble
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Node is one crawler node of a cluster. It implements crawler.Cluster.
type Node struct {
	cfg     Config
	js      jetstream.JetStream
	members jetstream.KeyValue
	ips     jetstream.KeyValue
	ledger  jetstream.KeyValue
	fwd     jetstream.Stream
	token   string // the crawl id as a NATS name token
	started time.Time
	log     *logger

	live       atomic.Pointer[[]string] // the owners: the live set, less this node while it leaves
	ownerCache ownerCache
	crawl      atomic.Pointer[crawler.Crawl]
	leaving    atomic.Bool
	done       atomic.Bool
	fw         *forwarder

	forwarded, received, batchesSent, batchesReceived atomic.Int64
	handedOver, elsewhere, claims, receiving          atomic.Int64
	lent                                              atomic.Int64 // URLs lent to idle nodes

	lending atomic.Bool          // a lend is under way
	lentAt  map[string]time.Time // by peer: the last lend to it; poll's own

	rebalanceMu sync.Mutex // one hand-over at a time
	rebalance   chan struct{}
	rescuing    sync.Map // node name → struct{}: a rescue of its messages is under way
	localMu     sync.Mutex
	local       map[string]chan struct{} // IP registry key → closed when this process's worker lets go of it

	recvMu   sync.Mutex
	recvStop context.CancelFunc
	recvDone chan struct{}

	beats map[string]seenBeat // by node: the last heartbeat read; poll's own

	pause        *Pauser
	pauseMu      sync.Mutex
	clusterPause api.Pause // the cluster's pause this node follows
	pausedHere   bool      // this node's own pause
	pauseDone    chan struct{}

	mu       sync.Mutex
	prevTerm map[string]termSnap // the last termination snapshot
	lastBeat time.Time
	lastSeen int64 // fetched at the last beat, for pages/s
	view     []api.Node
	pending  uint64

	ctx    context.Context
	cancel context.CancelFunc
	loop   chan struct{}
}

// seenBeat is a node's heartbeat as a poll read it.
type seenBeat struct {
	s       api.Node
	created time.Time
	rev     uint64
}

// termSnap is what a node's heartbeat said at a termination check.
type termSnap struct {
	rev        uint64
	sent, recv int64
}

// Bucket and stream names. The members, spec and IP buckets are shared
// by every crawl of the cluster (so politeness per IP holds across
// crawls); the ledger and the forwarding stream are the crawl's.
const (
	membersBucket = "mneme_nodes"
	specsBucket   = "mneme_specs"
	ipsBucket     = "mneme_ips"
)

func (n *Node) subject(node string) string { return "mneme.fwd." + n.token + "." + node }

// Token turns a crawl id into a NATS name token.
func Token(id string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, id)
}

// ErrSpecMismatch is returned by Join when the cluster runs the crawl
// with another specification.
var ErrSpecMismatch = errors.New("the cluster runs this crawl with another specification")

// Join sets up the cluster's buckets and stream if needed, checks the
// crawl's specification against the cluster's, and makes the node a
// member. Attach then gives it the crawl. The node beats until Close.
func Join(ctx context.Context, cfg Config) (*Node, error) {
	if !nameRE.MatchString(cfg.Name) {
		return nil, fmt.Errorf("node name %q: use letters, digits, - and _ only", cfg.Name)
	}
	if cfg.Crawl == "" || cfg.SpecHash == "" || cfg.Conn == nil {
		return nil, errors.New("cluster: a node needs a connection, a crawl and its spec hash")
	}
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = time.Second
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 5 * time.Second
	}
	if cfg.TTL < 2*cfg.Heartbeat {
		return nil, fmt.Errorf("cluster: heartbeat TTL %v must be at least twice the heartbeat interval %v", cfg.TTL, cfg.Heartbeat)
	}
	if cfg.IPTTL <= 0 {
		cfg.IPTTL = time.Minute
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	js, err := jetstream.New(cfg.Conn)
	if err != nil {
		return nil, err
	}
	n := &Node{cfg: cfg, js: js, token: Token(cfg.Crawl), started: time.Now(), log: &logger{w: cfg.Log},
		rebalance: make(chan struct{}, 1), loop: make(chan struct{}), local: map[string]chan struct{}{},
		lentAt: map[string]time.Time{}}
	n.ctx, n.cancel = context.WithCancel(context.Background())
	ok := false
	defer func() {
		if !ok {
			n.cancel()
			if n.fw != nil {
				n.fw.close()
			}
		}
	}()
	kv := func(name string, ttl time.Duration) (jetstream.KeyValue, error) {
		b, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket: name, TTL: ttl, Storage: jetstream.FileStorage, Replicas: cfg.Replicas, History: 1,
		})
		if errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount) {
			return nil, fmt.Errorf("cluster: the NATS server at %s runs without JetStream (start it with -js, or use --cluster embedded): %w",
				cfg.Conn.ConnectedUrlRedacted(), err)
		}
		if err != nil {
			return nil, fmt.Errorf("cluster: bucket %s: %w", name, err)
		}
		return b, nil
	}
	if n.members, err = kv(membersBucket, cfg.TTL); err != nil {
		return nil, err
	}
	specs, err := kv(specsBucket, 0)
	if err != nil {
		return nil, err
	}
	if n.ips, err = kv(ipsBucket, cfg.IPTTL); err != nil {
		return nil, err
	}
	if n.ledger, err = kv("mneme_ledger_"+n.token, 0); err != nil {
		return nil, err
	}
	if err := n.checkSpec(ctx, specs); err != nil {
		return nil, err
	}
	pauseKV, err := kv(pauseBucket, 0)
	if err != nil {
		return nil, err
	}
	n.pause = &Pauser{kv: pauseKV, members: n.members, crawl: cfg.Crawl, token: n.token, live: n.owners}
	n.fwd, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: "MNEME_FWD_" + n.token, Subjects: []string{"mneme.fwd." + n.token + ".*"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: cfg.Replicas,
		Description: "URLs forwarded to the owner of their domain, crawl " + cfg.Crawl,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: forwarding stream: %w", err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: n.rdfStream(), Subjects: []string{n.rdfSubjects()},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: cfg.Replicas,
		Description: "statements of crawl " + cfg.Crawl + " for the cluster's store",
	}); err != nil {
		return nil, fmt.Errorf("cluster: statements stream: %w", err)
	}
	if _, err := n.fwd.CreateOrUpdateConsumer(ctx, n.consumerConfig(cfg.Name)); err != nil {
		return nil, fmt.Errorf("cluster: forwarding consumer: %w", err)
	}
	n.fw = newForwarder(n)
	// The pause before the first heartbeat: the node announces itself
	// following it, and its crawl starts paused if the cluster is.
	if err := n.watchPause(ctx); err != nil {
		return nil, err
	}
	if err := n.beat(ctx); err != nil {
		return nil, fmt.Errorf("cluster: first heartbeat: %w", err)
	}
	if err := n.poll(ctx); err != nil {
		return nil, fmt.Errorf("cluster: reading the live set: %w", err)
	}
	ok = true
	go n.run()
	go n.rebalancer()
	return n, nil
}

// consumerConfig is the durable consumer of a node's forwarding subject;
// a live node reads it in the place of a node that left.
func (n *Node) consumerConfig(node string) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable: "fwd-" + node, FilterSubject: n.subject(node),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: 5 * time.Second, MaxAckPending: 256,
	}
}

// checkSpec records the crawl's spec hash, or compares it with the one
// recorded by the first node.
func (n *Node) checkSpec(ctx context.Context, specs jetstream.KeyValue) error {
	_, err := specs.Create(ctx, n.token, []byte(n.cfg.SpecHash))
	if err == nil || !exists(err) {
		return err
	}
	e, err := specs.Get(ctx, n.token)
	if err != nil {
		return err
	}
	if got := string(e.Value()); got != n.cfg.SpecHash {
		return fmt.Errorf("crawl %s: %w (cluster: spec %s, this node: spec %s); give every node the same spec file",
			n.cfg.Crawl, ErrSpecMismatch, short(got), short(n.cfg.SpecHash))
	}
	return nil
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// exists tells a create that found its key from other errors.
func exists(err error) bool {
	return errors.Is(err, jetstream.ErrKeyExists) || errors.Is(err, jetstream.ErrKeyRevisionMismatch)
}

// Name is the node's name.
func (n *Node) Name() string { return n.cfg.Name }

// Attach gives the node its crawl, opened (New or Open) with the node as
// its Deps.Cluster, and starts taking the URLs other nodes send.
func (n *Node) Attach(c *crawler.Crawl) error {
	n.pauseMu.Lock()
	n.crawl.Store(c)
	n.applyPause()
	n.pauseMu.Unlock()
	ctx, cancel := context.WithCancel(n.ctx)
	cons, err := n.fwd.Consumer(ctx, "fwd-"+n.cfg.Name)
	if err != nil {
		cancel()
		return fmt.Errorf("cluster: forwarding consumer: %w", err)
	}
	n.recvMu.Lock()
	n.recvStop, n.recvDone = cancel, make(chan struct{})
	done := n.recvDone
	n.recvMu.Unlock()
	go func() {
		defer close(done)
		n.drain(ctx, cons, true)
	}()
	n.kick()
	return nil
}

// stopReceiving stops taking URLs and waits for the batch under way.
func (n *Node) stopReceiving() {
	n.recvMu.Lock()
	stop, done := n.recvStop, n.recvDone
	n.recvMu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// owners is the current set of nodes that own domains.
func (n *Node) owners() []string {
	if p := n.live.Load(); p != nil {
		return *p
	}
	return nil
}

// Owns says whether this node owns the domain of a queue key.
func (n *Node) Owns(queueKey string) bool {
	return Owner(Domain(queueKey), n.owners()) == n.cfg.Name
}

// OwnerOf is the node owning the domain of a host (or queue key).
func (n *Node) OwnerOf(host string) (domain, owner string) {
	d := Domain(host)
	return d, Owner(d, n.owners())
}

// run beats and polls until Close.
func (n *Node) run() {
	defer close(n.loop)
	t := time.NewTicker(n.cfg.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(n.ctx, 2*n.cfg.Heartbeat+5*time.Second)
		if !n.leaving.Load() {
			if err := n.beat(ctx); err != nil && n.ctx.Err() == nil {
				n.log.trouble("heartbeat", err)
			}
		}
		if err := n.poll(ctx); err != nil {
			if n.ctx.Err() == nil {
				n.log.trouble("reading the live set", err)
			}
		} else {
			n.log.ok()
		}
		cancel()
	}
}

// status is the node's heartbeat.
func (n *Node) status() api.Node {
	s := api.Node{
		Name: n.cfg.Name, Crawl: n.cfg.Crawl, API: n.cfg.API, Started: n.started, Beat: time.Now(),
		Leaving: n.leaving.Load(), Forwarded: n.forwarded.Load(), Received: n.received.Load(),
		BatchesSent: n.batchesSent.Load(), BatchesReceived: n.batchesReceived.Load(),
		HandedOver: n.handedOver.Load(), FetchedElsewhere: n.elsewhere.Load(), IPClaims: n.claims.Load(),
		Lent: n.lent.Load(),
	}
	s.Paused, s.PausedHere, s.PauseRev = n.paused()
	idle := n.fw.idle() && n.receiving.Load() == 0
	if c := n.crawl.Load(); c != nil {
		st := c.Status()
		s.Queued, s.InFlight, s.Fetched, s.Queues = st.Queued, st.InFlight, st.Fetched, st.Queues
		s.Domains, s.TopDomains = n.domains(c)
		idle = idle && st.Queued == 0 && st.InFlight == 0 && st.Waiting == 0
	} else {
		idle = false // not crawling yet
	}
	s.Idle = idle
	n.mu.Lock()
	if !n.lastBeat.IsZero() {
		if d := s.Beat.Sub(n.lastBeat).Seconds(); d > 0 {
			s.PagesPerSecond = float64(s.Fetched-n.lastSeen) / d
		}
	}
	n.lastBeat, n.lastSeen = s.Beat, s.Fetched
	n.mu.Unlock()
	return s
}

func (n *Node) memberKey(node string) string { return n.token + "." + node }

// beat writes the node's heartbeat.
func (n *Node) beat(ctx context.Context) error {
	b, err := json.Marshal(n.status())
	if err != nil {
		return err
	}
	_, err = n.members.Put(ctx, n.memberKey(n.cfg.Name), b)
	return err
}

// poll reads the live set and the nodes' heartbeats, hands over what
// this node no longer owns when the set changed, reads the messages of
// nodes that left, and checks for the crawl's end.
func (n *Node) poll(ctx context.Context) error {
	w, err := n.members.Watch(ctx, n.token+".*")
	if err != nil {
		return err
	}
	now := time.Now()
	if n.beats == nil {
		n.beats = map[string]seenBeat{}
	}
	err = readCurrent(ctx, w, func(e jetstream.KeyValueEntry) {
		name := strings.TrimPrefix(e.Key(), n.token+".")
		if e.Operation() != jetstream.KeyValuePut {
			delete(n.beats, name) // it left
			return
		}
		var s api.Node
		if err := json.Unmarshal(e.Value(), &s); err != nil {
			n.log.printf("node %s: unreadable heartbeat: %v", e.Key(), err)
			return
		}
		n.beats[name] = seenBeat{s: s, created: e.Created(), rev: e.Revision()}
	})
	if err != nil {
		return err
	}
	// A heartbeat read at an earlier poll counts until it expires: a
	// watch's first values can miss a key whose heartbeat is being
	// replaced at that moment, and a node must not leave the live set
	// (and have its domains handed back and forth) for that.
	var view []api.Node
	revs := map[string]uint64{}
	for name, b := range n.beats {
		// The server drops expired heartbeats; one it has not dropped
		// yet is dead all the same.
		if now.Sub(b.created) > n.cfg.TTL {
			delete(n.beats, name)
			continue
		}
		view = append(view, b.s)
		revs[b.s.Name] = b.rev
	}
	slices.SortFunc(view, func(a, b api.Node) int { return strings.Compare(a.Name, b.Name) })
	var live []string
	for _, s := range view {
		if s.Leaving || s.Name == n.cfg.Name && n.leaving.Load() {
			continue
		}
		live = append(live, s.Name)
	}
	if old := n.owners(); !slices.Equal(old, live) {
		n.live.Store(&live)
		if old != nil {
			n.log.printf("live set: %s (was %s)", strings.Join(live, " "), strings.Join(old, " "))
		}
		n.done.Store(false)
		n.kick()
	}
	info, err := n.fwd.Info(ctx, jetstream.WithSubjectFilter("mneme.fwd."+n.token+".*"))
	if err != nil {
		return err
	}
	n.mu.Lock()
	n.view, n.pending = view, info.State.Msgs
	n.mu.Unlock()
	for subj, count := range info.State.Subjects {
		node := subj[strings.LastIndexByte(subj, '.')+1:]
		if count == 0 || slices.Contains(live, node) || Owner("rescue/"+node, live) != n.cfg.Name {
			continue
		}
		if _, busy := n.rescuing.LoadOrStore(node, struct{}{}); !busy {
			go n.rescue(node)
		}
	}
	n.checkDone(view, revs, info.State.Msgs)
	n.lend(view, live)
	return nil
}

// checkDone decides the crawl's end: every node idle and the stream
// empty at two polls between which every node beat again and no counter
// moved. Work only comes from the stream or from a node's own queues,
// so a node that took work between the polls has a counter that moved
// or a heartbeat that is not idle.
func (n *Node) checkDone(view []api.Node, revs map[string]uint64, msgs uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	cur := map[string]termSnap{}
	quiet := msgs == 0 && len(view) > 0
	for _, s := range view {
		if !s.Idle {
			quiet = false
		}
		cur[s.Name] = termSnap{rev: revs[s.Name], sent: s.BatchesSent, recv: s.BatchesReceived}
	}
	if !quiet {
		n.prevTerm = nil
		return
	}
	if prev := n.prevTerm; prev != nil && len(prev) == len(cur) {
		same := true
		for name, c := range cur {
			p, ok := prev[name]
			if !ok || c.rev <= p.rev || c.sent != p.sent || c.recv != p.recv {
				same = false
				break
			}
		}
		if same {
			n.done.Store(true)
			return
		}
		if !sameCounters(prev, cur) {
			n.prevTerm = cur
		}
		return
	}
	n.prevTerm = cur
}

func sameCounters(a, b map[string]termSnap) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x.sent != y.sent || x.recv != y.recv {
			return false
		}
	}
	return true
}

// Done says whether the whole cluster has nothing left to crawl.
func (n *Node) Done() bool { return n.done.Load() }

// kick asks the rebalancer for a hand-over pass.
func (n *Node) kick() {
	select {
	case n.rebalance <- struct{}{}:
	default:
	}
}

// rebalancer hands over the queues of domains this node no longer owns,
// whenever the live set changes.
func (n *Node) rebalancer() {
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-n.rebalance:
		}
		if _, err := n.handOver(n.ctx); err != nil && n.ctx.Err() == nil {
			n.log.printf("handing over queues: %v", err)
		}
	}
}

// sendQueued sends queued URLs to the nodes dest names for their queue
// keys, lent or not; it returns once the stream holds them all.
func (n *Node) sendQueued(ctx context.Context, qs []frontier.Queued, dest func(queueKey string) string, lent bool) error {
	by := map[string]*batchWriter{}
	for _, q := range qs {
		d := dest(q.QueueKey)
		w := by[d]
		if w == nil {
			w = &batchWriter{}
			by[d] = w
		}
		w.add(fromQueued(q))
		if len(w.buf) >= batchBytes {
			if err := n.fw.publish(ctx, d, w, lent); err != nil {
				return err
			}
			w.n = 0
		}
	}
	for d, w := range by {
		if w.n == 0 {
			continue
		}
		if err := n.fw.publish(ctx, d, w, lent); err != nil {
			return err
		}
	}
	return nil
}

// handOver sends the queued URLs of the domains another node owns to
// their owners, each batch durably in the stream before the frontier
// forgets it.
func (n *Node) handOver(ctx context.Context) (int, error) {
	n.rebalanceMu.Lock()
	defer n.rebalanceMu.Unlock()
	c := n.crawl.Load()
	live := n.live.Load()
	if c == nil || live == nil || len(*live) == 0 {
		return 0, nil
	}
	moved, err := c.HandOver(func(key string) bool {
		return n.ownerOf(key, live) == n.cfg.Name
	}, func(qs []frontier.Queued) error {
		return n.sendQueued(ctx, qs, func(key string) string { return n.ownerOf(key, live) }, false)
	})
	n.handedOver.Add(int64(moved))
	if moved > 0 {
		n.log.printf("handed %d queued URLs over to their new owners", moved)
	}
	return moved, err
}

// Leave makes the node leave the cluster gracefully: it stops owning
// domains and taking URLs, lets the fetches under way finish, and hands
// every queued URL over to the new owners. The caller then stops the
// crawl. Alone in the cluster, it keeps its queues (and says so).
func (n *Node) Leave(ctx context.Context) error {
	n.leaving.Store(true)
	if err := n.beat(ctx); err != nil {
		return fmt.Errorf("announcing the leave: %w", err)
	}
	if err := n.poll(ctx); err != nil {
		return err
	}
	n.stopReceiving()
	c := n.crawl.Load()
	if c == nil {
		return n.members.Delete(ctx, n.memberKey(n.cfg.Name))
	}
	n.pauseMu.Lock()
	n.applyPause() // leaving: paused whatever the cluster's pause says
	n.pauseMu.Unlock()
	for c.Status().InFlight > 0 {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := n.fw.flush(ctx); err != nil {
		return err
	}
	if len(n.owners()) == 0 {
		n.log.printf("no other node is live: the queued URLs stay in this node's frontier")
	} else if _, err := n.handOver(ctx); err != nil {
		return err
	}
	return n.members.Delete(ctx, n.memberKey(n.cfg.Name))
}

// Close stops the node's work (a node that did not Leave stays in the
// live set until its heartbeat expires, as after a crash). The crawl
// must have stopped.
func (n *Node) Close() {
	n.stopReceiving()
	n.cancel()
	<-n.loop
	if n.pauseDone != nil {
		<-n.pauseDone
	}
	n.fw.close()
}

// Status is the cluster as this node sees it.
func (n *Node) Status(ctx context.Context) (api.Cluster, error) {
	n.mu.Lock()
	out := api.Cluster{Crawl: n.cfg.Crawl, Self: n.cfg.Name, Nodes: slices.Clone(n.view), Pending: n.pending, Done: n.done.Load()}
	n.mu.Unlock()
	n.pauseMu.Lock()
	out.Pause = n.clusterPause
	n.pauseMu.Unlock()
	claims, err := n.Claims(ctx)
	out.Claims = claims
	return out, err
}

// SpecHash identifies a crawl's specification across nodes: every field
// but those a node may set for itself (its data folder, its number of
// workers, the prefix of its WARC files' names).
func SpecHash(s *spec.Spec) (string, error) {
	c := *s
	// As the crawl writes it: every default filled in.
	if _, err := c.Check(canon.New(canon.Options{})); err != nil {
		return "", err
	}
	c.Output, c.Workers, c.WARC.Prefix = "", 0, ""
	b, err := c.Marshal()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// Quit takes a node whose crawl ended out of the live set at once, rather
// than when its heartbeat expires.
func (n *Node) Quit(ctx context.Context) error {
	n.leaving.Store(true)
	return n.members.Delete(ctx, n.memberKey(n.cfg.Name))
}

// RDFPending is the number of statement messages the store has not taken
// yet.
func (n *Node) RDFPending(ctx context.Context) (uint64, error) {
	s, err := n.js.Stream(ctx, n.rdfStream())
	if err != nil {
		return 0, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}
