package cluster

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
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

// Collect commits the statements the nodes send into st until ctx ends.
// Statements this node's crawl wrote itself are in st already and only
// acknowledged. Run it on one node of the cluster, or run a Collector.
func (n *Node) Collect(ctx context.Context, st *graph.Store) error {
	c := &Collector{js: n.js, token: n.token, self: n.cfg.Name, log: n.log}
	return c.Run(ctx, st)
}

// Collector takes the statements of a crawl's nodes into a store without
// being a node itself: the store's daemon.
type Collector struct {
	js    jetstream.JetStream
	token string
	self  string // the node whose statements st holds already ("" none)
	log   *logger
}

// NewCollector collects the statements of crawl into a store, reporting
// NATS trouble on log.
func NewCollector(conn *nats.Conn, crawl string, log io.Writer) (*Collector, error) {
	js, err := jetstream.New(conn)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = io.Discard
	}
	return &Collector{js: js, token: Token(crawl), log: &logger{w: log}}, nil
}

// Pending is the number of statement messages not yet committed.
func (c *Collector) Pending(ctx context.Context) (uint64, error) {
	s, err := c.js.Stream(ctx, "MNEME_RDF_"+c.token)
	if err != nil {
		return 0, err
	}
	info, err := s.Info(ctx)
	if err != nil {
		return 0, err
	}
	return info.State.Msgs, nil
}

// Run commits the statements into st until ctx ends. The crawl's first
// node creates their stream: run it once a node has joined.
func (c *Collector) Run(ctx context.Context, st *graph.Store) error {
	cons, err := c.js.CreateOrUpdateConsumer(ctx, "MNEME_RDF_"+c.token, jetstream.ConsumerConfig{
		Durable: "store", FilterSubject: "mneme.rdf." + c.token + ".*", AckPolicy: jetstream.AckExplicitPolicy,
		AckWait: 30 * time.Second, MaxAckPending: 64,
	})
	if err != nil {
		return fmt.Errorf("cluster: the store's consumer: %w", err)
	}
	for ctx.Err() == nil {
		msgs, err := fetch(ctx, cons, 16, 500*time.Millisecond)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			c.log.trouble("reading statements for the store", err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		b := st.NewBatch()
		for _, m := range msgs {
			if c.self != "" && strings.HasSuffix(m.Subject(), "."+c.self) {
				continue
			}
			r := ntriples.NewQuadReader(bytes.NewReader(m.Data()), rdf.ParseOptions{})
			for {
				q, err := r.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					c.log.printf("statements from %s: %v (skipped)", m.Subject(), err)
					break
				}
				if err := b.TryAdd(q); err != nil {
					c.log.printf("statement from %s: %v (skipped)", m.Subject(), err)
				}
			}
		}
		if len(msgs) == 0 {
			continue
		}
		if _, err := b.Commit(ctx); err != nil {
			return fmt.Errorf("cluster: committing collected statements: %w", err)
		}
		for _, m := range msgs {
			if err := m.Ack(); err != nil {
				c.log.trouble("acknowledging collected statements", err)
			}
		}
	}
	return nil
}
