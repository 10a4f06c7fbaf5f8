package analysis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/analysis/nlp"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Options configure Run.
type Options struct {
	Store *graph.Store
	Crawl string // the crawl's id
	// Data is the data folder, whose WARC files hold the pages of no
	// recognised application, whose main text is analysed too; "" leaves
	// them out.
	Data string
	// Known are entities given by name (an entities file, a crawl's
	// definition): found by the dictionary, resolved to one entity with
	// their aliases, owl:sameAs their IRIs.
	Known []nlp.Known
	// NoStoreNames leaves out the names of people already in the store
	// (foaf:name, and sioc:name of accounts with a first and last name),
	// which the dictionary otherwise finds too.
	NoStoreNames bool
	Batch        int // captures per atomic commit (default 32)
	Workers      int // texts analysed at once (default GOMAXPROCS)
	MaxText      int // bytes of a text analysed (default 1 MiB); the rest is left out with a logged reason
	// TopicRefresh is how many texts with outdated topic terms (marked
	// mneme:awaitsTopicTerms) a run rewrites besides its own: by default
	// four per text whose figures it updates, at least 64, and all of
	// them when it updates none (a run with nothing new); negative: all.
	TopicRefresh int
	// Log receives a line per text skipped or cut short, and per stage.
	Log io.Writer
	// Progress is called after every commit and stage.
	Progress func(Progress)
}

// Progress is how far a run is.
type Progress struct {
	Stage    string        `json:"stage"`    // texts, measures, topics, associations, changes, done
	Captures int           `json:"captures"` // captures with texts not yet analysed when the run started
	Done     int           `json:"done"`     // of them analysed by this run
	Texts    int           `json:"texts"`    // texts analysed
	Skipped  int           `json:"skipped"`  // texts skipped (empty), or cut short
	Bytes    int64         `json:"bytes"`    // of text analysed
	Mentions int           `json:"mentions"` // entity mentions found
	Elapsed  time.Duration `json:"elapsed"`
}

// Report is what a run did.
type Report struct {
	Progress
	Previous    string         // id of the crawl compared against; "" when none was analysed before
	Entities    int            // entities measured in the crawl
	Versions    map[string]int // objects by version status (new, changed, unchanged, deleted)
	NameChanges int            // candidate name changes proposed
	// TopicsPending are the texts whose topic terms are left outdated
	// for a later run (see Options.TopicRefresh).
	TopicsPending int
	Updated       Updated // the crawl-wide figures written anew
	Stages        []StageTime
}

// topicBudget is how many texts of the queue of outdated topic terms a
// run rewrites besides its own, when dirty objects await figures and own
// texts are theirs (-1: all); see Options.TopicRefresh.
func (r *run) topicBudget(dirty, own int) int {
	switch {
	case r.o.TopicRefresh != 0:
		return max(r.o.TopicRefresh, -1)
	case dirty == 0:
		return -1
	}
	return max(4*own, 64)
}

// Updated counts the crawl-wide figures a run wrote anew: those the texts
// it analysed (or an interrupted run before it) can change.
type Updated struct {
	Entities int // measures and associations
	Texts    int // topic terms
	Versions int // object versions
}

// StageTime is the duration of one stage of a run.
type StageTime struct {
	Stage   string
	Elapsed time.Duration
}

// ErrNoCrawl is returned for a crawl with no graph in the store.
var ErrNoCrawl = errors.New("no such crawl in the store")

