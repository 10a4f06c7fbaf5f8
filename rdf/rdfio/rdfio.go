// Package rdfio picks an RDF serialization by file name or format name and
// opens files for reading and writing, gzip included, so that commands
// and loaders need not know the individual format packages.
package rdfio

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mneme-archive/mneme/rdf"
)

// Format is one RDF serialization.
type Format struct {
	Name       string   // canonical short name, e.g. "turtle"
	Aliases    []string // other names accepted by ByName, e.g. "ttl"
	Extensions []string // file extensions with the dot, e.g. ".ttl"
	MediaType  string
	// Quads tells whether the format can hold named graphs.
	Quads bool
	// LineBased formats resume after a syntax error at the next line.
	LineBased bool

	newReader func(io.Reader, rdf.ParseOptions) rdf.Reader // nil: write-only format
	newWriter func(io.Writer, rdf.WriteOptions) rdf.Writer // nil: read-only format
}

// NewReader returns a reader of this format over r; for a format mneme
// cannot read, its Next fails.
func (f *Format) NewReader(r io.Reader, opts rdf.ParseOptions) rdf.Reader {
	if f.newReader == nil {
		return failing{fmt.Errorf("%s: mneme can write %s but not read it", opts.Name, f.Name)}
	}
	return f.newReader(r, opts)
}

// CanRead reports whether mneme can parse this format.
func (f *Format) CanRead() bool { return f.newReader != nil }

// failing is the reader of a format that cannot be read.
type failing struct{ err error }

func (r failing) Next() (rdf.Quad, error) { return rdf.Quad{}, r.err }

// CanWrite reports whether mneme can serialize this format.
func (f *Format) CanWrite() bool { return f.newWriter != nil }

// NewWriter returns a writer of this format over w; it fails for read-only
// formats.
func (f *Format) NewWriter(w io.Writer, opts rdf.WriteOptions) (rdf.Writer, error) {
	if f.newWriter == nil {
		return nil, fmt.Errorf("mneme can read %s but not write it; writable formats: %s", f.Name, strings.Join(writableNames(), ", "))
	}
	return f.newWriter(w, opts), nil
}

// Formats lists every known format.
func Formats() []*Format { return formats }

// ByName finds a format by name or alias, case-insensitively.
func ByName(name string) (*Format, error) {
	n := strings.ToLower(name)
	for _, f := range formats {
		if f.Name == n || slices.Contains(f.Aliases, n) {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown RDF format %q; known formats: %s", name, strings.Join(names(), ", "))
}

// ForPath finds the format of a file from its extension, looking through a
// final ".gz"; gz reports whether the file is gzip-compressed.
func ForPath(path string) (f *Format, gz bool, err error) {
	base := strings.ToLower(filepath.Base(path))
	if strings.HasSuffix(base, ".gz") {
		gz, base = true, strings.TrimSuffix(base, ".gz")
	}
	ext := filepath.Ext(base)
	for _, f := range formats {
		if slices.Contains(f.Extensions, ext) {
			return f, gz, nil
		}
	}
	return nil, gz, fmt.Errorf("%s: cannot tell the RDF format from the file name; name it with --from/--to (known: %s)", path, strings.Join(names(), ", "))
}

// Input is an opened RDF file.
type Input struct {
	rdf.Reader
	Format  *Format
	closers []io.Closer
}

// Close releases the file.
func (in *Input) Close() error { return closeAll(in.closers) }

// Open opens path ("-" for standard input) for reading. When f is nil the
// format comes from the file name. Gzip input is recognised by its ".gz"
// name or, for "-", by its magic bytes. opts.Name defaults to path.
func Open(path string, f *Format, opts rdf.ParseOptions) (*Input, error) {
	var gz bool
	if f == nil {
		var err error
		if f, gz, err = ForPath(path); err != nil {
			return nil, err
		}
	}
	if !f.CanRead() {
		return nil, fmt.Errorf("%s: mneme can write %s but not read it", path, f.Name)
	}
	if opts.Name == "" {
		opts.Name = path
	}
	var src io.Reader
	var closers []io.Closer
	if path == "-" {
		src = os.Stdin
	} else {
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		src, closers = file, append(closers, file)
		if opts.Base == "" {
			if abs, err := filepath.Abs(path); err == nil {
				opts.Base = "file://" + filepath.ToSlash(abs)
			}
		}
	}
	br := bufio.NewReaderSize(src, 1<<16)
	if !gz {
		magic, _ := br.Peek(2)
		gz = len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	}
	var r io.Reader = br
	if gz {
		zr, err := gzip.NewReader(br)
		if err != nil {
			closeAll(closers)
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		r, closers = zr, append(closers, zr)
	}
	return &Input{Reader: f.NewReader(r, opts), Format: f, closers: closers}, nil
}

// Output is an RDF file being written.
type Output struct {
	rdf.Writer
	Format  *Format
	closers []io.Closer
	buf     *bufio.Writer
}

// Close ends the document, flushes and closes the file.
func (out *Output) Close() error {
	err := out.Writer.Close()
	if ferr := out.buf.Flush(); err == nil {
		err = ferr
	}
	if cerr := closeAll(out.closers); err == nil {
		err = cerr
	}
	return err
}

// Create creates path ("-" for standard output) for writing; a ".gz"
// name is gzip-compressed. When f is nil the format comes from the name.
func Create(path string, f *Format, opts rdf.WriteOptions) (*Output, error) {
	var gz bool
	if f == nil {
		var err error
		if f, gz, err = ForPath(path); err != nil {
			return nil, err
		}
	} else {
		gz = strings.HasSuffix(strings.ToLower(path), ".gz")
	}
	if !f.CanWrite() {
		_, err := f.NewWriter(nil, opts)
		return nil, err
	}
	var dst io.Writer
	var closers []io.Closer
	if path == "-" {
		dst = os.Stdout
	} else {
		file, err := os.Create(path)
		if err != nil {
			return nil, err
		}
		dst, closers = file, append(closers, file)
	}
	if gz {
		zw := gzip.NewWriter(dst)
		// The gzip writer must close before the file it writes to.
		dst, closers = zw, append([]io.Closer{zw}, closers...)
	}
	out, err := NewOutput(dst, f, opts)
	if err != nil {
		closeAll(closers)
		return nil, err
	}
	out.closers = closers
	return out, nil
}

// NewOutput writes f to dst through a buffer; Close ends the document and
// flushes, leaving dst open.
func NewOutput(dst io.Writer, f *Format, opts rdf.WriteOptions) (*Output, error) {
	buf := bufio.NewWriterSize(dst, 1<<16)
	w, err := f.NewWriter(buf, opts)
	if err != nil {
		return nil, err
	}
	return &Output{Writer: w, Format: f, buf: buf}, nil
}

func closeAll(cs []io.Closer) error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func names() []string {
	var ns []string
	for _, f := range formats {
		ns = append(ns, f.Name)
	}
	return ns
}

func writableNames() []string {
	var ns []string
	for _, f := range formats {
		if f.CanWrite() {
			ns = append(ns, f.Name)
		}
	}
	return ns
}
