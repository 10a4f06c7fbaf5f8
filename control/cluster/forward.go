package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Forwarding batches: a batch leaves when its message reaches batchBytes
// or it has waited flushEvery, so a page's links cost a fraction of a
// message and a message carries thousands of URLs (about 60 bytes each),
// well under NATS's default maximum payload of 1 MiB.
const (
	batchBytes = 256 << 10
	flushEvery = 5 * time.Millisecond
	// fetchBatch is how many messages a receiver takes at once: their URLs
	// go into the frontier with one sync.
	fetchBatch = 16
	// maxMessage bounds a message of statements, under NATS's default
	// maximum payload of 1 MiB.
	maxMessage = 512 << 10
)

// bufs holds the buffers of batches sent: a batch grows to batchBytes
// and then some, and growing each one anew was a tenth of the cost.
var bufs = sync.Pool{New: func() any {
	b := make([]byte, 0, batchBytes+batchBytes/4)
	return &b
}}

// forwarder gathers the URLs bound for each node and publishes them in
// batches to the node's subject of the forwarding stream.
type forwarder struct {
	n       *Node
	mu      sync.Mutex
	open    map[string]*outBatch // by destination node, still filling
	unacked atomic.Int64         // batches published or filling, not yet acknowledged
	wg      sync.WaitGroup       // publishes under way
	stop    chan struct{}
	stopped chan struct{}
}

// outBatch is one message on its way: done is closed once the stream
// stored it (err nil) or it was given up (err set).
type outBatch struct {
	dest string
	w    batchWriter
	buf  *[]byte // w's buffer, from bufs
	done chan struct{}
	err  error
}

func newForwarder(n *Node) *forwarder {
	f := &forwarder{n: n, open: map[string]*outBatch{}, stop: make(chan struct{}), stopped: make(chan struct{})}
	go f.ticker()
	return f
}

// Route keeps the candidates this node owns and queues the others for
// their owners; sent waits until the stream holds them.
func (n *Node) Route(cands []frontier.Candidate) ([]frontier.Candidate, func() error, error) {
	live := n.live.Load()
	if live == nil || len(*live) == 0 {
		// This node leaves and no other is live: the links stay here,
		// for the next run of this node.
		return cands, nil, nil
	}
	var local []frontier.Candidate
	var waits []*outBatch
	// A page's links mostly share a host: its owner is found once.
	lastKey, lastOwner := "", ""
	for i, c := range cands {
		if i == 0 || c.QueueKey != lastKey {
			lastKey, lastOwner = c.QueueKey, n.ownerOf(c.QueueKey, live)
		}
		if lastOwner == n.cfg.Name {
			if len(waits) > 0 {
				local = append(local, c)
			}
			continue
		}
		if len(waits) == 0 {
			// The first to send: those before it stay.
			local = slices.Clone(cands[:i])
		}
		b := n.fw.add(lastOwner, fromCandidate(c))
		if len(waits) == 0 || waits[len(waits)-1] != b {
			waits = append(waits, b)
		}
	}
	if len(waits) == 0 {
		return cands, nil, nil
	}
	return local, func() error {
		for _, b := range waits {
			<-b.done
			if b.err != nil {
				return b.err
			}
		}
		return nil
	}, nil
}

// add puts u in the open batch for dest, sending the batch when full.
func (f *forwarder) add(dest string, u URL) *outBatch {
	f.mu.Lock()
	b := f.open[dest]
	if b == nil {
		b = &outBatch{dest: dest, done: make(chan struct{})}
		f.open[dest] = b
		f.unacked.Add(1)
	}
	if b.w.n == 0 {
		b.buf = bufs.Get().(*[]byte)
		b.w.buf = (*b.buf)[:0]
	}
	b.w.add(u)
	full := len(b.w.buf) >= batchBytes
	if full {
		delete(f.open, dest)
		f.wg.Add(1)
	}
	f.mu.Unlock()
	if full {
		go f.send(b)
	}
	return b
}

// ticker sends the open batches every flushEvery.
func (f *forwarder) ticker() {
	defer close(f.stopped)
	t := time.NewTicker(flushEvery)
	defer t.Stop()
	for {
		select {
		case <-f.stop:
			f.sendOpen()
			return
		case <-t.C:
			f.sendOpen()
		}
	}
}

func (f *forwarder) sendOpen() {
	f.mu.Lock()
	bs := make([]*outBatch, 0, len(f.open))
	for d, b := range f.open {
		bs = append(bs, b)
		delete(f.open, d)
	}
	f.wg.Add(len(bs))
	f.mu.Unlock()
	for _, b := range bs {
		go f.send(b)
	}
}

// send publishes a batch, retrying while NATS is unreachable: the links
// are safe only once the stream has them, and the page that found them
// waits for that.
func (f *forwarder) send(b *outBatch) {
	defer f.wg.Done()
	defer f.unacked.Add(-1)
	b.err = f.publish(f.n.ctx, b.dest, &b.w, false)
	*b.buf, b.w.buf = b.w.buf[:0], nil
	bufs.Put(b.buf)
	close(b.done)
}

