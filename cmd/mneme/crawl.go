package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/analysis/focus"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/kb/aah"
)

// crawlOptions are the flags of mneme crawl.
type crawlOptions struct {
	specFile   string
	data       string
	id         string
	politeness string
	workers    int
	maxPages   int64
	userAgent  string
	robots     string
	sitemaps   bool
	api        string
	aah        aahOptions
	cpuProfile string
	memProfile string
	trace      string
}

func newCrawlCmd() *cobra.Command {
	var o crawlOptions
	cmd := &cobra.Command{
		Use:   "crawl [flags] URL...",
		Short: "Crawl web sites into WARC files and the store",
		Long: `Crawl from the seed URLs (and/or those of --spec) into the data folder:
DATA/crawls/ID holds the crawl's spec.yaml, frontier, WARC files and crawl.log,
DATA/store the RDF of every crawl (each in its own named graph). The crawl ends
with a one-line summary; interrupt it with Ctrl-C and continue it with
'mneme crawl resume ID'.

Flags override the spec file, which docs/crawl-spec.md describes field by
field. --politeness off (no delays, for benchmarks and
tests) is refused unless every seed is on a loopback address. --api ADDR
serves the URL injection API (POST /crawls/ID/urls) on a loopback address,
authenticated by the bearer token in DATA/token (created 0600 on first use).

The application-aware helper is on unless --no-aah: on a site whose web
application the knowledge base knows (WordPress, MediaWiki, DokuWiki…) it
follows only the links of the application's navigation actions (no
tag/author/date archives, print views, edit, login or search pages, wiki
history, diffs or special pages), and stores the posts, comments and wiki
pages it extracts in the crawl's graph, each derived from its capture; other
sites get the generic link extractor. The summary names the application of
each site. A spec with "aah: false" is --no-aah. --fingerprints DIR loads Wappalyzer-format fingerprints (e.g.
../shared/data/fingerprints/webappanalyzer) to name applications beyond the
knowledge base (only the technologies that name one, or imply one, are
loaded; "mneme kb detect" lists every technology).

Where a known application's pages no longer match the knowledge base (a
template change), the helper adapts unless --no-adapt: it relaxes the KB's
patterns or, with --relearn-from ID, finds the objects that earlier crawl ID
stored in the new pages; what it learns is kept in DATA/kb/learned.yaml
(see mneme kb learned) and used by later crawls.`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := o.spec(cmd, args)
			if err != nil {
				return err
			}
			if err := checkAPIAddr(o.api); err != nil {
				return err
			}
			stop, err := startCPUProfile(o.cpuProfile)
			if err != nil {
				return err
			}
			defer stop()
			stopTrace, err := startTrace(o.trace)
			if err != nil {
				return err
			}
			defer stopTrace()
			heap, err := newHeapProfile(o.memProfile, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			tuneCrawlGC()
			st, err := crawler.Layout{Data: s.Output}.OpenStore()
			if err != nil {
				return err
			}
			defer st.Close()
			pr := newCrawlProgress(cmd.ErrOrStderr())
			d := crawlDeps(st, pr)
			d.BeforeClose = heap.write
			h, err := o.aah.helper(&d, pr, s.Output)
			if err != nil {
				return errors.Join(err, heap.close())
			}
			defer closeHelper(h, cmd.ErrOrStderr())
			c, err := crawler.New(s, d)
			if err != nil {
				return errors.Join(err, heap.close())
			}
			err = runCrawl(cmd.Context(), c, st, h, s.Output, o.api, cmd.OutOrStdout(), pr)
			return errors.Join(err, heap.close())
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.specFile, "spec", "", "crawl specification (YAML)")
	f.StringVar(&o.data, "data", "", "data folder (default: the spec's output, else $MNEME_DATA, else ./mneme-data)")
	f.StringVar(&o.id, "id", "", "crawl id (default: crawl-DATE-TIME)")
	f.StringVar(&o.politeness, "politeness", "", "\"off\" disables politeness delays (loopback seeds only)")
	f.IntVar(&o.workers, "workers", 0, "concurrent fetches")
	f.Int64Var(&o.maxPages, "max-pages", 0, "stop after this many responses")
	f.StringVar(&o.userAgent, "user-agent", "", "User-Agent with a contact URL, e.g. \"mybot/1.0 (+https://example.org/bot)\"")
	f.StringVar(&o.robots, "robots", "", "obey or ignore robots.txt")
	f.BoolVar(&o.sitemaps, "sitemaps", false, "crawl the URLs of each seed site's sitemaps (/sitemap.xml and those robots.txt declares)")
	f.StringVar(&o.api, "api", "", "serve the URL injection API on this loopback address (e.g. 127.0.0.1:8411)")
	o.aah.flags(f)
	f.StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the crawl to this file (go tool pprof reads it)")
	f.StringVar(&o.memProfile, "memprofile", "", "write a heap profile to this file when the crawl ends, before its stores close (go tool pprof reads it)")
	f.StringVar(&o.trace, "trace", "", "write an execution trace of the crawl to this file (go tool trace reads it)")
	_ = f.MarkHidden("trace") // a developer's tool for finding where the pipeline waits
	cmd.AddCommand(newCrawlResumeCmd(), newCrawlStatusCmd(), newCrawlListCmd())
	return cmd
}

func newCrawlResumeCmd() *cobra.Command {
	var data, api string
	var ao aahOptions
	cmd := &cobra.Command{
		Use:   "resume ID",
		Short: "Continue a stopped or interrupted crawl",
		Long: `Continue crawl ID where it stopped, even after kill -9: WARC files left open
are repaired, captures pointing into their cut-off parts are dropped, and the
URLs that were in flight are fetched again.`,
		Args: usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			data = dataDir(data, "")
			if err := checkAPIAddr(api); err != nil {
				return err
			}
			st, err := crawler.Layout{Data: data}.OpenStore()
			if err != nil {
				return err
			}
			defer st.Close()
			if s, err := spec.Load(crawler.Layout{Data: data}.Spec(args[0])); err == nil && !s.AAH {
				ao.off = true // crawler.Open reports a spec it cannot read
			}
			pr := newCrawlProgress(cmd.ErrOrStderr())
			d := crawlDeps(st, pr)
			h, err := ao.helper(&d, pr, data)
			if err != nil {
				return err
			}
			defer closeHelper(h, cmd.ErrOrStderr())
			c, err := crawler.Open(data, args[0], d)
			if err != nil {
				return err
			}
			return runCrawl(cmd.Context(), c, st, h, data, api, cmd.OutOrStdout(), pr)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.Flags().StringVar(&api, "api", "", "serve the URL injection API on this loopback address")
	ao.flags(cmd.Flags())
	return cmd
}

// spec assembles the specification from the file, the flags and the URLs.
func (o *crawlOptions) spec(cmd *cobra.Command, urls []string) (*spec.Spec, error) {
	s := spec.Default()
	if o.specFile != "" {
		var err error
		if s, err = spec.Load(o.specFile); err != nil {
			return nil, err
		}
	}
	s.Seeds = append(s.Seeds, urls...)
	if len(s.Seeds) == 0 {
		return nil, usagef("no seed URLs: give them as arguments or in --spec")
	}
	if o.id != "" {
		s.ID = o.id
	}
	s.Output = dataDir(o.data, s.Output)
	switch o.politeness {
	case "":
	case "off":
		s.Politeness.Off = true
	case "on":
		s.Politeness.Off = false
	default:
		return nil, usagef("--politeness: %q: want on or off", o.politeness)
	}
	if cmd.Flags().Changed("workers") {
		s.Workers = o.workers
	}
	if cmd.Flags().Changed("max-pages") {
		s.Limits.Pages = o.maxPages
	}
	if o.userAgent != "" {
		s.UserAgent = o.userAgent
	}
	if s.UserAgent == "" {
		s.UserAgent = defaultUserAgent()
	}
	if o.robots != "" {
		s.Robots = o.robots
	}
	if o.sitemaps {
		s.Sitemaps = true
	}
	if o.aah.off {
		s.AAH = false
	}
	o.aah.off = !s.AAH
	return s, nil
}

// crawlGCPercent is the garbage collector's target during mneme crawl,
// unless GOGC sets one: a crawl allocates far more per page (bodies,
// outlinks, statements) than it keeps, and at Go's default of 100 the
// collector took about a sixth of the CPU time of the benchmark crawl
// (docs/benchmarks.md, "Crawling"); 300 saves most of that for about
// 140 MB more heap.
const crawlGCPercent = 300

func tuneCrawlGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(crawlGCPercent)
	}
}

