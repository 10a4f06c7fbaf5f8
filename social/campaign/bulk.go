package campaign

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/record"
	"github.com/mneme-archive/mneme/social/socialrdf"
)

// bulkGroup is the group of pages of bulk platforms (platform.Bulk) that
// a run has fetched and not yet committed: their statements, checkpoints
// included, are in a graph.Loader, which the store ingests in one atomic
// step when the group is full or the run turns to anything else. Until
// then nothing of the group is visible, and a crash loses it whole: the
// resumed run starts from the checkpoints committed before, so no post is
// lost or stored twice. A full group is committed by the loader's own
// goroutine while the next one fills (graph.Loader.EndSegment), so that
// sorting and writing one group and decoding and resolving the next take
// a core each; groups are committed in order. The loader holds the
// store's write lock, so every other write of the run commits the groups
// first (flush). A page's statements are resolved to IDs by a goroutine
// of their own while the runner fetches and describes the next page
// (adding), two workers each resolving half of it, so that decoding,
// describing, resolving and committing overlap, and resolving, the
// longest of them, takes both cores when nothing else is to be done.
type bulkGroup struct {
	loader  *graph.Loader
	workers [2]*graph.LoadWorker
	posts   int64
	pages   []bulkPage
	links   []string
	linked  map[string]bool
	// adding receives the outcome of the page being added, nil when none
	// is; added holds that page's statements, whose buffer the page after
	// next reuses.
	adding <-chan error
	added  []rdf.Quad
	// ended is the group before, being committed; nil when none is.
	ended *endedGroup
}

// endedGroup is a full group handed to the loader's goroutine.
type endedGroup struct {
	done  <-chan error
	pages []bulkPage
	links []string
}

// bulkPage is a page of the group, logged once committed.
type bulkPage struct {
	log  *slog.Logger
	cp   socialrdf.Checkpoint
	kept int64
}

// groupRunQuads is the loader's run for a group: larger than any group.
const groupRunQuads = 1 << 30

// bulkPosts is about how many posts a group of plat's pages holds; 0 when
// plat's pages are committed one by one.
func bulkPosts(plat platform.Platform) int64 {
	if b, ok := plat.(platform.Bulk); ok {
		return int64(max(b.BulkPosts(), 0))
	}
	return 0
}

// addBulk adds a fetched page's statements (its checkpoint cp among them)
// to the run's group, opening one if needed, and commits the group when
// it holds limit posts. The statements are added by a goroutine that
// keeps quads until the next page is added; addBulk returns an empty
// buffer for the next page's statements.
func (r *Runner) addBulk(ctx context.Context, ru *run, p *pairState, quads []rdf.Quad, cp socialrdf.Checkpoint, kept int64, links []string, limit int64, log *slog.Logger) ([]rdf.Quad, error) {
	g := ru.bulk
	if g == nil {
		// The group is sorted in memory, in one run: it is bounded by
		// its posts, and run files would write and read it again.
		l, err := r.Store.NewLoader(ctx, graph.LoadOptions{RunQuads: groupRunQuads})
		if err != nil {
			return quads[:0], fmt.Errorf("opening a bulk load: %w", err)
		}
		g = &bulkGroup{loader: l, workers: [2]*graph.LoadWorker{l.NewWorker(), l.NewWorker()}, linked: map[string]bool{}}
		ru.bulk = g
	}
	if err := g.wait(); err != nil {
		// The group is dropped (with the group ended before it when
		// that one's last page is what failed: it never reached the
		// loader); the resumed run reads it again.
		ru.bulk = nil
		g.loader.Close()
		ru.rdf.Forget()
		return quads[:0], err
	}
	spare := g.added[:0]
	g.added = quads
	adding := make(chan error, 1)
	g.adding = adding
	go func() { adding <- g.add(quads, p.IRI, ru.red, log) }()
	// The next page is fetched from this one's cursor; what the store
	// holds is the group's last committed checkpoint until the group is.
	r.mu.Lock()
	p.cp = cp
	r.mu.Unlock()
	g.posts += kept
	g.pages = append(g.pages, bulkPage{log, cp, kept})
	for _, l := range links {
		if !g.linked[l] {
			g.linked[l] = true
			g.links = append(g.links, l)
		}
	}
	if g.posts >= limit {
		return spare, r.endGroup(ctx, ru)
	}
	return spare, nil
}

// add resolves a page's statements (of pair pair) with the group's
// workers, half each, at once, leaving out, with a warning, those the
// store cannot hold. The group is committed whole, so the halves' order
// does not matter.
func (g *bulkGroup) add(quads []rdf.Quad, pair string, red *record.Redactor, log *slog.Logger) error {
	half := len(quads) / 2
	var err2 error
	done := make(chan struct{})
	go func() {
		defer close(done)
		err2 = addWith(g.workers[1], quads[half:], pair, red, log)
	}()
	err := addWith(g.workers[0], quads[:half], pair, red, log)
	<-done
	return errors.Join(err, err2)
}

