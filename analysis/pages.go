package analysis

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

	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/vdoc"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// pageIDs are the store IDs the search for plain pages names.
type pageIDs struct {
	mime, html, status, ok, app, file, offset, url, dup graph.ID
}

// plainPages lists the captures of the crawl that are HTML pages fetched
// with status 200, of no application the crawl recognised and with no
// object extracted: their main text is read from the WARC files.
func (r *run) plainPages(ctx context.Context, v *graph.View, id ids) ([]graph.ID, *pageIDs, error) {
	terms := []rdf.Term{rdf.IRI(ontology.MIMEType), rdf.String("text/html"), rdf.IRI(ontology.HTTPStatus),
		rdf.Literal("200", rdf.XSDInteger), rdf.IRI(ontology.Application), rdf.IRI(ontology.WARCFile),
		rdf.IRI(ontology.WARCOffset), rdf.IRI(ontology.URL), rdf.IRI(ontology.DuplicateOf)}
	got, err := v.LookupTerms(terms)
	if err != nil {
		return nil, nil, err
	}
	p := &pageIDs{got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7], got[8]}
	if p.mime == graph.Any || p.html == graph.Any || p.status == graph.Any || p.ok == graph.Any {
		return nil, p, nil
	}
	caps, err := values(ctx, v, graph.Pattern{P: p.mime, O: p.html, G: id.crawl}, false)
	if err != nil {
		return nil, p, err
	}
	var out []graph.ID
	for _, c := range caps {
		checks := []struct {
			pat  graph.Pattern
			want bool
		}{
			{graph.Pattern{S: c, P: p.status, O: p.ok, G: id.crawl}, true},
			{graph.Pattern{S: c, P: p.app, G: id.crawl}, false},
			{graph.Pattern{P: id.derived, O: c, G: id.crawl}, false},
			{graph.Pattern{S: c, P: id.marker, O: id.graph, G: id.graph}, false},
		}
		keep := true
		for _, ch := range checks {
			if ch.pat.P == graph.Any || ch.pat.G == graph.Any {
				continue // a term the store never held: no such quad
			}
			found, err := has(ctx, v, ch.pat)
			if err != nil {
				return nil, p, err
			}
			if found != ch.want {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	return out, p, nil
}

// readPage returns the main text of a plain page (kb.Article: its
// <article>, <main> or largest block of paragraphs) as the text of the
// page's URL; nil when it has none or cannot be read (logged).
func (r *run) readPage(ctx context.Context, v *graph.View, p *pageIDs, c graph.ID) (rdf.Term, *text, error) {
	capt, err := v.Term(c)
	if err != nil {
		return capt, nil, err
	}
	urls, err := values(ctx, v, graph.Pattern{S: c, P: p.url}, true)
	if err != nil || len(urls) == 0 {
		return capt, nil, err
	}
	u, err := v.Term(urls[0])
	if err != nil {
		return capt, nil, err
	}
	// An unchanged page's capture is a revisit: the bytes are in the
	// record of the capture it duplicates.
	rec := c
	if p.dup != graph.Any {
		if dups, err := values(ctx, v, graph.Pattern{S: c, P: p.dup}, true); err != nil {
			return capt, nil, err
		} else if len(dups) > 0 {
			rec = dups[0]
		}
	}
	files, err := values(ctx, v, graph.Pattern{S: rec, P: p.file}, true)
	if err != nil {
		return capt, nil, err
	}
	offsets, err := values(ctx, v, graph.Pattern{S: rec, P: p.offset}, true)
	if err != nil {
		return capt, nil, err
	}
	if len(files) == 0 || len(offsets) == 0 || r.o.Data == "" {
		return capt, nil, nil
	}
	ts, err := v.Terms(ctx, []graph.ID{files[0], offsets[0]}, nil)
	if err != nil {
		return capt, nil, err
	}
	body, header, err := r.response(ts[0].Value, ts[1].Value)
	if err != nil {
		r.logf("%s (%s): skipped: %v", u.Value, capt.Value, err)
		return capt, nil, nil
	}
	doc, err := vdoc.New(u.Value, header, body)
	if err != nil {
		r.logf("%s (%s): skipped: %v", u.Value, capt.Value, err)
		return capt, nil, nil
	}
	a, ok := kb.Article(doc, "")
	if !ok || strings.TrimSpace(a.Content) == "" {
		return capt, nil, nil
	}
	return capt, &text{object: u.Value, capture: capt.Value, content: a.Content}, nil
}

// response reads the HTTP response at offset of a WARC file of the data
// folder.
func (r *run) response(file, offset string) ([]byte, http.Header, error) {
	off, err := strconv.ParseInt(offset, 10, 64)
	if err != nil || strings.ContainsAny(file, `/\`) {
		return nil, nil, fmt.Errorf("bad WARC location %q at %q", file, offset)
	}
	paths, _ := filepath.Glob(filepath.Join(r.o.Data, "crawls", "*", "warcs", file))
	if len(paths) == 0 {
		return nil, nil, fmt.Errorf("WARC file %s is not in %s", file, r.o.Data)
	}
	f, err := os.Open(paths[0])
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, nil, err
	}
	rec, err := warc.NewReader(f, paths[0]).Next()
	if err != nil {
		return nil, nil, fmt.Errorf("%s at %d: %w", file, off, err)
	}
	if rec.Type() != "response" {
		return nil, nil, fmt.Errorf("%s at %d: a %s record, not a response", file, off, rec.Type())
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(rec.Block)), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%s at %d: %w", file, off, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, nil, fmt.Errorf("%s at %d: %w", file, off, err)
	}
	return body, resp.Header, nil
}
