package main

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/analysis/focus/sim"
	"github.com/mneme-archive/mneme/analysis/focus/topicweb"
	"github.com/mneme-archive/mneme/crawler/frontier"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/internal/synthweb"
)

func newSimFocusCmd() *cobra.Command {
	var (
		web      topicweb.Web
		topics   []int
		seeds    int
		pages    int
		updates  []string
		settings []string
		weights  map[string]string
	)
	cmd := &cobra.Command{
		Use:   "focus",
		Short: "Compare focused-crawl update functions and batch settings on a generated topical web",
		Long: `Replay crawls of a generated topical web (package analysis/focus/topicweb:
pages of --topics topics, each linking --out-degree pages, to a page of its
own topic with probability 1 - --noise, else to any page; text drawn from
its topic's vocabulary) with the real frontier, link extractor and focus
analysis, no network, and report the harvest ratio of each setting: the
share of crawled pages whose cosine with the topic exceeds 0.333.

For each topic of --topic, the crawl starts from --seeds pages of that topic,
which are also the topic's example documents (the topic vector is the sum
of their vectors, as in ARCOMEM's evaluation). Settings (--settings) are
bfs (breadth-first: every link scores 0), adaptive:B (B URLs per host queue
in flight, links scored into the frontier after every page) and
batch:B:K (rounds of the B best URLs per host queue; links scored into the
frontier after every K pages). Each focused setting runs with every
update function of --updates.`,
		Example: `  mneme sim focus
  mneme sim focus --pages 2000 --topic 0,1,2 --settings bfs,adaptive:1,adaptive:5,batch:5:5
  mneme sim focus --noise 0.5 --updates AVG,FIRST`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := topicweb.New(web)
			var ups []frontier.UpdateFunc
			for _, u := range updates {
				f, err := frontier.ParseUpdateFunc(strings.ToUpper(u))
				if err != nil {
					return usageError{fmt.Errorf("--updates: %w", err)}
				}
				ups = append(ups, f)
			}
			type setting struct {
				mode sim.Mode
				b, k int
			}
			var sets []setting
			for _, s := range settings {
				parts := strings.Split(s, ":")
				st := setting{b: 1}
				var err error
				switch {
				case parts[0] == "bfs" && len(parts) == 1:
					st.mode = sim.BreadthFirst
				case parts[0] == "adaptive" && len(parts) == 2:
					st.mode = sim.Adaptive
					st.b, err = strconv.Atoi(parts[1])
				case parts[0] == "batch" && len(parts) == 3:
					st.mode = sim.Batch
					st.b, err = strconv.Atoi(parts[1])
					if err == nil {
						st.k, err = strconv.Atoi(parts[2])
					}
				default:
					err = fmt.Errorf("want bfs, adaptive:B or batch:B:K")
				}
				if err != nil || st.b < 1 || st.mode == sim.Batch && st.k < 1 {
					return usagef("--settings: %q: want bfs, adaptive:B or batch:B:K with B, K ≥ 1", s)
				}
				sets = append(sets, st)
			}
			wts := map[string]float64{}
			for m, v := range weights {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return usagef("--weights %s=%s: not a number", m, v)
				}
				wts[m] = x
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "topical web: %d pages, %d topics, out-degree %d, noise %.2f, %d hosts; %d pages per crawl from %d seeds\n\n",
				w.Pages, w.Topics, w.OutDegree, w.Noise, w.Hosts, pages, seeds)
			head := []string{"setting", "update"}
			for _, t := range topics {
				head = append(head, fmt.Sprintf("topic %d", t))
			}
			tab := newColumns(out, tableLayout{}, append(head, "mean"))
			for _, st := range sets {
				us := ups
				if st.mode == sim.BreadthFirst {
					us = []frontier.UpdateFunc{frontier.UpdateFirst}
				}
				for _, u := range us {
					name := string(st.mode)
					switch st.mode {
					case sim.Adaptive:
						name += fmt.Sprintf(" b=%d", st.b)
					case sim.Batch:
						name += fmt.Sprintf(" b=%d k=%d", st.b, st.k)
					}
					upd := u.String()
					if st.mode == sim.BreadthFirst {
						upd = "-"
					}
					row := []string{name, upd}
					sum := 0.0
					for _, t := range topics {
						if t < 0 || t >= w.Topics {
							return usagef("--topic %d: the web has topics 0 to %d", t, w.Topics-1)
						}
						var seedURLs []string
						for _, i := range w.Seeds(t, seeds) {
							seedURLs = append(seedURLs, w.URL("http://topicweb.test", i))
						}
						f := &spec.Focus{Languages: []string{"en"}, Examples: seedURLs}
						if len(wts) > 0 {
							f.Weights = wts
						}
						res, err := sim.Run(cmd.Context(), sim.Config{Graph: w, Seeds: seedURLs, Focus: f, Update: u, Mode: st.mode, B: st.b, K: st.k, Pages: pages})
						if err != nil {
							return err
						}
						row = append(row, fmt.Sprintf("%.3f", res.Ratio))
						sum += res.Ratio
					}
					tab.row(append(row, fmt.Sprintf("%.3f", sum/float64(len(topics)))))
				}
			}
			return tab.end()
		},
	}
	f := cmd.Flags()
	f.IntVar(&web.Pages, "web-pages", 20000, "pages of the generated web")
	f.IntVar(&web.Topics, "topics", 10, "topics of the generated web")
	f.IntVar(&web.OutDegree, "out-degree", 10, "links per page")
	f.Float64Var(&web.Noise, "noise", 0.25, "share of links to a page of any topic")
	f.IntVar(&web.Hosts, "hosts", 1, "hosts the pages are spread over")
	f.Uint64Var(&web.Seed, "seed", 1, "random seed of the generated web")
	f.IntSliceVar(&topics, "topic", []int{0, 1, 2}, "topics to crawl for, each from its own seeds")
	f.IntVar(&seeds, "seeds", 5, "seed pages (and example documents) per topic")
	f.IntVar(&pages, "pages", 2000, "pages per simulated crawl")
	f.StringSliceVar(&updates, "updates", []string{"FIRST", "LAST", "MAX", "SUM", "AVG"}, "update functions to compare")
	f.StringSliceVar(&settings, "settings", []string{"bfs", "adaptive:1", "adaptive:5", "batch:5:5"}, "settings: bfs, adaptive:B, batch:B:K")
	f.StringToStringVar(&weights, "weights", nil, "module weights, e.g. document=0.4,paragraph=0.2,anchor=0.3 (default: the spec's defaults)")
	cmd.AddCommand(newSimFocusWebCmd())
	return cmd
}