// dataDir picks the data folder: the flag, the spec's, $MNEME_DATA, ./mneme-data.
func dataDir(flag, fromSpec string) string {
	for _, d := range []string{flag, fromSpec, os.Getenv("MNEME_DATA")} {
		if d != "" {
			return d
		}
	}
	return "mneme-data"
}

func crawlDeps(st *graph.Store, log io.Writer) crawler.Deps {
	return crawler.Deps{Store: st, Log: log, Version: crawlVersion(), Focus: focus.Open}
}

// defaultUserAgent is the User-Agent of a spec that gives none.
func defaultUserAgent() string {
	return "mneme/" + crawlVersion() + " (+https://github.com/mneme-archive/mneme)"
}

// crawlVersion is the short version written into WARC and RDF.
func crawlVersion() string {
	if version != "" {
		return version
	}
	return "dev"
}

// runCrawl runs c, serving its store st and its control API while it
// runs (serveCrawl) and the injection API when asked, with its progress
// on stderr, and prints the summary, with the application found on each
// site when h is set, and the crawl's report.
func runCrawl(ctx context.Context, c *crawler.Crawl, st *graph.Store, h *aah.Helper, data, api string, stdout io.Writer, stderr *crawlProgress) error {
	if api != "" {
		stop, err := serveInjection(c, data, api, stderr)
		if err != nil {
			c.Close()
			return err
		}
		defer stop()
	}
	fmt.Fprintf(stderr, "crawl %s: %s\n", c.ID(), c.Dir())
	before := c.Status()
	start := time.Now()
	stderr.start(c)
	stopServing := serveCrawl(st, c, data, stderr)
	err := c.Run(ctx)
	stopServing()
	stderr.stop()
	s := c.Status()
	secs := time.Since(start).Seconds()
	pages := s.Fetched - before.Fetched
	fmt.Fprintf(stdout, "crawl %s %s: %d pages, %d bytes, %.1f s, %.1f pages/s",
		c.ID(), s.State, pages, s.Bytes-before.Bytes, secs, float64(pages)/max(secs, 1e-9))
	if before.Fetched > 0 {
		fmt.Fprintf(stdout, " (%d pages in all runs)", s.Fetched)
	}
	fmt.Fprintln(stdout)
	if perr := printSites(stdout, h); err == nil {
		err = perr
	}
	printFocus(stdout, c)
	if r, rerr := crawler.ReadCrawlReport(data, c.ID()); rerr == nil {
		fmt.Fprintln(stdout)
		r.WriteText(stdout, 10)
		fmt.Fprintf(stdout, "(report in %s)\n", crawler.Layout{Data: data}.Report(c.ID()))
	}
	if errors.Is(err, crawler.ErrSeedsFailed) {
		err = fmt.Errorf("crawl %s: %w; it is stopped: 'mneme crawl resume %s' tries the seeds again", c.ID(), err, c.ID())
	}
	return err
}

// checkAPIAddr accepts an empty --api or a loopback address.
func checkAPIAddr(addr string) error {
	if addr == "" {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("--api %q: %v", addr, err)
	}
	if !spec.IsLoopback(host) {
		return usagef("--api %q: the injection API listens on loopback addresses only", addr)
	}
	return nil
}

// serveInjection serves the injection API for c on addr.
func serveInjection(c *crawler.Crawl, data, addr string, stderr io.Writer) (func(), error) {
	tok, err := inject.LoadToken(crawler.Layout{Data: data}.Token())
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	h := &inject.Handler{Token: tok, Lookup: func(id string) (inject.Target, bool) { return c, id == c.ID() }}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "injection API: %v\n", err)
		}
	}()
	fmt.Fprintf(stderr, "injection API: http://%s/crawls/%s/urls (token in %s)\n", ln.Addr(), c.ID(), crawler.Layout{Data: data}.Token())
	return func() { srv.Close() }, nil
}
