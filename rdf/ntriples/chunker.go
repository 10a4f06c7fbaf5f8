package ntriples

import (
	"bytes"
	"errors"
	"io"
)

const (
	// smallBuffer is the size of the first read buffer, enough for small
	// inputs; the buffer doubles up to bigBuffer as long as reads fill it.
	smallBuffer = 16 << 10
	// bigBuffer is the size from which larger reads gain nothing.
	bigBuffer = 256 << 10
	// maxLine bounds the buffer: a line longer than this is reported as an
	// error and skipped rather than held in memory.
	maxLine = 256 << 20
)

// ErrLineTooLong is returned by Chunker.Next for a line longer than the
// buffer may grow (256 MiB); Chunker.SkipLine then moves past it.
var ErrLineTooLong = errors.New("line too long")

// Chunker cuts the input of an io.Reader into chunks of complete lines,
// reading it in large blocks into one buffer that grows only when a single
// line does not fit. It is how Reader feeds its ChunkParser, and how a
// parallel loader can split a file for several ChunkParsers.
type Chunker struct {
	r        io.Reader
	buf      []byte
	start    int // buf[start:end] is read and not yet returned
	end      int
	searched int // buf[start:searched] holds no line break worth cutting at
	max      int
	eof      bool
	filled   bool // the last read filled the buffer: there is more to come
}

// NewChunker returns a Chunker reading r.
func NewChunker(r io.Reader) *Chunker {
	return &Chunker{r: r, max: maxLine}
}

// Next returns the next chunk: one or more complete lines (the last one
// may lack its line break at the end of the input). The chunk aliases the
// Chunker's buffer and is valid until the next call; copy it to keep it.
// Next returns io.EOF after the last chunk.
func (c *Chunker) Next() ([]byte, error) {
	for {
		if cut := c.cut(); cut > c.start {
			chunk := c.buf[c.start:cut]
			c.start, c.searched = cut, cut
			return chunk, nil
		}
		if c.eof {
			if c.start == c.end {
				return nil, io.EOF
			}
			chunk := c.buf[c.start:c.end]
			c.start, c.searched = c.end, c.end
			return chunk, nil
		}
		if err := c.fill(); err != nil {
			return nil, err
		}
	}
}

// cut returns where the read data can be cut after complete lines: after
// the last '\n', or else before the last '\r' (a '\r' may be the first
// half of a "\r\n" that the next read completes). It only searches bytes
// not searched before.
func (c *Chunker) cut() int {
	fresh := c.buf[c.searched:c.end]
	if k := bytes.LastIndexByte(fresh, '\n'); k >= 0 {
		return c.searched + k + 1
	}
	if k := bytes.LastIndexByte(fresh, '\r'); k >= 0 && c.searched+k > c.start {
		return c.searched + k
	}
	c.searched = c.end
	return c.start
}

// fill reads more input, first moving the unreturned data to the front of
// the buffer and growing the buffer if that data fills it.
func (c *Chunker) fill() error {
	if c.buf == nil {
		c.buf = make([]byte, min(smallBuffer, c.max))
	}
	if c.start > 0 {
		n := copy(c.buf, c.buf[c.start:c.end])
		c.searched -= c.start
		c.start, c.end = 0, n
	}
	switch {
	case c.end == len(c.buf): // a single line fills the buffer
		if len(c.buf) >= c.max {
			return ErrLineTooLong
		}
		c.grow()
	case c.filled && len(c.buf) < min(bigBuffer, c.max):
		c.grow()
	}
	// Like bufio, give up on a reader that keeps returning nothing.
	for range 100 {
		n, err := c.r.Read(c.buf[c.end:])
		c.filled = c.end+n == len(c.buf)
		c.end += n
		if err == io.EOF {
			c.eof = true
			return nil
		}
		if n > 0 || err != nil {
			return err
		}
	}
	return io.ErrNoProgress
}

func (c *Chunker) grow() {
	grown := make([]byte, min(2*len(c.buf), c.max))
	copy(grown, c.buf[:c.end])
	c.buf = grown
}

// SkipLine discards the rest of the current line after Next returned a
// line-too-long error, leaving its line break to be read next.
func (c *Chunker) SkipLine() error {
	for {
		data := c.buf[c.start:c.end]
		if k := bytes.IndexAny(data, "\r\n"); k >= 0 {
			c.start += k
			c.searched = c.start
			return nil
		}
		c.start, c.end, c.searched = 0, 0, 0
		if c.eof {
			return nil
		}
		if err := c.fill(); err != nil {
			return err
		}
	}
}

// CountLines returns the number of line breaks in chunk as ChunkParser
// counts them ("\n", "\r\n" and a lone "\r" each end one line), so that a
// loader can number the first line of each chunk it parses in parallel.
func CountLines(chunk []byte) int {
	n := bytes.Count(chunk, []byte{'\n'})
	for i := 0; ; {
		k := bytes.IndexByte(chunk[i:], '\r')
		if k < 0 {
			return n
		}
		i += k + 1
		if i == len(chunk) || chunk[i] != '\n' {
			n++
		}
	}
}
