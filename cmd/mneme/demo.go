package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/internal/synthweb"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

func newDemoCmd() *cobra.Command {
	var data string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Crawl a built-in demo web (blog, forum, wiki) and query it",
		Long: `Start a small demo web in this process, on 127.0.0.1 only: a blog, a forum
and a wiki about an imaginary valley, with the markup of WordPress, phpBB and
MediaWiki, links between them, paged lists, robots.txt files and crawler
traps. Crawl it into the data folder (WARC files, crawl.log and RDF in the
store) with the application-aware helper, as mneme crawl does: it names each
site's application, follows only the links of the application's navigation
(no tag, author or date archives, print views, wiki histories or diffs) and
stores the posts, comments and wiki articles it extracts. Then print what
was archived and four example SPARQL queries with their answers. Needs no
network.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd.Context(), dataDir(data, ""), cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	cmd.AddCommand(newServeSiteCmd())
	return cmd
}

// demoSpec is the crawl of the demo web: no politeness delays (every seed
// is on loopback) and each seed's whole host in scope. The traps and
// duplicate views of the sites (the blog's endless events calendar, tag
// and date archives, the wiki's histories and diffs, the forum's post
// permalinks) are left to the application-aware helper, whose navigation
// does not lead there.
func demoSpec(d *synthweb.Demo, data string) *spec.Spec {
	s := spec.Default()
	s.ID = "demo-" + time.Now().UTC().Format("20060102-150405")
	s.Seeds = d.Seeds()
	s.Output = data
	s.UserAgent = "mneme/" + crawlVersion() + " (+https://github.com/mneme-archive/mneme)"
	s.Politeness.Off = true
	s.Scope.SeedHosts = true
	// Links are scheduled when their page's batch is committed: short
	// batches keep a small site's frontier fed.
	s.RDF.Interval = spec.Duration(25 * time.Millisecond)
	return s
}

func runDemo(ctx context.Context, data string, stdout, stderr io.Writer) error {
	d, err := synthweb.StartDemo()
	if err != nil {
		return err
	}
	defer d.Close()
	fmt.Fprintf(stdout, "Demo web on 127.0.0.1 (this process only):\n  blog   %s/  (WordPress)\n  forum  %s/  (phpBB)\n  wiki   %s/  (MediaWiki)\n\n", d.Blog, d.Forum, d.Wiki)
	s := demoSpec(d, data)
	st, err := crawler.Layout{Data: data}.OpenStore()
	if err != nil {
		return err
	}
	defer st.Close()
	deps := crawlDeps(st, stderr)
	var ao aahOptions
	h, err := ao.helper(&deps, io.Discard, data)
	if err != nil {
		return err
	}
	defer closeHelper(h, stderr)
	c, err := crawler.New(s, deps)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Crawling into %s (crawl %s): robots.txt obeyed, no politeness delays (loopback),\n", data, s.ID)
	fmt.Fprintf(stdout, "with the application-aware helper: only the links of each application's navigation.\n")
	start := time.Now()
	if err := c.Run(ctx); err != nil {
		return err
	}
	status := c.Status()
	secs := time.Since(start).Seconds()
	warcs, warcBytes, err := warcFiles(crawler.Layout{Data: data}.WARCs(s.ID))
	if err != nil {
		return err
	}
	v := st.Snapshot()
	defer v.Close()
	graphIRI := crawlrdf.CrawlIRI(s.ID)
	triples, err := queryRows(ctx, v, fmt.Sprintf("SELECT (COUNT(*) AS ?n) WHERE { GRAPH <%s> { ?s ?p ?o } }", graphIRI))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nArchived in %.1f s: %d responses (%s), %d links, %d WARC files (%s), %s triples in graph <%s>.\n",
		secs, status.Fetched, humanBytes(status.Bytes), status.Links, warcs, humanBytes(warcBytes), triples[0][0].Value, graphIRI)
	fmt.Fprintf(stdout, "Files: %s (WARC, crawl.log, spec.yaml), store: %s\n", crawler.Layout{Data: data}.Crawl(s.ID), crawler.Layout{Data: data}.Store())
	fmt.Fprintln(stdout, "Applications found by the application-aware helper:")
	if err := printSites(stdout, h); err != nil {
		return err
	}
	for i, q := range demoQueries(d, graphIRI) {
		fmt.Fprintf(stdout, "\n%d. %s\n\n%s\n\n", i+1, q.title, indent(q.text, "    "))
		rows, err := queryRows(ctx, v, demoPrefixes+q.text)
		if err != nil {
			return fmt.Errorf("example query %d: %w", i+1, err)
		}
		if err := writeTable(stdout, &termRows{names: q.vars, rows: rows}, demoTable); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "\nAsk your own with: mneme query --store %s 'SELECT …' (one named graph per crawl).\n", crawler.Layout{Data: data}.Store())
	return nil
}

// demoTable is the layout of the demo's tables: indented under their
// query, headed by the demo's own column names.
var demoTable = tableLayout{indent: "  ", plain: true, none: "(no rows)"}

const demoPrefixes = `PREFIX mneme: <https://w3id.org/mneme#>
PREFIX sioc: <http://rdfs.org/sioc/ns#>
PREFIX sioct: <http://rdfs.org/sioc/types#>
PREFIX schema: <http://schema.org/>
PREFIX dcterms: <http://purl.org/dc/terms/>
`

type demoQuery struct {
	title string
	vars  []string
	text  string
}

// demoQueries are the examples printed after the crawl, over this
// crawl's graph (the demo's ports change from run to run).
func demoQueries(d *synthweb.Demo, g string) []demoQuery {
	sites := fmt.Sprintf(`("blog" "%s/") ("forum" "%s/") ("wiki" "%s/")`, d.Blog, d.Forum, d.Wiki)
	return []demoQuery{{
		title: "HTML pages archived per site, and their size",
		vars:  []string{"site", "pages", "bytes"},
		text: fmt.Sprintf(`SELECT ?site (COUNT(?c) AS ?pages) (SUM(?len) AS ?bytes) WHERE {
  VALUES (?site ?root) { %s }
  GRAPH <%s> {
    ?c a mneme:Capture ; mneme:url ?u ; mneme:httpStatus 200 ;
       mneme:mimeType "text/html" ; mneme:contentLength ?len .
  }
  FILTER(STRSTARTS(STR(?u), ?root))
}
GROUP BY ?site ORDER BY DESC(?pages)`, sites, g),
	}, {
		title: "Wiki articles most cited by blog and forum pages",
		vars:  []string{"article", "citing_pages"},
		text: fmt.Sprintf(`SELECT ?article (COUNT(DISTINCT ?from) AS ?citing_pages) WHERE {
  GRAPH <%s> {
    ?c mneme:linksTo ?article ; mneme:url ?from .
  }
  FILTER(STRSTARTS(STR(?article), "%s/wiki/") && !STRSTARTS(STR(?from), "%s/")
         && ?article != <%s/wiki/Main_Page>)
}
GROUP BY ?article ORDER BY DESC(?citing_pages) ?article LIMIT 5`, g, d.Wiki, d.Wiki, d.Wiki),
	}, {
		title: "Latest blog posts the application-aware helper extracted, with their comments",
		vars:  []string{"title", "author", "date", "comments"},
		text: fmt.Sprintf(`SELECT ?title ?author ?date (COUNT(DISTINCT ?comment) AS ?comments) WHERE {
  GRAPH <%s> {
    ?post a sioct:BlogPost ; dcterms:title ?title ; dcterms:created ?date ;
          sioc:has_creator/sioc:name ?author .
    OPTIONAL { ?comment a sioct:Comment ; sioc:reply_of+ ?post }
  }
}
GROUP BY ?title ?author ?date ORDER BY DESC(?date) LIMIT 5`, g),
	}, {
		title: "What each fetch ended in: HTTP status, or why nothing was fetched",
		vars:  []string{"outcome", "captures"},
		text: fmt.Sprintf(`SELECT ?outcome (COUNT(?c) AS ?captures) WHERE {
  GRAPH <%s> {
    ?c a mneme:Capture .
    OPTIONAL { ?c mneme:httpStatus ?status }
    OPTIONAL { ?c mneme:fetchError ?error }
  }
  BIND(COALESCE(STR(?status), ?error) AS ?outcome)
}
GROUP BY ?outcome ORDER BY DESC(?captures)`, g),
	}}
}

// queryRows runs a SELECT query on v and returns its rows.
func queryRows(ctx context.Context, v *graph.View, text string) ([][]rdf.Term, error) {
	q, err := sparql.Prepare(text, sparql.Options{})
	if err != nil {
		return nil, err
	}
	res, err := q.Exec(ctx, v)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	var rows [][]rdf.Term
	for res.Next() {
		rows = append(rows, append([]rdf.Term(nil), res.Row()...))
	}
	return rows, res.Err()
}

// warcFiles counts the WARC files in dir and their bytes.
func warcFiles(dir string) (n int, size int64, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, 0, err
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".warc") && !strings.HasSuffix(e.Name(), ".cdxj") {
			info, err := e.Info()
			if err != nil {
				return 0, 0, err
			}
			n++
			size += info.Size()
		}
	}
	return n, size, nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// newServeSiteCmd serves a generated big site for benchmarks (hidden: a
// developer's tool, used by scripts/bench-crawl.sh).
func newServeSiteCmd() *cobra.Command {
	var o synthweb.BigOptions
	var addr string
	cmd := &cobra.Command{
		Use:    "serve-site",
		Short:  "Serve a generated site of N pages on a loopback address until interrupted",
		Hidden: true,
		Args:   usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			ln, err := synthweb.Listen(addr)
			if err != nil {
				return usagef("--addr: %v", err)
			}
			site := synthweb.NewBigSite(o)
			srv := synthweb.ServeOn(ln, site)
			defer srv.Close()
			fmt.Fprintf(cmd.OutOrStdout(), "%s/ %d pages, %d URLs\n", srv.URL, site.Options().Pages, site.URLs())
			<-cmd.Context().Done()
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "127.0.0.1:0", "loopback address to listen on (port 0: any free port)")
	f.IntVar(&o.Pages, "pages", 20000, "pages")
	f.IntVar(&o.MinLinks, "min-links", 50, "links per page, at least")
	f.IntVar(&o.MaxLinks, "max-links", 100, "links per page, at most")
	f.IntVar(&o.MinBytes, "min-bytes", 20<<10, "page size, at least")
	f.IntVar(&o.MaxBytes, "max-bytes", 50<<10, "page size, at most")
	return cmd
}
