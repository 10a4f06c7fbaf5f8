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
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
)

// DefaultMaxSize is the size at which a file is closed and the next begun.
const DefaultMaxSize = 1 << 30

// DefaultGzipLevel is the compression level used unless Config.GzipLevel
// says otherwise. Measured on real 45 KB pages (docs/benchmarks.md, "WARC
// writer"), level 1 of klauspost/compress costs about a quarter of the CPU
// time of compress/gzip's default level for archives about 16 % larger.
const DefaultGzipLevel = gzip.BestSpeed

// DefaultStoreSmall is the size up to which records are stored rather than
// compressed unless Config.StoreSmall says otherwise. Deflate builds its
// Huffman tables anew for every gzip member, which costs about 20 µs
// whatever the size: as much as compressing 4 KB of a page. A request
// record (about 650 bytes) compressed to about 460; stored it takes about
// 660 for almost no CPU time (docs/benchmarks.md, "WARC writer").
const DefaultStoreSmall = 1024

// Config sets up a Writer.
type Config struct {
	Dir     string // directory for WARC and CDXJ files; must exist
	Prefix  string // first part of file names; default "MNEME"
	CrawlID string // names the crawl in file names and warcinfo; required
	MaxSize int64  // a file is closed once it reaches this size; default DefaultMaxSize
	Info    Info   // warcinfo content
	// GzipLevel is the compression level of every record's gzip member, from
	// 1 (fastest) to 9 (smallest); 0 means DefaultGzipLevel.
	GzipLevel int
	// StoreSmall is the size, WARC header included, up to which a record
	// is stored in its gzip member without compression: 0 means
	// DefaultStoreSmall, a negative value compresses every record.
	StoreSmall int
	// GroupSync has writes return before their records are durable, as
	// soon as they are appended to the file's buffer (256 KB, written out
	// when full); Sync then writes out the buffer and makes every record
	// written so far durable with one fsync. A caller that commits in
	// batches (the crawler's RDF writer) syncs once a batch instead of
	// once a capture, and names only records synced before: a crash loses
	// what was not, and Repair cuts back a record left halfway.
	GroupSync bool
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
// use, and made for it: callers compress their records in parallel, only
// appending them to the file is serialised, and one fsync makes the groups of
// all callers waiting at that moment durable. The records of one call always
// go together into one file, in order, and are on disk when it returns. After
// a failed fsync or file close every later call fails, since what reached the
// disk is unknown; Repair or Recover cuts the file back before the next crawl.
type Writer struct {
	cfg     Config
	gzs     chan *compressor // compressors at cfg.GzipLevel, one per CPU
	mu      sync.Mutex
	serial  int
	closed  bool
	failed  error         // a failed fsync or file close: the file's state is unknown, so nothing more is written
	f       *os.File      // current file, nil between files
	bw      *bufio.Writer // buffers f; flushed after every group, with GroupSync when full and by Sync
	name    string        // final base name of the current file
	size    int64         // bytes written to the current file
	infoID  string        // WARC-Record-ID of the current file's warcinfo
	groups  int64         // groups of records appended since the writer began
	durable int64         // groups known to be on disk

	syncMu sync.Mutex // held by the caller that syncs for all waiting ones

	idx   *indexer      // CDXJ entries of the current file
	runs  *cdxRuns      // and its chunks written so far
	index chan indexJob // chunks and finished files waiting for their CDXJ
	// indexChunk is how many index entries the current file keeps in
	// memory (defaultIndexChunk; tests lower it).
	indexChunk int
	indexed    sync.WaitGroup
	errMu      sync.Mutex
	errs       []error // indexing failures, reported by Close
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
	if cfg.StoreSmall == 0 {
		cfg.StoreSmall = DefaultStoreSmall
	}
	if cfg.GzipLevel == 0 {
		cfg.GzipLevel = DefaultGzipLevel
	}
	if cfg.GzipLevel < gzip.BestSpeed || cfg.GzipLevel > gzip.BestCompression {
		return nil, fmt.Errorf("warc: Config.GzipLevel %d is not between 1 and 9", cfg.GzipLevel)
	}
	if cfg.Info.Hostname == "" {
		cfg.Info.Hostname, _ = os.Hostname()
	}
	cfg.Prefix, cfg.CrawlID = namePart(cfg.Prefix), namePart(cfg.CrawlID)
	serial, err := nextSerial(cfg.Dir, cfg.Prefix, cfg.CrawlID)
	if err != nil {
		return nil, err
	}
	// Compressing is CPU-bound, so more compressors than CPUs would gain
	// nothing; a fixed set also outlives garbage collections, which empty a
	// sync.Pool and would have each write allocate the encoder's tables.
	w := &Writer{cfg: cfg, serial: serial, index: make(chan indexJob, 16), gzs: make(chan *compressor, runtime.GOMAXPROCS(0)),
		indexChunk: defaultIndexChunk}
	for range cap(w.gzs) {
		gz, _ := gzip.NewWriterLevel(nil, cfg.GzipLevel) // the level was checked above
		store, _ := gzip.NewWriterLevel(nil, gzip.NoCompression)
		w.gzs <- &compressor{gz: gz, store: store}
	}
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

// write appends the records as one group and returns once they are on disk,
// so that a crash loses at most the groups still being written. The records
// are compressed before the lock is taken; their headers name the warcinfo of
// the file they go into, so a group that lands in a file begun meanwhile is
// compressed again.
func (w *Writer) write(recs []record) ([]Location, error) {
	w.mu.Lock()
	infoID := w.infoID
	w.mu.Unlock()
	members := make([]*bytes.Buffer, len(recs))
	defer func() {
		for _, m := range members {
			putMember(m)
		}
	}()
	if err := w.compressAll(members, recs, infoID); err != nil {
		return nil, fmt.Errorf("warc: %w", err)
	}
	items := make([]*cdxItem, len(recs))
	for i, r := range recs {
		items[i] = summarizeRecord(r)
	}
	w.mu.Lock()
	locs, seq, err := w.appendGroup(recs, members, infoID)
	if err == nil {
		for i, it := range items {
			w.index1(it, locs[i])
		}
	}
	w.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if w.cfg.GroupSync {
		return locs, nil
	}
	if err := w.waitDurable(seq); err != nil {
		return nil, err
	}
	return locs, nil
}

// Sync returns once every record written before it was called is durable.
// It is what makes a GroupSync writer's records durable; on any other it
// returns at once, its writes having synced already.
func (w *Writer) Sync() error {
	w.mu.Lock()
	seq := w.groups
	w.mu.Unlock()
	return w.waitDurable(seq)
}

// appendGroup appends a compressed group to the current file, beginning a new
// file first when needed, and returns its sequence number. On failure the file
// is cut back to where the group began. The caller holds w.mu.
func (w *Writer) appendGroup(recs []record, members []*bytes.Buffer, infoID string) ([]Location, int64, error) {
	if w.closed {
		return nil, 0, errors.New("warc: write after Close")
	}
	if w.failed != nil {
		return nil, 0, w.failed
	}
	if w.f != nil && w.size >= w.cfg.MaxSize {
		if err := w.finishFile(); err != nil {
			return nil, 0, err
		}
	}
	if w.f == nil {
		if err := w.startFile(); err != nil {
			return nil, 0, err
		}
	}
	if w.infoID != infoID {
		if err := w.compressAll(members, recs, w.infoID); err != nil {
			return nil, 0, fmt.Errorf("warc: %w", err)
		}
	}
	// With GroupSync earlier groups may still wait in the buffer, and undo
	// can only cut back a group when none do; a record compressed on the
	// way can fail halfway, so they are written out first.
	start, earlier := w.size, w.bw.Buffered() > 0
	if earlier && slices.Contains(members, nil) {
		if err := w.bw.Flush(); err != nil {
			return nil, 0, w.fail(err)
		}
		earlier = false
	}
	locs := make([]Location, 0, len(recs))
	for i, r := range recs {
		loc, err := w.appendMember(r, members[i])
		if err != nil && earlier {
			return nil, 0, w.fail(err)
		}
		if err != nil {
			return nil, 0, w.undo(start, err)
		}
		locs = append(locs, loc)
	}
	if !w.cfg.GroupSync {
		if err := w.bw.Flush(); err != nil {
			return nil, 0, w.undo(start, err)
		}
	}
	w.groups++
	return locs, w.groups, nil
}

// fail stops the writer for good after a write failed while groups that
// calls had already returned for were still in the buffer: some of them may
// be lost, which Sync then reports. The caller holds w.mu.
func (w *Writer) fail(cause error) error {
	w.failed = fmt.Errorf("warc: %s: %w (records not yet synced may be lost)", w.name, cause)
	return w.failed
}

// flush writes out the records waiting in the buffer. The caller holds w.mu.
func (w *Writer) flush() error {
	if w.failed != nil {
		return w.failed
	}
	if w.bw.Buffered() == 0 {
		return nil
	}
	if err := w.bw.Flush(); err != nil {
		return w.fail(err)
	}
	return nil
}

// waitDurable returns once group seq is on disk. The first caller to get here
// syncs the file for every group appended so far while the others wait, so
// concurrent writers share one fsync.
func (w *Writer) waitDurable(seq int64) error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	if w.durable >= seq {
		w.mu.Unlock()
		return nil
	}
	if err := w.flush(); err != nil {
		w.mu.Unlock()
		return err
	}
	f, name, target := w.f, w.name, w.groups
	w.mu.Unlock()
	err := f.Sync()
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil && w.durable < seq { // (a rotation that closed f meanwhile synced it first)
		// After a failed fsync the kernel may have dropped the data: nothing
		// written since can be trusted to be there. Repair cuts the file back.
		w.failed = fmt.Errorf("warc: %s: sync: %w", name, err)
		return w.failed
	}
	w.durable = max(w.durable, target)
	return nil
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

// bufferSize is the file buffer's size. With GroupSync groups gather in it
// until Sync: a write system call per group of ~9 KB costs about three times
// the CPU time per byte of one per 256 KB (docs/benchmarks.md, "WARC writer").
func (w *Writer) bufferSize() int {
	if w.cfg.GroupSync {
		return 256 << 10
	}
	return 64 << 10
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
		w.bw = bufio.NewWriterSize(f, w.bufferSize())
	} else {
		w.bw.Reset(f)
	}
	info, err := warcinfoRecord(name, w.cfg.CrawlID, w.cfg.Info)
	var loc Location
	if err == nil {
		loc, err = w.appendMember(info, nil)
	}
	if err == nil {
		err = w.bw.Flush() // so that undo never cuts into the warcinfo
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		w.f = nil
		return fmt.Errorf("warc: %s: warcinfo: %w", name, err)
	}
	w.infoID = info.id
	w.idx, w.runs = w.newIndexer(name)
	w.index1(summarizeRecord(info), loc)
	return nil
}

// finishFile syncs and closes the current file, gives it its final name and
// queues it for indexing. Every group appended so far is then durable; if
// that fails, the writer fails for good, as after a failed fsync.
func (w *Writer) finishFile() error {
	f := w.f
	w.f = nil
	path := filepath.Join(w.cfg.Dir, w.name)
	err := w.flush()
	if err == nil {
		err = f.Sync()
	}
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
		w.failed = fmt.Errorf("warc: closing %s: %w", w.name, err)
		return w.failed
	}
	w.durable = w.groups
	w.index <- indexJob{path: path, idx: w.idx, runs: w.runs}
	return nil
}

// Current is the final base name of the file being written, "" between
// files.
func (w *Writer) Current() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return ""
	}
	return w.name
}

// Serial is the serial number in the name of a WARC file this package
// wrote ("…-00012-host.warc.gz" is 12), or -1.
func Serial(name string) int {
	m := serialRE.FindStringSubmatch(name)
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return -1
	}
	return n
}

var serialRE = regexp.MustCompile(`-\d{14}-(\d{5,})-[^/]*\.warc\.gz(\.open)?$`)

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

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
