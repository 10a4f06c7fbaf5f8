package console_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-archive/mneme/internal/tuitest"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/results"
	"github.com/mneme-archive/mneme/tui"
	"github.com/mneme-archive/mneme/tui/backend"
	"github.com/mneme-archive/mneme/tui/console"
	"github.com/mneme-archive/mneme/tui/screen"
)

const capturesQuery = `PREFIX mneme: <https://w3id.org/mneme#>
SELECT ?capture ?url ?status ?file WHERE {
?capture mneme:url ?url ; mneme:httpStatus ?status .
OPTIONAL { ?capture mneme:warcFile ?file } } ORDER BY ?capture`

// session is a TUI on the fixture archive with its data folder.
type session struct {
	*tuitest.Session
	app  *tui.App
	data string
}

func start(t *testing.T, b backend.Backend, data string) *session {
	app := tui.New(b, data, "fixture", tui.Crawls{})
	s := &session{Session: tuitest.Start(t, app), app: app, data: data}
	s.Press("e") // the console starts with the editor unfocused
	return s
}

func (s *session) console() *console.Model { return s.app.Screen(0).(*console.Model) }

// typeQuery types a query line by line, as a user would.
func (s *session) typeQuery(q string) {
	for i, line := range strings.Split(q, "\n") {
		if i > 0 {
			s.Press("enter")
		}
		s.Type(line)
	}
}

func TestRunPageScrollDetail(t *testing.T) {
	s := start(t, tuitest.Backend(t, 0), t.TempDir())
	s.typeQuery(capturesQuery)
	s.Press("ctrl+r")
	s.Wait(t, "4 rows ·")
	// The results have the focus: two rows down, one column right, detail.
	s.Press("j", "j", "l", "enter")
	s.Wait(t, "row 3 of 4")
	s.Finish(t)

	c := s.console()
	if g := c.Grid(); g.Cursor() != 2 || g.FirstColumn() != 1 || g.Len() != 4 {
		t.Errorf("cursor %d, first column %d, rows %d; want 2, 1, 4", g.Cursor(), g.FirstColumn(), g.Len())
	}
	view := strings.Join(tuitest.Lines(c.View()), "\n")
	for _, want := range []string{"row 3 of 4", "<urn:uuid:c3>", "http://blog.example/2026/hello", "two-00000.warc.gz", "200  ^^xsd:integer"} {
		if !strings.Contains(view, want) {
			t.Errorf("row detail lacks %q:\n%s", want, view)
		}
	}
	if h := c.History(); len(h) != 1 || h[0] != capturesQuery {
		t.Errorf("history %q, want the query run", h)
	}
}

func TestResultsGridAt80x24(t *testing.T) {
	s := start(t, tuitest.Backend(t, 0), t.TempDir())
	s.typeQuery(capturesQuery)
	s.Press("ctrl+r")
	s.Wait(t, "4 rows ·")
	s.Press("l", "l")
	s.Wait(t, "status")
	s.Finish(t)
	lines := tuitest.Lines(s.console().View())
	var header string
	for _, l := range lines {
		if strings.HasPrefix(l, "status") {
			header = l
		}
		if w := len([]rune(l)); w > 80 {
			t.Errorf("line wider than 80: %q", l)
		}
	}
	// Scrolled two columns right, the header starts at ?status.
	if !strings.HasPrefix(header, "status  file") {
		t.Errorf("header after scrolling %q, want it to start with status  file; view:\n%s", header, strings.Join(lines, "\n"))
	}
}

func TestSyntaxErrorPosition(t *testing.T) {
	s := start(t, tuitest.Backend(t, 0), t.TempDir())
	s.typeQuery("SELECT ?s WHERE {\n  ?s ?p ?o .\n  FILTER(?o = ) }")
	s.Press("ctrl+r")
	s.Wait(t, "syntax error at line 3")
	s.Finish(t)
	c := s.console()
	se := c.SyntaxError()
	if se == nil || se.Line != 3 || se.Col != 15 {
		t.Fatalf("syntax error %v, want one at 3:15", se)
	}
	if got := c.Selection(); got != ")" {
		t.Errorf("editor selection %q, want the character at the error", got)
	}
	view := strings.Join(tuitest.Lines(c.View()), "\n")
	want := "   3 │   FILTER(?o = ) }\n" + strings.Repeat(" ", 7+14) + "^"
	if !strings.Contains(view, want) {
		t.Errorf("view lacks the line with a caret under column 15:\n%s", view)
	}
	if !c.Typing() {
		t.Error("after a syntax error the editor should have the focus")
	}
}

