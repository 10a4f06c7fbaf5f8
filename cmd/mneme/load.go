package main

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/spf13/cobra"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/rdf/rdfio"
)

func newLoadCmd() *cobra.Command {
	var o loadOptions
	cmd := &cobra.Command{
		Use:   "load --store DIR FILE...",
		Short: "Bulk-load RDF files into a store",
		Long: `Load FILEs (.nt .nq .ttl .trig .rdf, each optionally .gz) into the store in
DIR, creating it if needed. Quads the store already holds are ignored, so
loading twice changes nothing. N-Triples and N-Quads are parsed in parallel.

Triples of the default graph go into --graph when it is given. Blank node
labels are local to each file: every file's blank nodes are new ones.

By default the load stops at the first syntax error, reported as
FILE:LINE:COLUMN, and loads nothing. With --skip-invalid, bad statements
are skipped and counted (N-Triples and N-Quads resume at the next line;
other formats keep what came before the error). Memory stays bounded
whatever the input size; quads become visible in one atomic step per
segment, so a killed load leaves the store as it was before the segment.`,
		Example: `  mneme load --store kb lubm.nt.gz
  mneme load --store kb --graph https://example.org/crawl/1 crawl1.ttl`,
		Args: usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, files []string) error {
			if o.store == "" {
				return usagef("load needs --store DIR")
			}
			return runLoad(cmd, o, files)
		},
	}
	cmd.Flags().StringVar(&o.store, "store", "", "store directory (created if missing)")
	cmd.Flags().StringVar(&o.graph, "graph", "", "load default-graph triples into this named graph (IRI)")
	cmd.Flags().BoolVar(&o.skipInvalid, "skip-invalid", false, "skip invalid statements, report how many and where")
	cmd.Flags().IntVar(&o.runQuads, "run-quads", 0, "quads sorted in memory at once (default 2Mi; memory grows with it)")
	cmd.Flags().IntVar(&o.segmentQuads, "segment-quads", 0, "quads committed in one atomic step (default 64Mi)")
	cmd.Flags().StringVar(&o.cpuProfile, "cpuprofile", "", "write a CPU profile of the load to this file (go tool pprof reads it)")
	cmd.Flags().StringVar(&o.blockProfile, "blockprofile", "", "write a profile of where goroutines waited (blocking and lock contention) to this file")
	return cmd
}

type loadOptions struct {
	store, graph string
	skipInvalid  bool
	runQuads     int
	segmentQuads int
	cpuProfile   string
	blockProfile string
}

// maxListedErrors is how many skipped statements are listed one by one.
const maxListedErrors = 10

// loadJob is a unit of parallel work: a chunk of whole N-Triples/N-Quads
// lines to parse, or quads already parsed by a format read sequentially.
type loadJob struct {
	src   *loadSource
	chunk []byte
	line  int // number of the chunk's first line
	quads []rdf.Quad
}

// loadSource is one input file.
type loadSource struct {
	path   string
	syntax ntriples.Syntax
	scope  string   // prefix that makes its blank node labels its own
	graph  rdf.Term // where its default-graph triples go
}

// loadRun is the state of one mneme load.
type loadRun struct {
	o       loadOptions
	ctx     context.Context
	cancel  context.CancelFunc
	loader  *graph.Loader
	bytes   atomic.Int64 // input bytes read (compressed size for .gz)
	total   int64
	mu      sync.Mutex
	skipped int
	fatal   error
	stderr  io.Writer
	pool    sync.Pool
}

