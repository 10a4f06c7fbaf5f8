package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/control/cluster"
	"github.com/mneme-archive/mneme/crawler"
)

// clusterOptions say how mneme cluster reaches a cluster: through the
// control API of one of its nodes, or straight through NATS.
type clusterOptions struct {
	connect, token, data string
	nats, id             string
	wait                 time.Duration
}

func newClusterCmd() *cobra.Command {
	var o clusterOptions
	cmd := &cobra.Command{
		Use:   "cluster pause|resume|status",
		Short: "Pause, resume or show a crawl run by crawler nodes (mneme node), in the whole cluster",
		Long: `Steer a crawl run by a cluster of crawler nodes from anywhere: pause stops
fetching on every node (the fetches under way finish and are committed,
nothing is lost) and returns once every live node follows with nothing left
in flight; resume restarts every node. The pause is a key of the cluster's
NATS server that every node watches: a node that joins while the crawl is
paused, or is restarted, starts paused.

Reach the cluster through the control API of a node:
  --data DIR        the data folder of a node on this machine (its address
                    and token are noted there; the default)
  --connect URL     a node's control API (the address it prints), with
                    --token (default: DIR/token)
or straight through NATS, without any node's API:
  --cluster URL --id ID   the cluster's NATS URL(s) and the crawl's id`,
		Example: `  mneme cluster pause --data n1
  mneme cluster resume --connect http://127.0.0.1:40321 --token $(cat n2/token)
  mneme cluster status --cluster nats://nats1:4222 --id crawl-2026-11`,
	}
	pf := cmd.PersistentFlags()
	pf.StringVar(&o.data, "data", "", "data folder of a node of this machine (default: $MNEME_DATA, else ./mneme-data)")
	pf.StringVar(&o.connect, "connect", "", "control API of a node (the address it prints)")
	pf.StringVar(&o.token, "token", "", "bearer token of the node's control API (default: DIR/token)")
	pf.StringVar(&o.nats, "cluster", "", "NATS URL(s) of the cluster: steer it without a node's API (with --id)")
	pf.StringVar(&o.id, "id", "", "with --cluster: the crawl's id")
	for _, action := range []string{"pause", "resume"} {
		c := &cobra.Command{
			Use:   action,
			Short: map[string]string{"pause": "Pause the crawl on every node; wait until none fetches", "resume": "Resume the crawl on every node"}[action],
			Args:  usageArgs(cobra.NoArgs),
			RunE: func(cmd *cobra.Command, _ []string) error {
				return o.pause(cmd.Context(), cmd.OutOrStdout(), action == "pause")
			},
		}
		c.Flags().DurationVar(&o.wait, "wait", time.Minute, "how long to wait for every node to follow (0: do not wait)")
		cmd.AddCommand(c)
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "status",
		Short: "The crawl's pause and each node's state",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return o.status(cmd.Context(), cmd.OutOrStdout())
		},
	})
	return cmd
}

// client is the control API of the node given by --connect or --data.
func (o *clusterOptions) client() (*api.Client, error) {
	dir := dataDir(o.data, "")
	base := o.connect
	if base == "" {
		u, ok := servedURL(crawler.Layout{Data: dir}.Store())
		if !ok {
			return nil, fmt.Errorf("no node runs on data folder %s (it notes its address there while it runs); give --data of a running node, --connect URL, or --cluster URL --id ID", dir)
		}
		base = strings.TrimSuffix(u, "/sparql")
	}
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return nil, usagef("--connect %q: want an http:// URL with a host", base)
	}
	tok := o.token
	if tok == "" {
		b, err := os.ReadFile(crawler.Layout{Data: dir}.Token())
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		tok = strings.TrimSpace(string(b))
	}
	return &api.Client{Base: u.Scheme + "://" + u.Host, Token: tok}, nil
}

