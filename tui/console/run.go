package console

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/tui/backend"
)

// MaxShownRows is how many rows of a result the console keeps to show;
// an export runs the query again and writes every row.
const MaxShownRows = 10000

// queryDoneMsg carries a finished (or failed, or cancelled) run.
type queryDoneMsg struct {
	id        int
	query     string
	vars      []string
	rows      [][]rdf.Term
	ask       bool
	answer    bool
	truncated bool
	elapsed   time.Duration
	err       error
}

// exportDoneMsg carries a finished export.
type exportDoneMsg struct {
	id      int
	path    string
	rows    int
	elapsed time.Duration
	err     error
}

// savedMsg carries the saved queries, for the picker.
type savedMsg struct {
	queries []savedQuery
	err     error
}

// runQuery reads up to MaxShownRows rows of the query's answer.
func runQuery(ctx context.Context, b backend.Backend, id int, query string) tea.Cmd {
	return func() tea.Msg {
		start := time.Now()
		msg := queryDoneMsg{id: id, query: query}
		rows, err := b.Query(ctx, query)
		if err != nil {
			msg.err, msg.elapsed = err, time.Since(start)
			return msg
		}
		defer rows.Close()
		msg.vars = rows.Vars()
		msg.answer, msg.ask = rows.Boolean()
		for rows.Next() {
			if len(msg.rows) == MaxShownRows {
				msg.truncated = true
				break
			}
			msg.rows = append(msg.rows, cloneRow(rows.Row()))
		}
		msg.err, msg.elapsed = rows.Err(), time.Since(start)
		return msg
	}
}

// cloneRow copies a row, which the backend reuses.
func cloneRow(row []rdf.Term) []rdf.Term { return append([]rdf.Term(nil), row...) }

// exportQuery runs the query again and streams every row into path, in
// the format its extension names (.csv, .tsv, .json or .srj, .xml or
// .srx). The file appears only when the export succeeds.
func exportQuery(ctx context.Context, b backend.Backend, id int, query, path string) tea.Cmd {
	return func() tea.Msg {
		start := time.Now()
		n, err := export(ctx, b, query, path)
		return exportDoneMsg{id: id, path: path, rows: n, elapsed: time.Since(start), err: err}
	}
}

func export(ctx context.Context, b backend.Backend, query, path string) (int, error) {
	f, err := results.ParseFormat(filepath.Ext(path))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	rows, err := b.Query(ctx, query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	tmp, err := os.CreateTemp(filepath.Dir(path), ".export-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	n, err := writeRows(results.NewWriter(tmp, f), rows)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("%s: %w", path, err)
	}
	return n, os.Rename(tmp.Name(), path)
}

func writeRows(w results.Writer, rows backend.Rows) (int, error) {
	if answer, ok := rows.Boolean(); ok {
		if err := w.Boolean(answer); err != nil {
			return 0, err
		}
		return 0, w.Close()
	}
	if err := w.Head(rows.Vars()); err != nil {
		return 0, err
	}
	n := 0
	for rows.Next() {
		if err := w.Row(rows.Row()); err != nil {
			return n, err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return n, err
	}
	return n, w.Close()
}

func listSavedCmd(dir string) tea.Cmd {
	return func() tea.Msg {
		q, err := listSaved(dir)
		return savedMsg{q, err}
	}
}