func TestCancelSlowQuery(t *testing.T) {
	s := start(t, tuitest.Backend(t, 3000), t.TempDir())
	// 3000³ combinations: it would run for hours.
	s.typeQuery("SELECT (COUNT(*) AS ?n) { ?a <urn:example:p> ?x . ?b <urn:example:p> ?y . ?c <urn:example:p> ?z }")
	s.Press("ctrl+r")
	s.Wait(t, "query running")
	s.Press("esc")
	s.Wait(t, "cancelled after")
	s.Finish(t)
	c := s.console()
	if c.Running() || c.Busy() != "" {
		t.Error("the query is still marked running after its cancellation")
	}
	if !strings.Contains(c.Info(), "cancelled after") {
		t.Errorf("info %q", c.Info())
	}
}

func TestHistoryAcrossSessions(t *testing.T) {
	b, data := tuitest.Backend(t, 0), t.TempDir()
	s := start(t, b, data)
	s.typeQuery("ASK { ?s ?p ?o }")
	s.Press("ctrl+r")
	s.Wait(t, "ASK → true")
	s.Press("e", "ctrl+u")
	s.typeQuery("SELECT ?s { ?s a <http://rdfs.org/sioc/ns#Post> }")
	s.Press("ctrl+r")
	s.Wait(t, "1 row ·")
	s.Finish(t)

	s = start(t, b, data)
	s.typeQuery("draft")
	s.Press("ctrl+p", "ctrl+p")
	s.Wait(t, "ASK { ?s ?p ?o }")
	s.Finish(t)
	if got := s.console().Query(); got != "ASK { ?s ?p ?o }" {
		t.Errorf("two steps back in the history: %q", got)
	}
	if h := s.console().History(); len(h) != 2 {
		t.Errorf("history read back %q, want the two queries", h)
	}

	s = start(t, b, data)
	s.typeQuery("draft")
	s.Press("ctrl+p", "ctrl+n")
	s.Wait(t, "draft")
	s.Finish(t)
	if got := s.console().Query(); got != "draft" {
		t.Errorf("back from the history: %q, want the draft", got)
	}
}

func TestSaveAndOpenQuery(t *testing.T) {
	b, data := tuitest.Backend(t, 0), t.TempDir()
	s := start(t, b, data)
	s.typeQuery("SELECT ?url { ?c <https://w3id.org/mneme#url> ?url }")
	s.Press("ctrl+s")
	s.Type("urls")
	s.Press("enter")
	s.Wait(t, "saved ")
	s.Press("ctrl+u")
	s.Type("something else")
	s.Press("ctrl+o")
	s.Wait(t, "saved query")
	s.Press("enter")
	s.Wait(t, "SELECT ?url")
	s.Finish(t)
	if got := s.console().Query(); got != "SELECT ?url { ?c <https://w3id.org/mneme#url> ?url }" {
		t.Errorf("opened query %q", got)
	}
	b2, err := os.ReadFile(filepath.Join(data, "tui", "queries", "urls.rq"))
	if err != nil || !strings.HasPrefix(string(b2), "SELECT ?url") {
		t.Errorf("saved file: %q, %v", b2, err)
	}
}

func TestExport(t *testing.T) {
	b := tuitest.Backend(t, 0)
	out := t.TempDir()
	for _, name := range []string{"r.tsv", "r.json", "r.csv"} {
		s := start(t, b, t.TempDir())
		s.typeQuery(capturesQuery)
		s.Press("ctrl+r")
		s.Wait(t, "4 rows ·")
		s.Press("x", "ctrl+u")
		s.Type(filepath.Join(out, name))
		s.Press("enter")
		s.Wait(t, "exported 4 rows")
		s.Finish(t)

		f, err := results.ParseFormat(filepath.Ext(name))
		if err != nil {
			t.Fatal(err)
		}
		file, err := os.Open(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := results.Read(file, f, name)
		file.Close()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want := direct(t, b, capturesQuery)
		if f == results.CSV {
			want = results.CSVTerms(want)
		}
		if err := results.Equivalent(want, got, results.CompareOptions{Ordered: true}); err != nil {
			t.Errorf("%s differs from the query's answer: %v", name, err)
		}
	}
}

// direct reads a query's answer from the backend itself.
func direct(t *testing.T, b backend.Backend, q string) *results.Results {
	rows, err := b.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	r := &results.Results{Vars: rows.Vars()}
	for rows.Next() {
		r.Rows = append(r.Rows, append([]rdf.Term(nil), rows.Row()...))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

func TestFilterRows(t *testing.T) {
	s := start(t, tuitest.Backend(t, 0), t.TempDir())
	s.typeQuery(capturesQuery)
	s.Press("ctrl+r")
	s.Wait(t, "4 rows ·")
	s.Press("/")
	s.Type("hello")
	s.Press("enter")
	s.Wait(t, `filter "hello": 2 of 4`)
	s.Finish(t)
	g := s.console().Grid()
	if g.Len() != 2 || g.Total() != 4 {
		t.Errorf("filter keeps %d of %d rows, want 2 of 4", g.Len(), g.Total())
	}
	row, _ := g.Selected()
	if !strings.Contains(screen.Cell(row[1]), "hello") {
		t.Errorf("selected row %v does not match the filter", row)
	}
}