func runLoad(cmd *cobra.Command, o loadOptions, files []string) error {
	var g rdf.Term
	if o.graph != "" {
		g = rdf.IRI(o.graph)
		if err := (rdf.Quad{S: g, P: g, O: g, G: g}).Validate(); err != nil {
			return usagef("--graph: %v", err)
		}
	}
	var total int64
	var sources []*loadSource
	for _, path := range files {
		f, _, err := rdfio.ForPath(path)
		if err != nil {
			return usageError{err}
		}
		fi, err := os.Stat(path)
		if err != nil {
			return err
		}
		total += fi.Size()
		src := &loadSource{path: path, scope: blankScope(), graph: g}
		if f == rdfio.NQuads {
			src.syntax = ntriples.NQuads
		}
		sources = append(sources, src)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		// Keep the heap well under the 1.5 GB the loader promises.
		debug.SetMemoryLimit(1 << 30)
	}
	s, err := graph.Open(o.store, graph.OpenOptions{})
	if err != nil {
		return err
	}
	defer s.Close()
	stopCPU, err := startCPUProfile(o.cpuProfile)
	if err != nil {
		return err
	}
	defer stopCPU()
	stopBlock, err := startBlockProfile(o.blockProfile)
	if err != nil {
		return err
	}
	defer stopBlock()
	ctx, cancel := context.WithCancel(cmd.Context())
	defer cancel()
	loader, err := s.NewLoader(ctx, graph.LoadOptions{RunQuads: o.runQuads, SegmentQuads: o.segmentQuads})
	if err != nil {
		return err
	}
	r := &loadRun{o: o, ctx: ctx, cancel: cancel, loader: loader, total: total, stderr: cmd.ErrOrStderr()}
	start := time.Now()
	prog := startProgress(cmd.ErrOrStderr(), r, start)
	jobs := make(chan loadJob, 2*runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.work(jobs)
		}()
	}
	for _, src := range sources {
		if err := r.read(src, jobs); err != nil {
			r.fail(err)
		}
		if r.failed() {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err := r.err(); err != nil {
		prog.stop()
		loader.Close()
		return err
	}
	prog.phase("sorting and ingesting")
	res, err := loader.Commit()
	elapsed := time.Since(start)
	prog.stop()
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "loaded %d quads (%d new, %d new terms) from %s in %s, %.0f quads/s\n",
		res.Read, res.Added, res.Terms, plural(len(files), "file"), elapsed.Round(time.Millisecond), float64(res.Read)/elapsed.Seconds())
	if r.skipped > 0 {
		fmt.Fprintf(cmd.OutOrStdout(), "skipped %s\n", plural(r.skipped, "invalid statement"))
	}
	return nil
}

// blankScope returns a fresh prefix for one file's blank node labels.
func blankScope() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "f" + hex.EncodeToString(b[:]) + "_"
}