// pauser reaches the crawl's pause straight through NATS (--cluster).
func (o *clusterOptions) pauser(ctx context.Context, log io.Writer) (*cluster.Pauser, func(), error) {
	if err := checkNATSURLs(o.nats); err != nil {
		return nil, nil, err
	}
	if o.id == "" {
		return nil, nil, usagef("--cluster: give the crawl's --id too")
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	nc, err := connectNATS(ctx, o.nats, log)
	if err != nil {
		return nil, nil, err
	}
	p, err := cluster.NewPauser(ctx, nc, o.id)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return p, nc.Close, nil
}

// reach runs one action on the crawl's pause, straight through NATS
// (--cluster) or through a node's API, and returns what the cluster
// said: the crawl, its pause and its live nodes.
func (o *clusterOptions) reach(ctx context.Context, viaNATS func(*cluster.Pauser) (api.Pause, []api.Node, error), viaAPI func(*api.Client) (api.Cluster, error)) (string, api.Pause, []api.Node, error) {
	if o.nats != "" {
		p, done, err := o.pauser(ctx, os.Stderr)
		if err != nil {
			return "", api.Pause{}, nil, err
		}
		defer done()
		v, nodes, err := viaNATS(p)
		return o.id, v, nodes, err
	}
	c, err := o.client()
	if err != nil {
		return "", api.Pause{}, nil, err
	}
	cl, err := viaAPI(c)
	if ae := (*api.APIError)(nil); errors.As(err, &ae) {
		err = errors.New(ae.Message)
	}
	return cl.Crawl, cl.Pause, cl.Nodes, err
}

func (o *clusterOptions) pause(ctx context.Context, out io.Writer, paused bool) error {
	if o.wait < 0 {
		return usagef("--wait %v: give a duration, or 0 not to wait", o.wait)
	}
	crawl, v, nodes, err := o.reach(ctx, func(p *cluster.Pauser) (api.Pause, []api.Node, error) {
		host, _ := os.Hostname()
		v, err := p.Set(ctx, paused, "mneme cluster on "+host)
		if err != nil {
			return v, nil, err
		}
		if o.wait == 0 {
			nodes, err := p.Nodes(ctx)
			return v, nodes, err
		}
		wctx, cancel := context.WithTimeout(ctx, o.wait)
		defer cancel()
		nodes, err := p.Wait(wctx, v)
		return v, nodes, err
	}, func(c *api.Client) (api.Cluster, error) {
		return c.ClusterPause(ctx, paused, o.wait)
	})
	if err != nil {
		return err
	}
	what := "resumed: every live node claims URLs again"
	if paused {
		what = "paused: no node fetches until it is resumed"
	}
	if o.wait == 0 {
		what = "set; not waiting for the nodes to follow"
	}
	fmt.Fprintf(out, "crawl %s %s (%s)\n", crawl, what, v)
	writeNodes(out, nodes)
	return nil
}

func (o *clusterOptions) status(ctx context.Context, out io.Writer) error {
	crawl, v, nodes, err := o.reach(ctx, func(p *cluster.Pauser) (api.Pause, []api.Node, error) {
		v, err := p.Get(ctx)
		if err != nil {
			return v, nil, err
		}
		nodes, err := p.Nodes(ctx)
		return v, nodes, err
	}, func(c *api.Client) (api.Cluster, error) {
		return c.ClusterStatus(ctx)
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "crawl %s: %s\n", crawl, v)
	writeNodes(out, nodes)
	return nil
}

// nodeState is a node's crawl as its heartbeat tells it.
func nodeState(n api.Node) string {
	switch {
	case n.Leaving:
		return "leaving"
	case n.PausedHere:
		return "paused (its own pause)"
	case n.Paused && n.InFlight > 0:
		return "pausing"
	case n.Paused:
		return "paused"
	case n.Idle:
		return "running, idle"
	}
	return "running"
}

func writeNodes(out io.Writer, nodes []api.Node) {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "node\tstate\tin flight\tqueued\tfetched")
	for _, n := range nodes {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\n", n.Name, nodeState(n), n.InFlight, n.Queued, n.Fetched)
	}
	tw.Flush()
}
