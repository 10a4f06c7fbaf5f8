package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/analysis"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/graph"
)

func newAnalyzeCmd() *cobra.Command {
	var data, entities string
	var o analysis.Options
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "analyze --crawl ID [--data DIR] [--entities FILE]",
		Short: "Find the entities, opinions and topics of a crawl's texts, and what changed since the crawl before",
		Long: `Analyse the texts of a crawl: the posts, comments and wiki pages the
application-aware crawl extracted (sioc:content). For each text: its
language, the entities it mentions (persons and places found by prose's
English model, runs of proper nouns, the names of --entities and the
people named in the store), each mention with its offsets, sentence and the
sentence's sentiment (VADER), and its terms. Then for the crawl: topic
terms of every text (TF-IDF), the measures of every entity (popularity,
attitude, sentimentality, controversiality, connectedness), its
associations, and against the crawl analysed before it the versions of
every object (new, changed, unchanged, deleted) and candidate name changes
with their evidence.

Results go into the graph urn:mneme:analysis:ID of the data folder's store;
docs/analysis.md describes it and the SPARQL queries to ask. The analysis
is incremental: a second run reads only the captures the first did not,
and a run killed at any moment continues where it stopped when run again.
Texts that cannot be analysed (empty, not valid UTF-8, longer than
--max-text) are skipped or cut short with the reason logged.

The store must not be open in another process: while mneme serve --data
holds it, start the analysis through the control API instead
(POST /api/analyses {"crawl": "ID"}).

--entities names known entities (YAML):

  entities:
    - name: Northwind Trading
      type: organization          # person, place, organization or thing
      aliases: [Northwind]
      same-as: [https://www.wikidata.org/entity/Q123]`,
		Example: `  mneme analyze --crawl crawl-20261121-083000
  mneme analyze --data ./mneme-data --crawl second --entities entities.yaml --json`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Crawl == "" {
				return usagef("--crawl is required")
			}
			if entities != "" {
				known, err := analysis.LoadEntities(entities)
				if err != nil {
					return err
				}
				o.Known = known
			}
			dir := dataDir(data, "")
			st, err := graph.Open(crawler.Layout{Data: dir}.Store(), graph.OpenOptions{})
			if errors.Is(err, graph.ErrLocked) {
				return fmt.Errorf("%w: a server holds the store of %s; start the analysis through its control API (POST /api/analyses)", err, dir)
			}
			if err != nil {
				return err
			}
			defer st.Close()
			o.Store, o.Data = st, dir
			o.Log = cmd.ErrOrStderr()
			last := time.Now()
			o.Progress = func(p analysis.Progress) {
				if time.Since(last) < 2*time.Second && p.Stage == "texts" && p.Done < p.Captures {
					return
				}
				last = time.Now()
				fmt.Fprintf(cmd.ErrOrStderr(), "analysis %s: %s: %d/%d captures, %d texts, %d mentions\n", o.Crawl, p.Stage, p.Done, p.Captures, p.Texts, p.Mentions)
			}
			rep, err := analysis.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "analysis %s: %d texts (%s) of %d captures in %s, %d mentions of %d entities",
				o.Crawl, rep.Texts, humanBytes(rep.Bytes), rep.Captures, rep.Elapsed.Round(time.Millisecond), rep.Mentions, rep.Entities)
			if rep.Skipped > 0 {
				fmt.Fprintf(out, ", %d texts skipped or cut short", rep.Skipped)
			}
			fmt.Fprintln(out)
			if rep.Previous != "" {
				fmt.Fprintf(out, "against %s: %d new, %d changed, %d unchanged, %d deleted objects; %d candidate name changes\n",
					rep.Previous, rep.Versions["New"], rep.Versions["Changed"], rep.Versions["Unchanged"], rep.Versions["Deleted"], rep.NameChanges)
			}
			if rep.TopicsPending > 0 {
				fmt.Fprintf(out, "%d texts' topic terms are outdated (marked mneme:awaitsTopicTerms); a run with nothing new rewrites them\n", rep.TopicsPending)
			}
			fmt.Fprintf(out, "graph %s\n", analysis.GraphIRI(o.Crawl))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Crawl, "crawl", "", "id of the crawl to analyse (required)")
	f.StringVar(&data, "data", "", "data folder (default: $MNEME_DATA, else ./mneme-data)")
	f.StringVar(&entities, "entities", "", "YAML file of known entities, their aliases and same-as IRIs")
	f.BoolVar(&o.NoStoreNames, "no-store-names", false, "do not look for the names of people the store knows")
	f.IntVar(&o.Workers, "workers", 0, "texts analysed at once (default: the number of CPUs)")
	f.IntVar(&o.TopicRefresh, "topic-refresh", 0, "texts with outdated topic terms rewritten besides the run's own (default: 4 per new text, at least 64, all when nothing is new; -1: all)")
	f.IntVar(&o.Batch, "batch", 32, "captures per atomic commit")
	f.IntVar(&o.MaxText, "max-text", 1<<20, "bytes of a text analysed; the rest is left out with a logged reason")
	f.BoolVar(&asJSON, "json", false, "write the report as JSON")
	return cmd
}
