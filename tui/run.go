package tui

import (
	"context"
	"io"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/tui/archive"
	"github.com/mneme-archive/mneme/tui/backend"
	"github.com/mneme-archive/mneme/tui/campaigns"
	"github.com/mneme-archive/mneme/tui/console"
	"github.com/mneme-archive/mneme/tui/crawls"
	"github.com/mneme-archive/mneme/tui/detail"
	"github.com/mneme-archive/mneme/tui/entities"
	"github.com/mneme-archive/mneme/tui/frontier"
	"github.com/mneme-archive/mneme/tui/nodes"
	"github.com/mneme-archive/mneme/tui/review"
)

// Crawls configures the crawl screens, which are clients of a control
// API; without a Client they are left out.
type Crawls struct {
	Client *api.Client
	// Owned says the crawls run in this process and stop when it quits.
	Owned bool
	// Interval between polls (default one second; the frontier's is
	// twice as long).
	Interval time.Duration
}

// New assembles the shell over b: with a control client the crawl
// screens (crawls, crawl detail, frontier, review of learned patterns)
// first, then the SPARQL console and the archive browser, then the
// social campaigns, the entities and the cluster view. The TUI's own files (query history, saved
// queries) are kept in dataDir/tui; source names the data in the tab bar.
func New(b backend.Backend, dataDir, source string, c Crawls) *App {
	own := filepath.Join(dataDir, "tui")
	con := console.New(console.Options{
		Backend:     b,
		HistoryFile: filepath.Join(own, "history.jsonl"),
		SavedDir:    filepath.Join(own, "queries"),
	})
	if c.Client == nil {
		return NewApp(source, 0, con, archive.New(b))
	}
	return NewApp(source, 4,
		crawls.New(crawls.Options{Client: c.Client, Interval: c.Interval, Owned: c.Owned}),
		detail.New(detail.Options{Client: c.Client, Interval: c.Interval}),
		frontier.New(frontier.Options{Client: c.Client, Interval: 2 * c.Interval}),
		review.New(review.Options{Client: c.Client}),
		con, archive.New(b),
		campaigns.New(campaigns.Options{Client: c.Client, Interval: c.Interval}),
		entities.New(entities.Options{Client: c.Client}),
		nodes.New(nodes.Options{Client: c.Client, Interval: c.Interval}))
}

// Run shows app on the terminal until the user quits or ctx ends.
func Run(ctx context.Context, app *App, in io.Reader, out io.Writer) error {
	_, err := tea.NewProgram(app, tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out)).Run()
	return err
}
