package crawler

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mneme-archive/mneme/graph"
)

// Layout names the files of a data folder.
type Layout struct{ Data string }

// Store is the folder of the quad store shared by all crawls.
func (l Layout) Store() string { return filepath.Join(l.Data, "store") }

// Crawls is the folder holding one folder per crawl.
func (l Layout) Crawls() string { return filepath.Join(l.Data, "crawls") }

// Crawl is the folder of one crawl.
func (l Layout) Crawl(id string) string { return filepath.Join(l.Crawls(), id) }

// Spec is the crawl's specification file.
func (l Layout) Spec(id string) string { return filepath.Join(l.Crawl(id), "spec.yaml") }

// Frontier is the crawl's frontier database.
func (l Layout) Frontier(id string) string { return filepath.Join(l.Crawl(id), "frontier") }

// Digests is the crawl's payload digest index.
func (l Layout) Digests(id string) string { return filepath.Join(l.Crawl(id), "digests") }

// WARCs is the folder of the crawl's WARC files.
func (l Layout) WARCs(id string) string { return filepath.Join(l.Crawl(id), "warcs") }

// CrawlLog is the crawl's crawl.log.
func (l Layout) CrawlLog(id string) string { return filepath.Join(l.Crawl(id), "crawl.log") }

// Committed holds the name of the crawl's oldest WARC file that may hold
// records not yet committed (see durable.go).
func (l Layout) Committed(id string) string { return filepath.Join(l.Crawl(id), "committed") }

// State is the crawl's state file.
func (l Layout) State(id string) string { return filepath.Join(l.Crawl(id), "state") }

// Token is the bearer token file of the URL injection service.
func (l Layout) Token() string { return filepath.Join(l.Data, "token") }

// OpenStore opens the data folder's quad store read-write, creating the
// folders it needs.
func (l Layout) OpenStore() (*graph.Store, error) {
	if err := os.MkdirAll(l.Store(), 0o755); err != nil {
		return nil, err
	}
	st, err := graph.Open(l.Store(), graph.OpenOptions{})
	if err != nil {
		return nil, fmt.Errorf("opening the store %s: %w", l.Store(), err)
	}
	return st, nil
}