// publish stores a batch in dest's subject, lent (see lend) or not,
// retrying until it succeeds or ctx ends.
func (f *forwarder) publish(ctx context.Context, dest string, w *batchWriter, lent bool) error {
	n := f.n
	m := &nats.Msg{Subject: n.subject(dest), Data: w.bytes()}
	if lent {
		m.Header = nats.Header{lentHeader: []string{"1"}}
	}
	wait := 50 * time.Millisecond
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := n.js.PublishMsg(pctx, m)
		cancel()
		if err == nil {
			n.forwarded.Add(int64(w.n))
			n.batchesSent.Add(1)
			n.log.ok()
			return nil
		}
		n.log.trouble(fmt.Sprintf("forwarding %d URLs to node %s", w.n, dest), err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("forwarding %d URLs to node %s: %w", w.n, dest, err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// idle says whether nothing is waiting to be sent.
func (f *forwarder) idle() bool { return f.unacked.Load() == 0 }

// flush sends the open batches and waits for every batch under way.
func (f *forwarder) flush(ctx context.Context) error {
	f.sendOpen()
	done := make(chan struct{})
	go func() {
		f.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (f *forwarder) close() {
	close(f.stop)
	<-f.stopped
	f.wg.Wait()
}

// drain takes the messages of a consumer (this node's, or a left node's
// when rescuing) and routes their URLs: those this node owns go into its
// frontier, the others to their owners; a message is acknowledged once
// all its URLs are safe. With wait it goes on until ctx ends; otherwise it
// returns when the consumer has nothing left.
func (n *Node) drain(ctx context.Context, cons jetstream.Consumer, wait bool) {
	var buf takeBuf
	for ctx.Err() == nil {
		maxWait := time.Second
		if !wait {
			maxWait = 200 * time.Millisecond
		}
		msgs, err := fetch(ctx, cons, fetchBatch, maxWait)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			n.log.trouble("reading forwarded URLs", err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		if len(msgs) == 0 {
			if !wait {
				return
			}
			continue
		}
		n.receiving.Add(1)
		err = n.take(msgs, &buf)
		n.receiving.Add(-1)
		if err != nil {
			n.log.printf("taking %d forwarded batches: %v (they come again)", len(msgs), err)
			for _, m := range msgs {
				_ = m.NakWithDelay(time.Second)
			}
			continue
		}
		for _, m := range msgs {
			if err := m.Ack(); err != nil {
				n.log.trouble("acknowledging forwarded URLs", err)
			}
		}
		n.batchesReceived.Add(int64(len(msgs)))
	}
}

// take routes the URLs of some messages: it returns once those this node
// owns (or was lent) are durable in its frontier and the others are in
// the stream. buf holds the caller's working arrays from one call to the
// next.
func (n *Node) take(msgs []jetstream.Msg, buf *takeBuf) error {
	total := 0
	for _, m := range msgs {
		total += batchLen(m.Data())
	}
	us := slices.Grow(buf.urls[:0], total)
	kept := 0 // us[:kept] were lent to this node: they stay
	for _, lentPass := range []bool{true, false} {
		for _, m := range msgs {
			if n.lentTo(m.Subject(), m.Headers().Get(lentHeader) != "") != lentPass {
				continue
			}
			var err error
			if us, err = decodeBatch(us, m.Data()); err != nil {
				// Nothing can make it readable: drop it, loudly.
				n.log.printf("dropping an unreadable forwarded batch (%s): %v", m.Subject(), err)
			}
		}
		if lentPass {
			kept = len(us)
		}
	}
	cands := slices.Grow(buf.cands[:0], len(us))[:len(us)]
	for i, u := range us {
		cands[i] = u.candidate()
	}
	buf.urls, buf.cands = us, cands
	c := n.crawl.Load()
	if c == nil {
		return errors.New("no crawl attached")
	}
	local, sent, err := n.Route(cands[kept:])
	if err != nil {
		return err
	}
	if kept > 0 {
		local = append(cands[:kept:kept], local...)
	}
	if len(local) > 0 {
		if err := c.Accept(local); err != nil {
			return err
		}
	}
	n.received.Add(int64(len(local)))
	if sent != nil {
		return sent()
	}
	return nil
}

// takeBuf is the working arrays of take.
type takeBuf struct {
	urls  []URL
	cands []frontier.Candidate
}

// rescue reads the messages waiting for a node that left and routes them
// to the current owners.
func (n *Node) rescue(node string) {
	defer n.rescuing.Delete(node)
	if n.crawl.Load() == nil {
		return
	}
	ctx, cancel := context.WithTimeout(n.ctx, time.Minute)
	defer cancel()
	cons, err := n.fwd.CreateOrUpdateConsumer(ctx, n.consumerConfig(node))
	if err != nil {
		n.log.trouble("reading the URLs of node "+node, err)
		return
	}
	n.log.printf("node %s left with forwarded URLs waiting: routing them to the current owners", node)
	n.drain(ctx, cons, false)
}

// fetch takes up to max messages from a pull consumer, waiting at most
// wait for the first; an empty wait is no error.
func fetch(ctx context.Context, cons jetstream.Consumer, max int, wait time.Duration) ([]jetstream.Msg, error) {
	fctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	batch, err := cons.Fetch(max, jetstream.FetchContext(fctx))
	if err != nil {
		return nil, err
	}
	var msgs []jetstream.Msg
	for m := range batch.Messages() {
		msgs = append(msgs, m)
	}
	if err := batch.Error(); err != nil && len(msgs) == 0 && fctx.Err() == nil {
		return nil, err
	}
	return msgs, nil
}