// Run analyses the texts of a crawl not yet analysed and recomputes the
// crawl's figures (measures, topics, associations, changes against the
// crawl analysed before).
func Run(ctx context.Context, o Options) (*Report, error) {
	if o.Batch <= 0 {
		o.Batch = 32
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	start := time.Now()
	r := &run{o: o, id: o.Crawl, crawl: rdf.IRI(CrawlIRI(o.Crawl)), graph: rdf.IRI(GraphIRI(o.Crawl)), rep: &Report{}}
	r.rep.Stage = "texts"
	v := o.Store.Snapshot()
	defer v.Close()
	if _, ok, err := v.Lookup(r.crawl); err != nil {
		return nil, err
	} else if !ok {
		return nil, fmt.Errorf("crawl %s: %w", o.Crawl, ErrNoCrawl)
	}
	known := o.Known
	if !o.NoStoreNames {
		names, err := storeNames(ctx, v)
		if err != nil {
			return nil, err
		}
		known = append(append([]nlp.Known(nil), known...), names...)
	}
	r.dict = nlp.NewDictionary(known)
	b := o.Store.NewBatch()
	add := func(s rdf.Term, p string, obj rdf.Term) { b.Add(rdf.Quad{S: s, P: rdf.IRI(p), O: obj, G: r.graph}) }
	add(r.graph, rdf.RDFType, rdf.IRI(ontology.Analysis))
	add(r.graph, rdf.RDFType, rdf.IRI(ontology.ProvActivity))
	add(r.graph, ontology.AnalysedCrawl, r.crawl)
	if _, err := b.Commit(ctx); err != nil {
		return nil, err
	}
	stage := time.Now()
	if err := r.texts(ctx, v); err != nil {
		return r.rep, err
	}
	r.rep.Stages = append(r.rep.Stages, StageTime{"texts", time.Since(stage)})
	if err := r.finish(ctx); err != nil {
		return r.rep, err
	}
	r.rep.Stage = "done"
	r.rep.Elapsed = time.Since(start)
	r.progress()
	return r.rep, nil
}

// run is the state of one Run.
type run struct {
	o     Options
	id    string
	crawl rdf.Term // the crawl's IRI and graph
	graph rdf.Term // the analysis's IRI and graph
	dict  *nlp.Dictionary
	rep   *Report
}

func (r *run) progress() {
	if r.o.Progress != nil {
		r.o.Progress(r.rep.Progress)
	}
}

func (r *run) logf(format string, args ...any) {
	fmt.Fprintf(r.o.Log, "analysis %s: "+format+"\n", append([]any{r.id}, args...)...)
}

// text is one object's text to analyse.
type text struct {
	object, capture string
	content         string
	res             nlp.Result
}

// ids are the store IDs of the terms the scans of the crawl's graph
// name.
type ids struct {
	crawl, graph, derived, content, marker graph.ID
}

// texts analyses the texts of the captures not yet analysed, a batch of
// captures per commit.
func (r *run) texts(ctx context.Context, v *graph.View) error {
	var id ids
	terms := []rdf.Term{r.crawl, r.graph, rdf.IRI(ontology.ProvWasDerivedFrom), rdf.IRI(ontology.SIOCContent), rdf.IRI(ontology.AnalysedBy)}
	got, err := v.LookupTerms(terms)
	if err != nil {
		return err
	}
	id.crawl, id.graph, id.derived, id.content, id.marker = got[0], got[1], got[2], got[3], got[4]
	type item struct {
		c    graph.ID
		page bool
	}
	var items []item
	if id.derived != graph.Any && id.content != graph.Any {
		pending, err := r.pending(ctx, v, id)
		if err != nil {
			return err
		}
		for _, c := range pending {
			items = append(items, item{c, false})
		}
	}
	var pids *pageIDs
	if r.o.Data != "" {
		pages, p, err := r.plainPages(ctx, v, id)
		if err != nil {
			return err
		}
		pids = p
		for _, c := range pages {
			items = append(items, item{c, true})
		}
	}
	r.rep.Captures = len(items)
	r.progress()
	t0 := time.Now()
	workers := make([]*nlp.Analyzer, r.o.Workers)
	for i := range workers {
		workers[i] = nlp.NewAnalyzer(r.dict, nlp.Options{MaxText: r.o.MaxText})
	}
	// Three stages overlap: a goroutine reads the next batch of captures
	// while the workers analyse this one, and the previous batch commits
	// (a synced write) meanwhile. Commits stay in order, each with its
	// captures' markers, so a killed run resumes after the last one.
	type read struct {
		caps  []rdf.Term
		texts []*text
		objs  []rdf.Term // every object derived from caps, read or not
		hi    int
		err   error
	}
	rctx, stop := context.WithCancel(ctx)
	reads := make(chan read, 1)
	defer func() { // the reader is done with the view before it closes
		stop()
		for range reads {
		}
	}()
	go func() {
		defer close(reads)
		for lo := 0; lo < len(items); lo += r.o.Batch {
			hi := min(lo+r.o.Batch, len(items))
			rd := read{hi: hi}
			for _, it := range items[lo:hi] {
				var capt rdf.Term
				var ts []*text
				var objs []rdf.Term
				if it.page {
					var t *text
					if capt, t, rd.err = r.readPage(rctx, v, pids, it.c); t != nil {
						ts, objs = []*text{t}, []rdf.Term{rdf.IRI(t.object)}
					}
				} else {
					capt, ts, objs, rd.err = r.read(rctx, v, id, it.c)
				}
				if rd.err != nil {
					break
				}
				rd.caps = append(rd.caps, capt)
				rd.texts = append(rd.texts, ts...)
				rd.objs = append(rd.objs, objs...)
			}
			select {
			case reads <- rd:
			case <-rctx.Done():
				return
			}
			if rd.err != nil {
				return
			}
		}
	}()
	var committing chan error
	done := 0
	wait := func() error {
		if committing == nil {
			return nil
		}
		err := <-committing
		committing = nil
		if err == nil {
			r.rep.Done = done
			r.rep.Elapsed = time.Since(t0)
			r.progress()
		}
		return err
	}
	for rd := range reads {
		if rd.err == nil {
			rd.err = ctx.Err()
		}
		if rd.err != nil {
			wait()
			return rd.err
		}
		analyse(rd.texts, workers)
		b := r.o.Store.NewBatch()
		for _, t := range rd.texts {
			r.write(b, t)
		}
		for _, c := range rd.caps {
			b.Add(rdf.Quad{S: c, P: rdf.IRI(ontology.AnalysedBy), O: r.graph, G: r.graph})
		}
		// The objects of these captures, read now or before through
		// another capture (whose version may change with this one's
		// text), are the ones whose figures the next finish updates.
		for _, o := range rd.objs {
			b.Add(rdf.Quad{S: o, P: rdf.IRI(ontology.AwaitsFigures), O: r.graph, G: r.graph})
		}
		if err := wait(); err != nil {
			return err
		}
		committing, done = make(chan error, 1), rd.hi
		go func(c chan error) {
			_, err := b.Commit(ctx)
			c <- err
		}(committing)
	}
	return wait()
}

// pending lists the captures of the crawl from which objects were
// derived and that the analysis has not read, in the store's order: the
// crawl's captures and the analysis's markers, both read in the order of
// their IDs, merged (two sequential reads, no look-up per capture).
func (r *run) pending(ctx context.Context, v *graph.View, id ids) ([]graph.ID, error) {
	it, err := v.Scan(ctx, graph.Pattern{P: id.derived, G: id.crawl}, graph.ScanOptions{Order: graph.GPOS})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	done := graph.Pattern{S: graph.Any, P: id.marker, O: id.graph, G: id.graph}
	var marks *graph.QuadIter
	if id.marker != graph.Any && id.graph != graph.Any {
		if marks, err = v.Scan(ctx, done, graph.ScanOptions{Order: graph.GPOS}); err != nil {
			return nil, err
		}
		defer marks.Close()
	}
	marked := marks != nil && marks.Next()
	var out []graph.ID
	last := graph.Any
	for it.Next() {
		c := it.Quad().O
		if c == last {
			continue
		}
		last = c
		for marked && marks.Quad().S < c {
			marked = marks.Next()
		}
		if !marked || marks.Quad().S != c {
			out = append(out, c)
		}
	}
	if marks != nil {
		if err := marks.Err(); err != nil {
			return nil, err
		}
	}
	return out, it.Err()
}

// has reports whether a quad matches p.
func has(ctx context.Context, v *graph.View, p graph.Pattern) (bool, error) {
	it, err := v.Scan(ctx, p, graph.ScanOptions{})
	if err != nil {
		return false, err
	}
	defer it.Close()
	ok := it.Next()
	return ok, it.Err()
}

// objects returns the values (IDs) of the quads matching p at position
// pos (0 S, 2 O).
func values(ctx context.Context, v *graph.View, p graph.Pattern, object bool) ([]graph.ID, error) {
	it, err := v.Scan(ctx, p, graph.ScanOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []graph.ID
	for it.Next() {
		if object {
			out = append(out, it.Quad().O)
		} else {
			out = append(out, it.Quad().S)
		}
	}
	return out, it.Err()
}

// read returns the texts of the objects derived from capture c: each
// object's sioc:content, read with the first of its captures by IRI (a
// post on two pages of comments is read once); and all those objects.
func (r *run) read(ctx context.Context, v *graph.View, id ids, c graph.ID) (capt rdf.Term, out []*text, all []rdf.Term, err error) {
	capt, err = v.Term(c)
	if err != nil {
		return capt, nil, nil, err
	}
	objs, err := values(ctx, v, graph.Pattern{P: id.derived, O: c, G: id.crawl}, false)
	if err != nil {
		return capt, nil, nil, err
	}
	if all, err = v.Terms(ctx, objs, nil); err != nil {
		return capt, nil, nil, err
	}
	for _, obj := range objs {
		caps, err := values(ctx, v, graph.Pattern{S: obj, P: id.derived, G: id.crawl}, true)
		if err != nil {
			return capt, nil, nil, err
		}
		first := true
		for _, other := range caps {
			if other == c {
				continue
			}
			t, err := v.Term(other)
			if err != nil {
				return capt, nil, nil, err
			}
			if t.Value < capt.Value {
				first = false
				break
			}
		}
		if !first {
			continue
		}
		contents, err := values(ctx, v, graph.Pattern{S: obj, P: id.content, G: id.crawl}, true)
		if err != nil || len(contents) == 0 {
			if err != nil {
				return capt, nil, nil, err
			}
			continue
		}
		ts, err := v.Terms(ctx, append(contents, obj), nil)
		if err != nil {
			return capt, nil, nil, err
		}
		content := ts[0].Value
		for _, t := range ts[1 : len(ts)-1] {
			if t.Value < content {
				content = t.Value
			}
		}
		out = append(out, &text{object: ts[len(ts)-1].Value, capture: capt.Value, content: content})
	}
	return capt, out, all, nil
}

// analyse runs the analyzers on the texts, one goroutine per analyzer.
func analyse(ts []*text, workers []*nlp.Analyzer) {
	var wg sync.WaitGroup
	next := make(chan *text)
	for _, a := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for t := range next {
				t.res = a.Analyze(t.content)
			}
		}()
	}
	for _, t := range ts {
		next <- t
	}
	close(next)
	wg.Wait()
}

