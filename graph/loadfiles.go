package graph

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
	"sync"
	"sync/atomic"

	"github.com/klauspost/compress/gzip"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/rdf/ntriples"
	"github.com/mneme-archive/mneme/rdf/rdfio"
)

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

// FileLoad parses RDF files and adds their quads to a Loader in
// parallel: N-Triples and N-Quads are cut into chunks of whole lines that
// every core parses; the other formats are parsed in sequence and their
// quads added in parallel. Each file's blank nodes are its own.
type FileLoad struct {
	o      FileLoadOptions
	ctx    context.Context
	cancel context.CancelFunc
	loader *Loader
	bytes  atomic.Int64 // input bytes read (compressed size for .gz)
	mu     sync.Mutex
	fatal  error
	pool   sync.Pool
}

// FileLoadOptions configure a FileLoad.
type FileLoadOptions struct {
	// Graph receives the files' default-graph triples; the zero Term
	// leaves them in the default graph.
	Graph rdf.Term
	// SkipInvalid skips bad statements (N-Triples and N-Quads resume at
	// the next line; other formats keep what came before the error)
	// instead of failing the load at the first.
	SkipInvalid bool
	// Skipped is told each skipped statement's error, one call at a time.
	Skipped func(error)
}

// NewFileLoad prepares loading files into l.
func (l *Loader) NewFileLoad(opts FileLoadOptions) *FileLoad {
	return &FileLoad{o: opts, loader: l}
}

// BytesRead is how much of the input has been read so far (the
// compressed size for .gz files), for progress.
func (r *FileLoad) BytesRead() int64 { return r.bytes.Load() }

// Load parses files (their format from their names: .nt .nq .ttl .trig
// .rdf, each optionally .gz) and adds their quads to the Loader, using
// every core; the caller commits. A syntax error fails the load, as
// FILE:LINE:COLUMN, unless SkipInvalid.
func (r *FileLoad) Load(ctx context.Context, files []string) error {
	var sources []*loadSource
	for _, path := range files {
		f, _, err := rdfio.ForPath(path)
		if err != nil {
			return err
		}
		src := &loadSource{path: path, scope: blankScope(), graph: r.o.Graph}
		if f == rdfio.NQuads {
			src.syntax = ntriples.NQuads
		}
		sources = append(sources, src)
	}
	r.ctx, r.cancel = context.WithCancel(ctx)
	defer r.cancel()
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
	return r.err()
}

// blankScope returns a fresh prefix for one file's blank node labels.
func blankScope() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "f" + hex.EncodeToString(b[:]) + "_"
}

// invalid handles a bad statement: it ends the load, or with
// SkipInvalid is passed on to Skipped.
func (r *FileLoad) invalid(err error) {
	if !r.o.SkipInvalid {
		r.fail(err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.o.Skipped != nil {
		r.o.Skipped(err)
	}
}

func (r *FileLoad) fail(err error) {
	r.mu.Lock()
	if r.fatal == nil {
		r.fatal = err
	}
	r.mu.Unlock()
	r.cancel()
}

func (r *FileLoad) failed() bool { return r.err() != nil }

func (r *FileLoad) err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fatal == nil && r.ctx.Err() != nil {
		return r.ctx.Err()
	}
	return r.fatal
}

// read feeds one file to the workers.
func (r *FileLoad) read(src *loadSource, jobs chan<- loadJob) error {
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
func (r *FileLoad) readSequential(src *loadSource, format *rdfio.Format, jobs chan<- loadJob) error {
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
func (r *FileLoad) buffer(n int) []byte {
	if b, ok := r.pool.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]byte, 0, max(n, 1<<20))
}

// work parses and loads jobs until the channel closes.
func (r *FileLoad) work(jobs <-chan loadJob) {
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
		// The parsed terms' text is in the chunk, which is refilled.
		w.Forget()
		chunk := job.chunk
		r.pool.Put(&chunk)
	}
	if err := w.Flush(); err != nil && !r.failed() {
		r.fail(err)
	}
}

// add scopes blank nodes, places default-graph triples, and loads one
// quad; it returns false when the load has failed.
func (r *FileLoad) add(w *LoadWorker, src *loadSource, one []rdf.Quad, line int) bool {
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
