package tui

import (
	"context"
	"io"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/tui/archive"
	"github.com/mneme-archive/mneme/tui/backend"
	"github.com/mneme-archive/mneme/tui/console"
)

// Options configure Run.
type Options struct {
	// Connect is the URL of a `mneme serve`; empty opens the store in
	// DataDir.
	Connect string
	// DataDir is the data folder: its store (when not connecting) and
	// the TUI's own files (query history, saved queries) in DataDir/tui.
	DataDir string
}

// Open returns the backend Options name.
func Open(o Options) (backend.Backend, error) {
	if o.Connect != "" {
		return backend.NewHTTP(o.Connect)
	}
	return backend.OpenEmbedded(filepath.Join(o.DataDir, "store"))
}

// New assembles the shell and its screens over b.
func New(b backend.Backend, dataDir string) *App {
	own := filepath.Join(dataDir, "tui")
	c := console.New(console.Options{
		Backend:     b,
		HistoryFile: filepath.Join(own, "history.jsonl"),
		SavedDir:    filepath.Join(own, "queries"),
	})
	return NewApp(b.Name(), 0, c, archive.New(b))
}

// Run shows the TUI on the terminal until the user quits or ctx ends.
func Run(ctx context.Context, o Options, in io.Reader, out io.Writer) error {
	b, err := Open(o)
	if err != nil {
		return err
	}
	defer b.Close()
	p := tea.NewProgram(New(b, o.DataDir), tea.WithContext(ctx), tea.WithInput(in), tea.WithOutput(out))
	_, err = p.Run()
	return err
}
