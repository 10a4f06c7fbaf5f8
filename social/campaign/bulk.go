package campaign

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"

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
// first (flush). A page's statements are resolved to IDs as the runner
// describes the page: handed on in chunks (feed) to two goroutines, one
// for each of the group's workers, which resolve them while the runner
// describes the rest and then fetches the next page. The goroutines last
// as long as the group, not a page: the chunks queued at a page's end
// keep both workers busy while the runner fetches the next page (its
// WARC records written), instead of each page waiting for the one before
// to be resolved whole. The chunks of posts go to the first worker, those
// of the accounts' observations (whose counts are literals seldom met
// elsewhere) to the second, so that each worker's cache of terms is not
// filled with what the other meets; a worker with none of its own waiting
// takes the other's, rather than stand idle. So
// decoding, describing, resolving and committing overlap, and resolving,
// the longest of them, takes both cores when nothing else is to be done.
// The chunks are few and small, and cleared once resolved: a page's
// statements are never held whole, for the collector to mark.
type bulkGroup struct {
	loader  *graph.Loader
	workers [2]*graph.LoadWorker
	posts   int64
	pages   []bulkPage
	links   []string
	linked  map[string]bool
	// adding receives the outcome of the group's pages being added, nil
	// when none are; failed is the outcome received, once one was an
	// error; faulty tells that a page failed, before the outcome comes.
	adding <-chan error
	failed error
	faulty atomic.Bool
	// chunks takes the chunks of the group's pages to the workers'
	// goroutines and accounts those of their accounts to the second, both
	// nil when the goroutines are not running; free holds the chunks'
	// buffers for reuse.
	chunks, accounts chan<- chunk
	free             chan []rdf.Quad
	// ended is the group before, being committed; nil when none is.
	ended *endedGroup
}

// chunkQuads is how many statements a chunk of a page holds: a post or
// an account adds at most some tens to a buffer of chunkQuads+chunkRoom.
// queuedChunks is how many chunks of posts wait for the workers: some
// tens of milliseconds of their work, about what fetching a page takes.
const (
	chunkQuads   = 8192
	chunkRoom    = 256
	queuedChunks = 8
)

