package importer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/mneme-archive/mneme/social/platform"
)

// parsed is a line read and parsed ahead.
type parsed struct {
	body  []byte // the line, trimmed; empty for a blank line
	end   int64  // the offset after the line
	no    int64  // its number
	posts []platform.Post
	accs  []platform.Account
	perr  error // why the line is not a collection's
	err   error // why the file could not be read further; io.EOF at its end
}

// chunkPosts is about how many posts a chunk of lines read ahead holds,
// and chunkLines how many lines at most.
const (
	chunkPosts = 512
	chunkLines = 1024
)

// reader reads a file's lines and parses them in a goroutine of its own,
// about a page ahead of the pages taken, so that decoding the next page
// takes the other core while the runner commits the last one.
type reader struct {
	path    string
	chunks  chan []parsed
	stop    chan struct{}
	stopped sync.Once
	pending []parsed // taken from chunks, not yet handed out
}

// startReader reads path from offset, whose line number is line, keeping
// about ahead posts parsed in advance.
func startReader(path string, offset, line int64, ahead int) (*reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("import %s: %w", path, err)
	}
	r := &reader{path: path, chunks: make(chan []parsed, ahead/chunkPosts+1), stop: make(chan struct{})}
	go r.run(f, offset, line)
	return r, nil
}

func (r *reader) run(f *os.File, offset, line int64) {
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	var chunk []parsed
	posts := 0
	send := func() bool {
		select {
		case r.chunks <- chunk:
			chunk, posts = nil, 0
			return true
		case <-r.stop:
			return false
		}
	}
	for {
		raw, err := readLine(br)
		if errors.Is(err, io.EOF) && len(raw) == 0 {
			chunk = append(chunk, parsed{err: io.EOF})
			send()
			return
		}
		if err != nil && !errors.Is(err, io.EOF) {
			chunk = append(chunk, parsed{err: err, no: line + 1})
			send()
			return
		}
		offset += int64(len(raw))
		line++
		p := parsed{body: bytes.TrimSpace(raw), end: offset, no: line}
		if len(p.body) > 0 {
			p.posts, p.accs, p.perr = Parse(p.body)
		}
		chunk = append(chunk, p)
		posts += len(p.posts)
		if (posts >= chunkPosts || len(chunk) >= chunkLines) && !send() {
			return
		}
	}
}

// next returns the next line.
func (r *reader) next(ctx context.Context) (parsed, error) {
	if len(r.pending) == 0 {
		select {
		case <-ctx.Done():
			return parsed{}, ctx.Err()
		case r.pending = <-r.chunks:
		}
	}
	p := r.pending[0]
	r.pending = r.pending[1:]
	return p, nil
}

// close stops the reader's goroutine, which closes the file.
func (r *reader) close() { r.stopped.Do(func() { close(r.stop) }) }

// maxReaders bounds the readers kept between pages: one a file being
// imported, those of stopped campaigns dropped oldest first.
const maxReaders = 8

// readers keeps each reader between pages, by the file and the offset it
// will hand out next: the cursor of the page it read last.
type readers struct {
	mu    sync.Mutex
	byPos map[readerPos]*reader
	order []readerPos // oldest first
}

type readerPos struct {
	path   string
	offset int64
}

// take returns the reader of path at offset, starting one unless kept.
func (rs *readers) take(path string, offset, line int64, ahead int) (*reader, error) {
	rs.mu.Lock()
	pos := readerPos{path, offset}
	r := rs.byPos[pos]
	if r != nil {
		delete(rs.byPos, pos)
		for i, p := range rs.order {
			if p == pos {
				rs.order = append(rs.order[:i], rs.order[i+1:]...)
				break
			}
		}
	}
	rs.mu.Unlock()
	if r != nil {
		return r, nil
	}
	return startReader(path, offset, line, ahead)
}

// keep keeps r for the page at offset.
func (rs *readers) keep(r *reader, offset int64) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.byPos == nil {
		rs.byPos = map[readerPos]*reader{}
	}
	pos := readerPos{r.path, offset}
	if old := rs.byPos[pos]; old != nil {
		old.close()
	} else {
		rs.order = append(rs.order, pos)
	}
	rs.byPos[pos] = r
	for len(rs.order) > maxReaders {
		rs.byPos[rs.order[0]].close()
		delete(rs.byPos, rs.order[0])
		rs.order = rs.order[1:]
	}
}
