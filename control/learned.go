package control

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/adapt"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql"
)

// learned opens the data folder's file of learned patterns. It is read
// again for every request: crawls in this process or another add to it.
func (m *Manager) learned() (*adapt.Learned, error) {
	return adapt.OpenLearned(adapt.LearnedPath(m.data))
}

// Learned lists the patterns learned in the data folder and the file
// they are kept in.
func (m *Manager) Learned() ([]adapt.Proposal, string, error) {
	l, err := m.learned()
	if err != nil {
		return nil, "", err
	}
	return l.List(), l.Path(), nil
}

// Review accepts (accept true) or rejects a learned pattern.
func (m *Manager) Review(id string, accept bool) (adapt.Proposal, error) {
	l, err := m.learned()
	if err != nil {
		return adapt.Proposal{}, err
	}
	if _, ok := l.Get(id); !ok {
		return adapt.Proposal{}, fmt.Errorf("learned pattern %q: %w", id, ErrUnknown)
	}
	if accept {
		err = l.Accept(id)
	} else {
		err = l.Reject(id)
	}
	p, _ := l.Get(id)
	return p, err
}

// Preview extracts the stored capture of page (default: the first page
// the pattern was checked on) with the pattern's level of the built-in
// knowledge base, before and after adding the pattern.
func (m *Manager) Preview(ctx context.Context, id, page string) (*adapt.Preview, string, error) {
	l, err := m.learned()
	if err != nil {
		return nil, "", err
	}
	p, ok := l.Get(id)
	if !ok {
		return nil, "", fmt.Errorf("learned pattern %q: %w", id, ErrUnknown)
	}
	if page == "" {
		if len(p.Pages) == 0 {
			return nil, "", &InputError{fmt.Errorf("learned pattern %s lists no pages: give one with ?url=", id)}
		}
		page = p.Pages[0]
	}
	doc, err := m.storedPage(ctx, page)
	if err != nil {
		return nil, page, err
	}
	k, err := kb.Builtin()
	if err != nil {
		return nil, page, err
	}
	pv, err := adapt.PreviewOn(k, p, doc)
	return pv, page, err
}

// storedPage reads the latest archived response of a URL back from its
// WARC file, found through the capture's mneme:warcFile and warcOffset.
func (m *Manager) storedPage(ctx context.Context, page string) (*vdoc.Doc, error) {
	q := fmt.Sprintf(`SELECT ?file ?offset WHERE { GRAPH ?g {
  ?c <https://w3id.org/mneme#url> %s ; <http://www.w3.org/ns/prov#generatedAtTime> ?t ;
     <https://w3id.org/mneme#warcFile> ?file ; <https://w3id.org/mneme#warcOffset> ?offset .
  FILTER NOT EXISTS { ?c <https://w3id.org/mneme#duplicateOf> ?d } } }
ORDER BY DESC(?t) LIMIT 1`, rdf.IRI(page).String())
	pq, err := sparql.Prepare(q, sparql.Options{})
	if err != nil {
		return nil, &InputError{fmt.Errorf("url %q: %w", page, err)}
	}
	v := m.deps.Store.Snapshot()
	defer v.Close()
	res, err := pq.Exec(ctx, v)
	if err != nil {
		return nil, err
	}
	defer res.Close()
	if !res.Next() {
		if err := res.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("no archived response of %s: %w", page, ErrUnknown)
	}
	row := res.Row()
	file := row[0].Value
	offset, err := strconv.ParseInt(row[1].Value, 10, 64)
	if err != nil || strings.ContainsAny(file, `/\`) {
		return nil, fmt.Errorf("capture of %s: bad WARC location %q at %q", page, file, row[1].Value)
	}
	paths, _ := filepath.Glob(filepath.Join(crawler.Layout{Data: m.data}.Crawls(), "*", "warcs", file))
	if len(paths) == 0 {
		return nil, fmt.Errorf("capture of %s: WARC file %s is not in %s", page, file, m.data)
	}
	return readResponse(paths[0], offset, page)
}

// readResponse reads the response record at offset of a WARC file as a
// page.
func readResponse(path string, offset int64, page string) (*vdoc.Doc, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return nil, err
	}
	rec, err := warc.NewReader(f, path).Next()
	if err != nil {
		return nil, fmt.Errorf("%s at %d: %w", path, offset, err)
	}
	if rec.Type() != "response" {
		return nil, fmt.Errorf("%s at %d: a %s record, not a response", path, offset, rec.Type())
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
	if err != nil {
		return nil, fmt.Errorf("%s at %d: %w", path, offset, err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, fmt.Errorf("%s at %d: %w", path, offset, err)
	}
	return vdoc.New(page, resp.Header, body)
}