// flushWorkers hands what the group's workers buffer on to the loader.
func (g *bulkGroup) flushWorkers() error {
	return errors.Join(g.workers[0].Flush(), g.workers[1].Flush())
}

// addWith resolves quads with worker w, for bulkGroup.add.
func addWith(w *graph.LoadWorker, quads []rdf.Quad, pair string, red *record.Redactor, log *slog.Logger) error {
	one := make([]rdf.Quad, 1)
	for _, q := range quads {
		one[0] = q
		if err := w.Add(one); err != nil {
			var te *rdf.TermError
			if !errors.As(err, &te) {
				return fmt.Errorf("storing a page of %s: %w", pair, err)
			}
			log.Warn("statement left out", "error", red.String(err.Error()))
		}
	}
	return nil
}

// wait waits for the page being added, if any, and returns its error.
func (g *bulkGroup) wait() error {
	if g.adding == nil {
		return nil
	}
	err := <-g.adding
	g.adding = nil
	return err
}

// endGroup hands the run's full group to the loader's goroutine to
// commit, after the WARC records it names are durable and the group
// before is committed, and starts the next group. The group's last page
// is still being added: a goroutine waits for it and ends the loader's
// segment, while the runner fetches and describes the next page, whose
// statements are added once the segment is ended (wait); the group's
// outcome comes on its done channel, as the loader's.
func (r *Runner) endGroup(ctx context.Context, ru *run) error {
	if err := r.settle(ctx, ru); err != nil {
		return err
	}
	g := ru.bulk
	// The records of the group's pages are all written (Fetch wrote
	// them before their statements were built).
	if err := ru.warcs.Sync(); err != nil {
		ru.bulk = nil
		_ = g.wait()
		g.loader.Close()
		ru.rdf.Forget()
		return fmt.Errorf("making the WARC records durable: %w", err)
	}
	last := g.adding
	ended := make(chan error, 1)
	done := make(chan error, 1)
	g.adding = ended
	go func() {
		var err error
		if last != nil {
			err = <-last
		}
		if err == nil {
			err = g.flushWorkers()
		}
		if err != nil {
			ended <- err
			done <- err
			return
		}
		committed := g.loader.EndSegment()
		ended <- nil
		done <- <-committed
	}()
	g.ended = &endedGroup{done: done, pages: g.pages, links: g.links}
	g.posts, g.pages, g.links, g.linked = 0, nil, nil, map[string]bool{}
	return nil
}

// settle waits for the run's ended group, if any, to be committed and
// logs its pages.
func (r *Runner) settle(ctx context.Context, ru *run) error {
	g := ru.bulk
	if g == nil || g.ended == nil {
		return nil
	}
	e := g.ended
	g.ended = nil
	if err := <-e.done; err != nil {
		ru.bulk = nil
		_ = g.wait()
		g.loader.Close()
		ru.rdf.Forget()
		return fmt.Errorf("committing %d pages: %w", len(e.pages), err)
	}
	r.committed(ctx, ru, e.pages, e.links)
	return nil
}

// committed logs a committed group's pages and passes on its links.
func (r *Runner) committed(ctx context.Context, ru *run, pages []bulkPage, links []string) {
	for _, pg := range pages {
		pg.log.Info("page", "posts", pg.kept, "done", pg.cp.Done, "pass", pg.cp.Pass) // committed
	}
	r.passLinks(ctx, ru.log, links, ru)
}

// flush commits the run's groups of bulk pages, if any, after the WARC
// records they name are durable.
func (r *Runner) flush(ctx context.Context, ru *run) error {
	if err := r.settle(ctx, ru); err != nil {
		return err
	}
	g := ru.bulk
	if g == nil {
		return nil
	}
	ru.bulk = nil
	err := g.wait()
	if err == nil {
		err = g.flushWorkers()
	}
	if err == nil {
		if err = ru.warcs.Sync(); err != nil {
			err = fmt.Errorf("making the WARC records durable: %w", err)
		}
	}
	if err != nil {
		g.loader.Close()
		ru.rdf.Forget()
		return err
	}
	if _, err := g.loader.Commit(); err != nil {
		ru.rdf.Forget()
		return fmt.Errorf("committing %d pages: %w", len(g.pages), err)
	}
	r.committed(ctx, ru, g.pages, g.links)
	return nil
}

// abandon drops the run's group of bulk pages, uncommitted.
func (ru *run) abandon() {
	if ru.bulk != nil {
		_ = ru.bulk.wait() // the workers are the loader's until then
		ru.bulk.loader.Close()
		ru.bulk = nil
	}
}
