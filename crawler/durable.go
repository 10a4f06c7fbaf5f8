package crawler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
)

// A worker writes a fetch's WARC records before the RDF writer commits its
// capture, so a crash can leave records that no capture names: orphans.
// The crawl keeps, beside its WARC files, the name of the oldest file that
// may hold records not yet committed (the committed mark, rewritten after
// every commit); on resume the files from there on are read, every
// response or revisit record that no capture names is an orphan, and each
// is marked with a metadata record (abandonedRecord) in the new run's
// file, left out of its file's CDXJ index and dropped from the digest
// index, so that nothing refers to it; its URL was not completed, so it is
// fetched again.

// abandonedField names an orphan in its mark's metadata block.
const abandonedField = "abandonedRecord"

// uncommitted counts, per WARC file, the captures written there and not
// yet committed.
type uncommitted struct {
	mu    sync.Mutex
	files map[string]int
}

func (u *uncommitted) add(file string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.files == nil {
		u.files = map[string]int{}
	}
	u.files[file]++
}

func (u *uncommitted) done(file string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.files[file]--; u.files[file] <= 0 {
		delete(u.files, file)
	}
}

// oldest is the first file, by serial, that may hold uncommitted records:
// one of those counted, or current (the file being written) when none is.
func (u *uncommitted) oldest(current string) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	best := current
	for f := range u.files {
		if best == "" || warc.Serial(f) < warc.Serial(best) {
			best = f
		}
	}
	return best
}

// markCommitted rewrites the committed mark. It is not synced: a mark lost
// in a crash leaves an older one, which only makes recovery read more.
func (c *Crawl) markCommitted() error {
	name := c.pending.oldest(c.warcs.Current())
	if name == "" || name == c.committedMark {
		return nil
	}
	path := c.layout.Committed(c.id)
	if err := replaceFile(path, []byte(name+"\n"), false); err != nil {
		return err
	}
	c.committedMark = name
	return nil
}

// orphan is a WARC record that no capture names.
type orphan struct {
	path, id, uri, date, digest string
	offset                      int64
	marked                      bool // an earlier resume marked it already
}

// findOrphans reads the WARC files from the committed mark on (all of
// them without one) for records that no capture of the crawl names.
func findOrphans(ctx context.Context, l Layout, id string, st *graph.Store) ([]orphan, error) {
	from := -1
	if b, err := os.ReadFile(l.Committed(id)); err == nil {
		from = warc.Serial(strings.TrimSpace(string(b)))
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(l.WARCs(id), "*.warc.gz"))
	if err != nil {
		return nil, err
	}
	sort.Slice(paths, func(i, j int) bool { return warc.Serial(paths[i]) < warc.Serial(paths[j]) })
	var out []orphan
	marked := map[string]bool{}
	for _, p := range paths {
		if warc.Serial(p) < from {
			continue
		}
		offs, err := crawlrdf.CaptureOffsets(ctx, st, id, filepath.Base(p))
		if err != nil {
			return nil, err
		}
		if err := scanRecords(p, func(r *warc.Record) {
			switch r.Type() {
			case "response", "revisit":
				if !offs[r.Offset] {
					h := r.Header
					out = append(out, orphan{path: p, offset: r.Offset, id: h.Get("WARC-Record-ID"), uri: h.Get("WARC-Target-URI"),
						date: h.Get("WARC-Date"), digest: h.Get("WARC-Payload-Digest")})
				}
			case "metadata":
				for _, id := range abandonedIDs(r.Block) {
					marked[id] = true
				}
			}
		}); err != nil {
			return nil, err
		}
	}
	for i := range out {
		out[i].marked = marked[out[i].id]
	}
	return out, nil
}

// scanRecords calls fn with every record of the WARC file at path.
func scanRecords(path string, fn func(*warc.Record)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := warc.NewReader(f, path)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		fn(rec)
	}
}

// abandon marks the orphans, leaves them out of their files' indexes and
// forgets their payload digests.
func (c *Crawl) abandon(orphans []orphan) error {
	byFile := map[string]map[string]bool{}
	for _, o := range orphans {
		if byFile[o.path] == nil {
			byFile[o.path] = map[string]bool{}
		}
		byFile[o.path][o.id] = true
		if o.digest != "" {
			if err := c.dedup.forget(o.digest, o.id); err != nil {
				return err
			}
		}
		if o.marked {
			continue
		}
		if _, err := c.warcs.WriteMetadata(warc.Metadata{URL: o.uri, Extra: warc.Fields{
			{Name: abandonedField, Value: o.id},
			{Name: "abandonedAt", Value: fmt.Sprintf("%s %d", filepath.Base(o.path), o.offset)},
			{Name: "abandonedDate", Value: o.date},
			{Name: "reason", Value: "the crawl stopped before this capture was committed; the URL was fetched again"},
		}}); err != nil {
			return err
		}
	}
	if err := c.warcs.Sync(); err != nil {
		return err
	}
	for path, ids := range byFile {
		skip := func(_ int64, h warc.Fields) bool {
			return ids[h.Get("WARC-Record-ID")] || ids[h.Get("WARC-Concurrent-To")]
		}
		if err := warc.WriteIndexExcept(path, skip); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.deps.Log, "%d WARC captures that a crash left uncommitted are marked abandoned and left out of the index\n", len(orphans))
	return nil
}