// invalid handles a bad statement: it ends the load, or with
// --skip-invalid is counted and (the first few) listed.
func (r *loadRun) invalid(err error) {
	if !r.o.skipInvalid {
		r.fail(err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipped++
	if r.skipped <= maxListedErrors {
		fmt.Fprintf(r.stderr, "skipped: %v\n", err)
	}
}

func (r *loadRun) fail(err error) {
	r.mu.Lock()
	if r.fatal == nil {
		r.fatal = err
	}
	r.mu.Unlock()
	r.cancel()
}

func (r *loadRun) failed() bool { return r.err() != nil }

func (r *loadRun) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fatal == nil && r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	return r.fatal
}

// read feeds one file to the workers.
func (r *loadRun) read(src *loadSource, jobs chan<- loadJob) error {
	format, gz, err := rdfio.ForPath(src.path)
	if err != nil {
		return err
	}
	if !format.LineBased {
		return r.readSequential(src, format, jobs)
	}
	f, err := os.Open(src.path)
	if err != nil {
		return err
	}
	defer f.Close()
	var in io.Reader = bufio.NewReaderSize(&countingReader{f, &r.bytes}, 1<<20)
	if gz {
		zr, err := gzip.NewReader(in)
		if err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
		defer zr.Close()
		in = zr
	}
	ch := ntriples.NewChunker(in)
	line := 1
	for {
		chunk, err := ch.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, ntriples.ErrLineTooLong) {
			r.invalid(&rdf.ParseError{Name: src.path, Line: line, Col: 1, Msg: "line too long"})
			if r.failed() {
				return nil
			}
			if err := ch.SkipLine(); err != nil && err != io.EOF {
				return fmt.Errorf("%s: %w", src.path, err)
			}
			line++
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
		buf := r.buffer(len(chunk))
		buf = append(buf, chunk...)
		select {
		case jobs <- loadJob{src: src, chunk: buf, line: line}:
		case <-r.ctx.Done():
			return nil
		}
		line += ntriples.CountLines(chunk)
	}
}

// readSequential parses a format that cannot be split (Turtle, TriG,
// RDF/XML) and hands the quads to the workers in batches.
func (r *loadRun) readSequential(src *loadSource, format *rdfio.Format, jobs chan<- loadJob) error {
	in, err := rdfio.Open(src.path, format, rdf.ParseOptions{Name: src.path})
	if err != nil {
		return err
	}
	defer in.Close()
	const batch = 4096
	var quads []rdf.Quad
	send := func() bool {
		if len(quads) == 0 {
			return true
		}
		select {
		case jobs <- loadJob{src: src, quads: quads}:
			quads = nil
			return true
		case <-r.ctx.Done():
			return false
		}
	}
	for {
		q, err := in.Next()
		if err == io.EOF {
			break
		}
		var pe *rdf.ParseError
		if errors.As(err, &pe) {
			r.invalid(err) // these formats cannot resume after an error
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", src.path, err)
		}
		quads = append(quads, q.Clone())
		if len(quads) == batch && !send() {
			return nil
		}
	}
	send()
	if fi, err := os.Stat(src.path); err == nil {
		r.bytes.Add(fi.Size())
	}
	return nil
}

// buffer returns an empty byte slice with room for n bytes, reusing the
// chunks that workers have finished with.
func (r *loadRun) buffer(n int) []byte {
	if b, ok := r.pool.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, max(n, 1<<20))
}

// work parses and loads jobs until the channel closes.
func (r *loadRun) work(jobs <-chan loadJob) {
	w := r.loader.NewWorker()
	parsers := map[ntriples.Syntax]*ntriples.ChunkParser{}
	one := make([]rdf.Quad, 1)
	for job := range jobs {
		if r.failed() {
			continue // drain
		}
		if job.chunk == nil {
			for i := range job.quads {
				one[0] = job.quads[i]
				r.add(w, job.src, one, 0)
			}
			continue
		}
		p := parsers[job.src.syntax]
		if p == nil {
			p = ntriples.NewChunkParser(job.src.syntax, rdf.ParseOptions{})
			parsers[job.src.syntax] = p
		}
		p.Reset(job.chunk, job.line)
		for {
			q, err := p.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var pe *rdf.ParseError
				if errors.As(err, &pe) {
					pe.Name = job.src.path
				}
				r.invalid(err)
				if r.failed() {
					break
				}
				continue
			}
			one[0] = q
			if !r.add(w, job.src, one, p.Line()) {
				break
			}
		}
		chunk := job.chunk
		r.pool.Put(&chunk)
	}
	if err := w.Flush(); err != nil && !r.failed() {
		r.fail(err)
	}
}

// add scopes blank nodes, places default-graph triples, and loads one
// quad; it returns false when the load has failed.
func (r *loadRun) add(w *graph.LoadWorker, src *loadSource, one []rdf.Quad, line int) bool {
	q := &one[0]
	for _, t := range []*rdf.Term{&q.S, &q.O, &q.G} {
		if t.Kind == rdf.KindBlank {
			t.Value = src.scope + t.Value
		}
	}
	if q.G.IsZero() {
		q.G = src.graph
	}
	if err := w.Add(one); err != nil {
		var te *rdf.TermError
		if errors.As(err, &te) {
			where := src.path
			if line > 0 {
				where = fmt.Sprintf("%s:%d", src.path, line)
			}
			r.invalid(fmt.Errorf("%s: %w", where, err))
			return !r.failed()
		}
		r.fail(err)
		return false
	}
	return true
}

// countingReader counts the bytes read through it, for progress.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