func newSimFocusWebCmd() *cobra.Command {
	var web topicweb.Web
	var addr string
	var seeds, topic int
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the generated topical web on a loopback address until interrupted",
		Long: `Serve the topical web of mneme sim focus (same flags, same model) over HTTP,
for real focused crawls. The first line printed is the web's root URL; the
next lines are the URLs of --seeds pages of topic --topic.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ln, err := synthweb.Listen(addr)
			if err != nil {
				return usagef("--addr: %v", err)
			}
			w := topicweb.New(web)
			if topic < 0 || topic >= w.Topics {
				return usagef("--topic %d: the web has topics 0 to %d", topic, w.Topics-1)
			}
			srv := &http.Server{Handler: w.Handler(), ReadHeaderTimeout: 10 * time.Second}
			go srv.Serve(ln)
			defer srv.Close()
			base := "http://" + ln.Addr().String()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s/ %d pages, %d topics\n", base, w.Pages, w.Topics)
			for _, i := range w.Seeds(topic, seeds) {
				fmt.Fprintln(out, w.URL(base, i))
			}
			<-cmd.Context().Done()
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	f.IntVar(&web.Pages, "web-pages", 20000, "pages of the generated web")
	f.IntVar(&web.Topics, "topics", 10, "topics of the generated web")
	f.IntVar(&web.OutDegree, "out-degree", 10, "links per page")
	f.Float64Var(&web.Noise, "noise", 0.25, "share of links to a page of any topic")
	f.Uint64Var(&web.Seed, "seed", 1, "random seed of the generated web")
	f.IntVar(&topic, "topic", 0, "topic whose seed pages to print")
	f.IntVar(&seeds, "seeds", 5, "seed pages to print")
	return cmd
}