// typeClass is the schema.org class of an nlp entity type.
var typeClass = map[string]string{
	nlp.Person: ontology.SchemaPerson, nlp.Place: ontology.SchemaPlace,
	nlp.Organization: ontology.SchemaOrganization, nlp.Thing: ontology.SchemaThing,
}

// write adds the results of one text to b.
func (r *run) write(b *graph.Batch, t *text) {
	g := r.graph
	add := func(s rdf.Term, p string, o rdf.Term) { b.Add(rdf.Quad{S: s, P: rdf.IRI(p), O: o, G: g}) }
	obj, capt := rdf.IRI(t.object), rdf.IRI(t.capture)
	res := t.res
	r.rep.Texts++
	r.rep.Bytes += int64(len(t.content))
	for _, n := range res.Notes {
		r.logf("%s: %s", t.object, n)
		add(obj, ontology.SkipReason, rdf.String(n))
	}
	if len(res.Notes) > 0 {
		r.rep.Skipped++
	}
	add(obj, ontology.TextLength, integer(len([]rune(t.content))))
	if res.Language != "" {
		add(obj, ontology.DCTermsLanguage, rdf.String(res.Language))
	}
	if len(res.Terms) > 0 {
		var sb strings.Builder
		for i, tc := range res.Terms {
			if i > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(tc.Term + ":" + strconv.Itoa(tc.Count))
		}
		add(obj, ontology.TermCounts, rdf.String(sb.String()))
	}
	described := map[string]bool{}
	for _, m := range res.Mentions {
		r.rep.Mentions++
		e := rdf.IRI(EntityIRI(m.Key))
		if !described[m.Key] {
			described[m.Key] = true
			add(e, rdf.RDFType, rdf.IRI(ontology.Entity))
			add(e, rdf.RDFType, rdf.IRI(typeClass[m.Type]))
			if k, ok := r.dict.Entry(m.Key); ok {
				add(e, ontology.RDFSLabel, rdf.String(k.Name))
				for _, a := range k.Aliases {
					add(e, ontology.Alias, rdf.String(a))
				}
				for _, s := range k.SameAs {
					add(e, ontology.OWLSameAs, rdf.IRI(s))
				}
			}
			add(obj, ontology.SchemaMentions, e)
		}
		name := nlp.Display(m.Surface)
		k, known := r.dict.Entry(m.Key)
		switch {
		case name == "":
		case known && name != k.Name:
			add(e, ontology.Alias, rdf.String(name))
		case !known && nlp.Key(name) == m.Key:
			add(e, ontology.RDFSLabel, rdf.String(name))
		case !known:
			add(e, ontology.Alias, rdf.String(name))
		}
		mn := node(r.id, "mention", t.object, strconv.Itoa(m.Start), strconv.Itoa(m.End))
		add(mn, rdf.RDFType, rdf.IRI(ontology.Mention))
		add(mn, ontology.MentionOf, e)
		add(mn, ontology.InObject, obj)
		add(mn, ontology.ProvWasDerivedFrom, capt)
		add(mn, ontology.SurfaceForm, rdf.String(m.Surface))
		add(mn, ontology.StartOffset, integer(m.Start))
		add(mn, ontology.EndOffset, integer(m.End))
		add(mn, ontology.Sentence, rdf.String(m.Sentence))
		add(mn, ontology.DetectedBy, rdf.String(m.By))
		if m.HasSentiment {
			add(mn, ontology.Sentiment, decimal(m.Compound))
			add(mn, ontology.PositiveScore, decimal(m.Positive))
			add(mn, ontology.NegativeScore, decimal(m.Negative))
		}
	}
}

func integer(n int) rdf.Term { return rdf.Literal(strconv.Itoa(n), rdf.XSDInteger) }

// decimal writes x with four decimals, so that a rerun writes the same
// literal.
func decimal(x float64) rdf.Term {
	s := strconv.FormatFloat(x, 'f', 4, 64)
	if s == "-0.0000" {
		s = "0.0000"
	}
	return rdf.Literal(s, rdf.XSDDecimal)
}
