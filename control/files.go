package control

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

// Top returns up to limit of the best-scored queued URLs of a crawl open
// here.
func (m *Manager) Top(id string, limit int) ([]frontier.Queued, error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e == nil {
		if _, _, err := m.Status(id); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("crawl %s is not open (start it): %w", id, ErrConflict)
	}
	return e.c.Top(limit)
}

// LogTail returns up to n of the last lines of a crawl's crawl.log,
// oldest first; none while nothing was logged.
func (m *Manager) LogTail(id string, n int) ([]string, error) {
	if _, _, err := m.Status(id); err != nil {
		return nil, err
	}
	f, err := os.Open(crawler.Layout{Data: m.data}.CrawlLog(id))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return tail(f, n)
}

// tail reads the last n complete lines of f backwards in blocks, so that
// a long log costs only what is returned. A last line still being
// written (no newline yet) is left out.
func tail(f *os.File, n int) ([]string, error) {
	end, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, err
	}
	const block = 64 << 10
	var buf []byte
	pos := end
	for pos > 0 && bytes.Count(buf, []byte{'\n'}) <= n {
		size := min(int64(block), pos)
		pos -= size
		chunk := make([]byte, size)
		if _, err := f.ReadAt(chunk, pos); err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		buf = append(chunk, buf...)
	}
	i := bytes.LastIndexByte(buf, '\n')
	if i < 0 {
		return nil, nil
	}
	lines := strings.Split(string(buf[:i]), "\n")
	if pos > 0 {
		lines = lines[1:] // the first may be cut
	}
	return lines[max(len(lines)-n, 0):], nil
}

// WARCs lists the WARC files a crawl has written, by name.
func (m *Manager) WARCs(id string) ([]api.WARCFile, error) {
	if _, _, err := m.Status(id); err != nil {
		return nil, err
	}
	dir := crawler.Layout{Data: m.data}.WARCs(id)
	ents, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return []api.WARCFile{}, nil
	}
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, e := range ents {
		names[e.Name()] = true
	}
	out := []api.WARCFile{}
	for _, e := range ents {
		name := e.Name()
		open := strings.HasSuffix(name, ".warc.gz.open")
		if !open && !strings.HasSuffix(name, ".warc.gz") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed since the listing: renamed when closed
		}
		base := strings.TrimSuffix(strings.TrimSuffix(name, ".open"), ".warc.gz")
		out = append(out, api.WARCFile{Name: name, Size: info.Size(), Open: open, CDXJ: names[base+".cdxj"], Modified: info.ModTime().UTC()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
