package control

import (
	"errors"
	"os"
	"sync"
	"time"

	"github.com/mneme-archive/mneme/crawler"
)

// figures caches the status of crawls that are not open, recomputed from
// their crawl.log only when the log or the state file changed: clients
// poll the list every second, and a finished crawl's log can be long.
type figures struct {
	mu   sync.Mutex
	byID map[string]cachedFigures
}

type cachedFigures struct {
	log, state fileStamp
	status     crawler.Status
}

// fileStamp identifies a version of a file.
type fileStamp struct {
	size  int64
	mtime time.Time
}

func stamp(path string) (fileStamp, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return fileStamp{}, nil
	}
	if err != nil {
		return fileStamp{}, err
	}
	return fileStamp{fi.Size(), fi.ModTime()}, nil
}

// read returns the figures of crawl id of data folder data.
func (f *figures) read(data, id string) (crawler.Status, error) {
	l := crawler.Layout{Data: data}
	ls, err := stamp(l.CrawlLog(id))
	if err != nil {
		return crawler.Status{}, err
	}
	ss, err := stamp(l.State(id))
	if err != nil {
		return crawler.Status{}, err
	}
	f.mu.Lock()
	c, ok := f.byID[id]
	f.mu.Unlock()
	if ok && c.log == ls && c.state == ss {
		return c.status, nil
	}
	s, err := crawler.ReadFigures(data, id)
	if err != nil {
		return s, err
	}
	f.mu.Lock()
	if f.byID == nil {
		f.byID = map[string]cachedFigures{}
	}
	f.byID[id] = cachedFigures{log: ls, state: ss, status: s}
	f.mu.Unlock()
	return s, nil
}