// chunk is a chunk of statements of pair's page, whose warnings go to log.
type chunk struct {
	quads []rdf.Quad
	pair  string
	log   *slog.Logger
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

// group returns the run's group, opening one if needed.
func (r *Runner) group(ctx context.Context, ru *run) (*bulkGroup, error) {
	if ru.bulk != nil {
		return ru.bulk, nil
	}
	// The group is sorted in memory, in one run: it is bounded by its
	// posts, and run files would write and read it again.
	l, err := r.Store.NewLoader(ctx, graph.LoadOptions{RunQuads: groupRunQuads})
	if err != nil {
		return nil, fmt.Errorf("opening a bulk load: %w", err)
	}
	ru.bulk = &bulkGroup{loader: l, workers: [2]*graph.LoadWorker{l.NewWorker(), l.NewWorker()}, linked: map[string]bool{},
		free: make(chan []rdf.Quad, 2*queuedChunks)}
	return ru.bulk, nil
}

// feed hands a chunk of the statements of the page of pair p being
// described (those of its accounts when accounts) to the run's group, to
// be resolved at once, and returns an empty buffer for the next chunk.
// When the group cannot take them (it cannot be opened, or the page
// before failed), it returns quads as they are: addBulk meets the error.
func (r *Runner) feed(ctx context.Context, ru *run, p *pairState, quads []rdf.Quad, accounts bool, log *slog.Logger) []rdf.Quad {
	g, err := r.group(ctx, ru)
	if err != nil || g.start(ru.red) != nil {
		return quads
	}
	g.send(chunk{quads, p.IRI, log}, accounts)
	return g.buffer()
}

// send hands c to the group's goroutines, to the second when accounts.
func (g *bulkGroup) send(c chunk, accounts bool) {
	if accounts {
		g.accounts <- c
	} else {
		g.chunks <- c
	}
}

// start readies the group for a page's chunks: it returns the error of a
// page before, if one failed, and starts the group's goroutines if they
// are not running, once the group ended before, if any, is handed to the
// loader.
func (g *bulkGroup) start(red *record.Redactor) error {
	if g.faulty.Load() {
		if err := g.wait(); err != nil {
			return err
		}
	}
	if g.chunks != nil {
		return nil
	}
	if err := g.wait(); err != nil {
		return err
	}
	chunks, accounts := make(chan chunk, queuedChunks), make(chan chunk, 2)
	adding := make(chan error, 1)
	g.chunks, g.accounts, g.adding = chunks, accounts, adding
	go func() {
		var errs [2]error
		var wg sync.WaitGroup
		for i, w := range g.workers {
			// Each worker takes its own kind of chunk first, the
			// other's when none waits: a page's accounts come after its
			// posts, and the first worker would stand idle while the
			// second resolves them.
			own, other := (<-chan chunk)(chunks), (<-chan chunk)(accounts)
			if i == 1 {
				own, other = other, own
			}
			wg.Go(func() {
				for own != nil || other != nil {
					var c chunk
					var ok, mine bool
					select {
					case c, ok = <-own:
						mine = true
					default:
						select {
						case c, ok = <-own:
							mine = true
						case c, ok = <-other:
						}
					}
					if !ok {
						if mine {
							own = nil
						} else {
							other = nil
						}
						continue
					}
					if errs[i] == nil {
						if errs[i] = addWith(w, c.quads, c.pair, red, c.log); errs[i] != nil {
							g.faulty.Store(true)
						}
					}
					g.recycle(c.quads)
				}
			})
		}
		wg.Wait()
		adding <- errors.Join(errs[0], errs[1])
	}()
	return nil
}

// end marks the group's chunks all handed on; the outcome comes on
// g.adding.
func (g *bulkGroup) end() {
	if g.chunks != nil {
		close(g.chunks)
		close(g.accounts)
		g.chunks, g.accounts = nil, nil
	}
}

// buffer returns an empty buffer for a chunk.
func (g *bulkGroup) buffer() []rdf.Quad {
	select {
	case b := <-g.free:
		return b
	default:
		return make([]rdf.Quad, 0, chunkQuads+chunkRoom)
	}
}

// recycle keeps a resolved chunk's buffer for another, cleared: the
// statements are the loader's now, and the buffer no longer holds their
// strings alive for the collector to mark.
func (g *bulkGroup) recycle(c []rdf.Quad) {
	clear(c)
	if cap(c) > 4*(chunkQuads+chunkRoom) {
		return
	}
	select {
	case g.free <- c[:0]:
	default:
	}
}

// addBulk adds the rest of a fetched page's statements (its checkpoint cp
// among them) to the run's group, after the chunks feed took, and
// commits the group when it holds limit posts. The statements are
// resolved by the group's goroutines; addBulk returns an empty buffer for
// the next page's statements.
func (r *Runner) addBulk(ctx context.Context, ru *run, p *pairState, quads []rdf.Quad, cp socialrdf.Checkpoint, kept int64, links []string, limit int64, log *slog.Logger) ([]rdf.Quad, error) {
	g, err := r.group(ctx, ru)
	if err != nil {
		return quads[:0], err
	}
	if err := g.start(ru.red); err != nil {
		// The group is dropped (with the group ended before it when
		// that one's last page is what failed: it never reached the
		// loader); the resumed run reads it again.
		ru.bulk = nil
		g.loader.Close()
		ru.rdf.Forget()
		return quads[:0], err
	}
	next := quads[:0]
	if len(quads) > 0 { // the page's last accounts, its checkpoint
		g.send(chunk{quads, p.IRI, log}, true)
		next = g.buffer()
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
		return next, r.endGroup(ctx, ru)
	}
	return next, nil
}

// flushWorkers hands what the group's workers buffer on to the loader.
func (g *bulkGroup) flushWorkers() error {
	return errors.Join(g.workers[0].Flush(), g.workers[1].Flush())
}

// addWith resolves quads (of pair pair) with worker w, leaving out, with a
// warning, those the store cannot hold. The group is committed whole, so
// the order its chunks are resolved in does not matter.
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

// wait ends the group's chunks, waits for the pages being added, if any,
// and returns their error, or the error of a page before.
func (g *bulkGroup) wait() error {
	g.end()
	if g.adding != nil {
		if err := <-g.adding; err != nil {
			g.failed = err
		}
		g.adding = nil
	}
	return g.failed
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
	g.end()
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
