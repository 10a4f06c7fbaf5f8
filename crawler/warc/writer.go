package warc

// Why not gowarc's WarcFileWriter and record builder (github.com/nlnwa/gowarc
// v1.6.0): its writer checks rotation per record, so a request/response pair can
// be split across two files; it reports uncompressed sizes, while a CDXJ needs
// each record's compressed length; and its Close logs worker errors instead of
// returning them. Its record builder digests the payload as the raw bytes after
// the HTTP header and "fixes" a given WARC-Payload-Digest to that, which for
// chunked responses disagrees with the WARC 1.1 payload (the entity body) that
// internetarchive/gowarc's verifier recomputes. Serialising a record is a few
// lines, so this package does it and keeps gowarc for parsing (reader.go).

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// DefaultMaxSize is the size at which a file is closed and the next begun.
const DefaultMaxSize = 1 << 30

// Config sets up a Writer.
type Config struct {
	Dir     string // directory for WARC and CDXJ files; must exist
	Prefix  string // first part of file names; default "MNEME"
	CrawlID string // names the crawl in file names and warcinfo; required
	MaxSize int64  // a file is closed once it reaches this size; default DefaultMaxSize
	Info    Info   // warcinfo content
}

// Location says where a record landed: the gzip member holding it.
type Location struct {
	File     string // base name of the WARC file
	Offset   int64  // byte offset of the member in the file
	Length   int64  // compressed length of the member
	RecordID string // WARC-Record-ID
}

// Capture reports a written fetch.
type Capture struct {
	Response      Location // the response or revisit record
	Request       Location // the request record; zero when none was written
	Metadata      Location // the metadata record; zero when none was written
	PayloadDigest string   // WARC-Payload-Digest, "" when the payload was not whole
}

// Writer appends records to a series of WARC files. It is safe for concurrent
// use; the records of one call always go together into one file, in order.
type Writer struct {
	cfg    Config
	mu     sync.Mutex
	serial int
	closed bool
	f      *os.File      // current file, nil between files
	bw     *bufio.Writer // buffers f; flushed after every member
	gz     *gzip.Writer  // reused for every member
	name   string        // final base name of the current file
	size   int64         // bytes written to the current file
	infoID string        // WARC-Record-ID of the current file's warcinfo

	index   chan string // finished files waiting for their CDXJ
	indexed sync.WaitGroup
	errMu   sync.Mutex
	errs    []error // indexing failures, reported by Close
}

// NewWriter prepares a writer; the first file is created by the first write.
func NewWriter(cfg Config) (*Writer, error) {
	if cfg.CrawlID == "" {
		return nil, errors.New("warc: Config.CrawlID is required")
	}
	if cfg.Dir == "" {
		cfg.Dir = "."
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "MNEME"
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	if cfg.Info.Hostname == "" {
		cfg.Info.Hostname, _ = os.Hostname()
	}
	cfg.Prefix, cfg.CrawlID = namePart(cfg.Prefix), namePart(cfg.CrawlID)
	serial, err := nextSerial(cfg.Dir, cfg.Prefix, cfg.CrawlID)
	if err != nil {
		return nil, err
	}
	w := &Writer{cfg: cfg, serial: serial, gz: gzip.NewWriter(nil), index: make(chan string, 16)}
	w.indexed.Add(1)
	go w.indexLoop()
	return w, nil
}

// WriteExchange writes a response record and, when the request was recorded,
// the request record that goes with it.
func (w *Writer) WriteExchange(ex Exchange) (Capture, error) {
	recs, pd, err := ex.records()
	if err != nil {
		return Capture{}, err
	}
	return w.writeCapture(recs, pd)
}

// WriteRevisit writes a revisit record and, when recorded, its request.
func (w *Writer) WriteRevisit(rv Revisit) (Capture, error) {
	recs, pd, err := rv.records()
	if err != nil {
		return Capture{}, err
	}
	return w.writeCapture(recs, pd)
}

// WriteMetadata writes a metadata record on its own. Metadata about a capture
// is better given in Exchange.Metadata, which keeps it in the capture's file.
func (w *Writer) WriteMetadata(m Metadata) (Location, error) {
	rec, err := m.record()
	if err != nil {
		return Location{}, err
	}
	locs, err := w.write([]record{rec})
	if err != nil {
		return Location{}, err
	}
	return locs[0], nil
}

func (w *Writer) writeCapture(recs []record, pd string) (Capture, error) {
	locs, err := w.write(recs)
	if err != nil {
		return Capture{}, err
	}
	c := Capture{Response: locs[0], PayloadDigest: pd}
	for i, r := range recs[1:] {
		if r.typ == "request" {
			c.Request = locs[i+1]
		} else {
			c.Metadata = locs[i+1]
		}
	}
	return c, nil
}

// write appends the records as one group, then syncs the file so that a crash
// loses at most the group being written. On failure the file is cut back to
// where the group began.
func (w *Writer) write(recs []record) ([]Location, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, errors.New("warc: write after Close")
	}
	if w.f != nil && w.size >= w.cfg.MaxSize {
		if err := w.finishFile(); err != nil {
			return nil, err
		}
	}
	if w.f == nil {
		if err := w.startFile(); err != nil {
			return nil, err
		}
	}
	start := w.size
	locs := make([]Location, 0, len(recs))
	for _, r := range recs {
		loc, err := w.writeMember(r)
		if err != nil {
			return nil, w.undo(start, err)
		}
		locs = append(locs, loc)
	}
	if err := w.f.Sync(); err != nil {
		return nil, w.undo(start, err)
	}
	return locs, nil
}

