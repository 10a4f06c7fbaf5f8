package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
)

// The statements of every node's crawl go, as N-Quads, through a stream
// of the crawl (one subject per node) to the node that collects them into
// the cluster's one store (mneme node --collect): SPARQL there sees one
// crawl graph. A message waits in the stream until the collector has
// committed it, so a collector that is down or not started yet misses
// nothing.

func (n *Node) rdfStream() string   { return "MNEME_RDF_" + n.token }
func (n *Node) rdfSubject() string  { return "mneme.rdf." + n.token + "." + n.cfg.Name }
func (n *Node) rdfSubjects() string { return "mneme.rdf." + n.token + ".*" }

// PublishRDF sends statements of this node's crawl to the cluster's store
// and returns once the stream holds them (retrying while NATS is away).
func (n *Node) PublishRDF(quads []rdf.Quad) error {
	var buf bytes.Buffer
	w := ntriples.NewQuadWriter(&buf)
	flush := func() error {
		if err := w.Close(); err != nil {
			return err
		}
		if buf.Len() == 0 {
			return nil
		}
		err := n.publishRDF(buf.Bytes())
		buf.Reset()
		w = ntriples.NewQuadWriter(&buf)
		return err
	}
	for _, q := range quads {
		if err := w.Write(q); err != nil {
			return err
		}
		if buf.Len() >= maxMessage {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	return flush()
}

func (n *Node) publishRDF(data []byte) error {
	ctx := n.ctx
	if ctx == nil {
		ctx = context.Background() // the crawl's description, before Join returned
	}
	for {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		_, err := n.js.Publish(pctx, n.rdfSubject(), data)
		cancel()
		if err == nil {
			return nil
		}
		if err := n.retry(ctx, "sending statements to the cluster's store", err); err != nil {
			return err
		}
	}
}

// Collect commits the statements the nodes send into st until ctx ends;
// drained, when not nil, is called each time the stream is found empty.
// Statements this node's crawl wrote itself are in st already and only
// acknowledged. Run it on one node of the cluster.
func (n *Node) Collect(ctx context.Context, st *graph.Store) error {
	cons, err := n.js.CreateOrUpdateConsumer(ctx, n.rdfStream(), jetstream.ConsumerConfig{
		Durable: "store", FilterSubject: n.rdfSubjects(), AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: 30 * time.Second, MaxAckPending: 64,
	})
	if err != nil {
		return fmt.Errorf("cluster: the store's consumer: %w", err)
	}
	n.collecting.Store(true)
	defer n.collecting.Store(false)
	for ctx.Err() == nil {
		msgs, err := fetch(ctx, cons, 16, 500*time.Millisecond)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			n.log.trouble("reading statements for the store", err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		b := st.NewBatch()
		for _, m := range msgs {
			if strings.HasSuffix(m.Subject(), "."+n.cfg.Name) {
				continue
			}
			r := ntriples.NewQuadReader(bytes.NewReader(m.Data()), rdf.ParseOptions{})
			for {
				q, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					n.log.printf("statements from %s: %v (skipped)", m.Subject(), err)
					break
				}
				if err := b.TryAdd(q); err != nil {
					n.log.printf("statement from %s: %v (skipped)", m.Subject(), err)
				}
			}
		}
		if len(msgs) == 0 {
			n.collected.Store(true)
			continue
		}
		n.collected.Store(false)
		if _, err := b.Commit(ctx); err != nil {
			return fmt.Errorf("cluster: committing collected statements: %w", err)
		}
		for _, m := range msgs {
			if err := m.Ack(); err != nil {
				n.log.trouble("acknowledging collected statements", err)
			}
		}
	}
	return nil
}

// Collected says whether the collector found the stream empty at its
// last read.
func (n *Node) Collected() bool { return n.collected.Load() }
