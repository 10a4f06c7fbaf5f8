package fetch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// Buffer holds bytes in memory up to a limit and in a temporary file beyond
// it. It satisfies crawler/warc's Content (io.ReaderAt plus Size), so a
// recording is handed to the WARC writer without copying. Writes must finish
// before the first read; Close releases the memory and removes the file.
type Buffer struct {
	mem   []byte
	file  *os.File
	size  int64
	limit int
	dir   string
	err   error // first write failure; later writes report it again
}

// bufPool recycles the in-memory part of Buffers: most pages are small, and
// reusing their storage keeps a fetch from allocating per page.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

func newBuffer(limit int, dir string) *Buffer {
	p := bufPool.Get().(*[]byte)
	return &Buffer{mem: (*p)[:0], limit: limit, dir: dir}
}

// Write appends p, moving everything to a temporary file once the memory limit
// would be exceeded.
func (b *Buffer) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if b.file == nil && len(b.mem)+len(p) > b.limit {
		if err := b.spill(); err != nil {
			b.err = err
			return 0, err
		}
	}
	if b.file != nil {
		n, err := b.file.Write(p)
		b.size += int64(n)
		if err != nil {
			b.err = fmt.Errorf("fetch: spill file: %w", err)
		}
		return n, b.err
	}
	b.mem = append(b.mem, p...)
	b.size += int64(len(p))
	return len(p), nil
}

func (b *Buffer) spill() error {
	f, err := os.CreateTemp(b.dir, "mneme-fetch-*")
	if err != nil {
		return fmt.Errorf("fetch: spill file: %w", err)
	}
	if _, err := f.Write(b.mem); err != nil {
		f.Close()
		os.Remove(f.Name())
		return fmt.Errorf("fetch: spill file: %w", err)
	}
	b.file = f
	b.release()
	return nil
}

// release returns the memory part to the pool unless it grew unusually large.
func (b *Buffer) release() {
	if b.mem != nil && cap(b.mem) <= 4<<20 {
		m := b.mem[:0]
		bufPool.Put(&m)
	}
	b.mem = nil
}

// Size reports the number of bytes written.
func (b *Buffer) Size() int64 { return b.size }

// Spilled reports whether the contents live in a temporary file.
func (b *Buffer) Spilled() bool { return b.file != nil }

// ReadAt reads from the buffered contents.
func (b *Buffer) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("fetch: negative offset")
	}
	if b.file != nil {
		if off >= b.size {
			return 0, io.EOF
		}
		if rest := b.size - off; int64(len(p)) > rest {
			n, err := b.file.ReadAt(p[:rest], off)
			if err == nil {
				err = io.EOF
			}
			return n, err
		}
		return b.file.ReadAt(p, off)
	}
	if off >= int64(len(b.mem)) {
		return 0, io.EOF
	}
	n := copy(p, b.mem[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Reader returns a reader over the whole contents.
func (b *Buffer) Reader() *io.SectionReader { return io.NewSectionReader(b, 0, b.size) }

// Bytes returns the contents when they are in memory, and false when they were
// spilled to a file. The slice is valid until Close.
func (b *Buffer) Bytes() ([]byte, bool) {
	if b.file != nil {
		return nil, false
	}
	return b.mem, true
}

// Close frees the memory and removes the temporary file, if any.
func (b *Buffer) Close() error {
	b.release()
	if b.file == nil {
		return nil
	}
	name := b.file.Name()
	err := b.file.Close()
	b.file = nil
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
