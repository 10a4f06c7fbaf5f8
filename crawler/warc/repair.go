package warc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Repaired reports what Repair or Recover did to one file.
type Repaired struct {
	Path    string // the file's path after repair
	Records int    // complete records kept
	Cut     int64  // bytes cut from the end
	Reason  error  // why reading stopped early; nil when nothing was cut
	Removed bool   // no complete record was left, so Recover deleted the file
}

// Repair cuts the WARC file at path back to the end of its last complete
// capture: the longest run of gzip members from the start that each hold one
// whole, well-formed record, less a last capture (response or revisit with its
// request and metadata) missing one of its records. A crash leaves at most a
// partial capture at the end, so that is all it loses; damage earlier in a
// file also cuts everything after.
func Repair(path string) (Repaired, error) {
	res := Repaired{Path: path}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return res, fmt.Errorf("warc: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return res, fmt.Errorf("warc: %w", err)
	}
	var end int64
	ids := map[string]bool{}
	var head *Record // the last response or revisit, with the records after it
	after := 0
	r := NewReader(f, path)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			res.Reason = err
			break
		}
		end = rec.Offset + rec.Length
		res.Records++
		ids[rec.Header.Get("WARC-Record-ID")] = true
		if t := rec.Type(); t == "response" || t == "revisit" {
			rec.Block = nil
			head, after = rec, 0
		} else {
			after++
		}
	}
	// A capture's head names all its records; if one is missing the crash
	// came in the middle of the capture, and all of it goes.
	if head != nil {
		for _, id := range head.Header.GetAll("WARC-Concurrent-To") {
			if !ids[id] {
				end = head.Offset
				res.Records -= after + 1
				res.Reason = fmt.Errorf("warc: %s: capture at offset %d lacks its record %s", path, head.Offset, id)
				break
			}
		}
	}
	if end == st.Size() {
		return res, nil
	}
	res.Cut = st.Size() - end
	if err := f.Truncate(end); err != nil {
		return res, fmt.Errorf("warc: repairing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return res, fmt.Errorf("warc: repairing %s: %w", path, err)
	}
	return res, nil
}

// Recover readies dir for a resumed crawl: every file a crash left open is
// repaired and given its final name (or deleted when nothing complete is left),
// the runs of indexes a crash cut short are removed, and every WARC file
// without a CDXJ index gets one.
func Recover(dir string) ([]Repaired, error) {
	if err := removeRuns(dir); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("warc: %w", err)
	}
	var out []Repaired
	var errs []error
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".warc.gz"+openSuffix) {
			continue
		}
		res, err := recoverOpen(dir, name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, res)
	}
	entries, err = os.ReadDir(dir)
	if err != nil {
		return out, errors.Join(append(errs, fmt.Errorf("warc: %w", err))...)
	}
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !strings.HasSuffix(path, ".warc.gz") {
			continue
		}
		if _, err := os.Stat(IndexPath(path)); errors.Is(err, os.ErrNotExist) {
			if err := WriteIndex(path); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return out, errors.Join(errs...)
}

func recoverOpen(dir, name string) (Repaired, error) {
	open := filepath.Join(dir, name)
	res, err := Repair(open)
	if err != nil {
		return res, err
	}
	if res.Records == 0 {
		res.Removed = true
		if err := os.Remove(open); err != nil {
			return res, fmt.Errorf("warc: %w", err)
		}
		return res, syncDir(dir)
	}
	final := strings.TrimSuffix(open, openSuffix)
	if err := os.Rename(open, final); err != nil {
		return res, fmt.Errorf("warc: %w", err)
	}
	res.Path = final
	return res, syncDir(dir)
}