// undo cuts the current file back to size start after a failed write.
func (w *Writer) undo(start int64, cause error) error {
	w.bw.Reset(w.f)
	if err := w.f.Truncate(start); err != nil {
		return fmt.Errorf("warc: %s: %w (and cutting back the partial record failed: %v)", w.name, cause, err)
	}
	if _, err := w.f.Seek(start, io.SeekStart); err != nil {
		return fmt.Errorf("warc: %s: %w (and seeking back failed: %v)", w.name, cause, err)
	}
	w.size = start
	return fmt.Errorf("warc: %s: %w", w.name, cause)
}

// writeMember writes one record as its own gzip member.
func (w *Writer) writeMember(r record) (Location, error) {
	cw := &countWriter{w: w.bw}
	w.gz.Reset(cw)
	if _, err := w.gz.Write(r.headerBytes(w.infoID)); err != nil {
		return Location{}, err
	}
	if _, err := io.Copy(w.gz, sectionOf(r.block)); err != nil {
		return Location{}, fmt.Errorf("reading block of %s: %w", r.id, err)
	}
	if _, err := w.gz.Write([]byte("\r\n\r\n")); err != nil {
		return Location{}, err
	}
	if err := w.gz.Close(); err != nil {
		return Location{}, err
	}
	if err := w.bw.Flush(); err != nil {
		return Location{}, err
	}
	loc := Location{File: w.name, Offset: w.size, Length: cw.n, RecordID: r.id}
	w.size += cw.n
	return loc, nil
}

// startFile creates the next file, under its open name, and writes its warcinfo.
func (w *Writer) startFile() error {
	name := fileName(w.cfg.Prefix, w.cfg.CrawlID, time.Now(), w.serial, namePart(w.cfg.Info.Hostname))
	f, err := os.OpenFile(filepath.Join(w.cfg.Dir, name+openSuffix), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("warc: %w", err)
	}
	w.serial++
	w.f, w.name, w.size, w.infoID = f, name, 0, ""
	if w.bw == nil {
		w.bw = bufio.NewWriterSize(f, 64<<10)
	} else {
		w.bw.Reset(f)
	}
	info, err := warcinfoRecord(name, w.cfg.CrawlID, w.cfg.Info)
	if err == nil {
		_, err = w.writeMember(info)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		w.f = nil
		return fmt.Errorf("warc: %s: warcinfo: %w", name, err)
	}
	w.infoID = info.id
	return nil
}

// finishFile syncs and closes the current file, gives it its final name and
// queues it for indexing.
func (w *Writer) finishFile() error {
	f := w.f
	w.f = nil
	path := filepath.Join(w.cfg.Dir, w.name)
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err == nil {
		err = syncDir(w.cfg.Dir)
	}
	if err != nil {
		return fmt.Errorf("warc: closing %s: %w", w.name, err)
	}
	w.index <- path
	return nil
}

// Rotate closes the current file; the next write starts a new one.
func (w *Writer) Rotate() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	return w.finishFile()
}

// Close closes the current file and waits until every finished file has its
// CDXJ index. It reports any failure of either.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	var err error
	if w.f != nil {
		err = w.finishFile()
	}
	close(w.index)
	w.mu.Unlock()
	w.indexed.Wait()
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return errors.Join(append([]error{err}, w.errs...)...)
}

// indexLoop writes the CDXJ of each finished file, off the writing path.
func (w *Writer) indexLoop() {
	defer w.indexed.Done()
	for path := range w.index {
		if err := WriteIndex(path); err != nil {
			w.errMu.Lock()
			w.errs = append(w.errs, err)
			w.errMu.Unlock()
		}
	}
}

type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
