package campaign

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/social/platform"
	"github.com/mneme-archive/mneme/social/socialrdf"
)

// bulkGroup is the group of pages of bulk platforms (platform.Bulk) that
// a run has fetched and not yet committed: their statements, checkpoints
// included, are in a graph.Loader, which the store ingests in one atomic
// step when the group is full or the run turns to anything else. Until
// then nothing of the group is visible, and a crash loses it whole: the
// resumed run starts from the checkpoints committed before, so no post is
// lost or stored twice. The loader holds the store's write lock, so every
// other write of the run commits the group first (flush).
type bulkGroup struct {
	loader *graph.Loader
	worker *graph.LoadWorker
	posts  int64
	pages  []bulkPage
	links  []string
	linked map[string]bool
	one    []rdf.Quad
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
// it holds limit posts.
func (r *Runner) addBulk(ctx context.Context, ru *run, p *pairState, quads []rdf.Quad, cp socialrdf.Checkpoint, kept int64, links []string, limit int64, log *slog.Logger) error {
	g := ru.bulk
	if g == nil {
		// The group is sorted in memory, in one run: it is bounded by
		// its posts, and run files would write and read it again.
		l, err := r.Store.NewLoader(ctx, graph.LoadOptions{RunQuads: groupRunQuads})
		if err != nil {
			return fmt.Errorf("opening a bulk load: %w", err)
		}
		g = &bulkGroup{loader: l, worker: l.NewWorker(), linked: map[string]bool{}, one: make([]rdf.Quad, 1)}
		ru.bulk = g
	}
	for _, q := range quads {
		g.one[0] = q
		if err := g.worker.Add(g.one); err != nil {
			var te *rdf.TermError
			if !errors.As(err, &te) {
				return fmt.Errorf("storing a page of %s: %w", p.IRI, err)
			}
			log.Warn("statement left out", "error", ru.red.String(err.Error()))
		}
	}
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
		return r.flush(ctx, ru)
	}
	return nil
}

// flush commits the run's group of bulk pages, if any, after the WARC
// records it names are durable.
func (r *Runner) flush(ctx context.Context, ru *run) error {
	g := ru.bulk
	if g == nil {
		return nil
	}
	ru.bulk = nil
	err := g.worker.Flush()
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
	for _, pg := range g.pages {
		pg.log.Info("page", "posts", pg.kept, "done", pg.cp.Done, "pass", pg.cp.Pass) // committed
	}
	r.passLinks(ctx, ru.log, g.links, ru)
	return nil
}

// abandon drops the run's group of bulk pages, uncommitted.
func (ru *run) abandon() {
	if ru.bulk != nil {
		ru.bulk.loader.Close()
		ru.bulk = nil
	}
}
