package crawler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/crawler/warc"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// ArchiveReport is what CheckArchive found.
type ArchiveReport struct {
	Captures int            // captures with a WARC record in the crawl's graph
	URLs     map[string]int // captures per URL
	Records  int            // response and revisit records in the WARC files
	Problems []string       // captures whose record is missing or different
	// Abandoned maps the records that a crash left uncommitted and a
	// resume marked abandoned (file, offset) to their record ids.
	Abandoned map[string]string
	// Orphans are the response and revisit records that no capture names
	// and no abandonment mark either ("file:offset id URL").
	Orphans []string
}

// CheckArchive verifies that the RDF of crawl id agrees with its WARC
// files: every capture that names a WARC file and offset finds there a
// response or revisit record with its record id and URL. Conversely, a
// record that no capture names (fetched when a crash struck) must be
// marked abandoned; those that are not are Orphans. It reads every WARC
// file of the crawl.
func CheckArchive(ctx context.Context, data, id string, st *graph.Store) (*ArchiveReport, error) {
	l := Layout{Data: data}
	if _, err := os.Stat(l.Crawl(id)); err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(l.WARCs(id), "*.warc.gz"))
	if err != nil {
		return nil, err
	}
	rep := &ArchiveReport{URLs: map[string]int{}, Abandoned: map[string]string{}}
	marked := map[string]bool{}
	type key struct {
		file string
		off  int64
	}
	records := map[key]warc.Fields{}
	for _, p := range paths {
		recs, err := warc.ReadFile(p)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			switch r.Type() {
			case "response", "revisit":
				records[key{filepath.Base(p), r.Offset}] = r.Header
				rep.Records++
			case "metadata":
				for _, id := range abandonedIDs(r.Block) {
					marked[id] = true
				}
			}
		}
	}
	named := map[key]bool{}
	props := []string{ontology.WARCFile, ontology.WARCOffset, ontology.URL}
	vals := make([]map[string]string, len(props))
	for i, p := range props {
		if vals[i], err = objectsOf(ctx, st, id, p); err != nil {
			return nil, err
		}
	}
	for capt, file := range vals[0] {
		rep.Captures++
		rep.URLs[vals[2][capt]]++
		off, err := strconv.ParseInt(vals[1][capt], 10, 64)
		if err != nil {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: bad offset %q", capt, vals[1][capt]))
			continue
		}
		h, ok := records[key{file, off}]
		named[key{file, off}] = true
		switch {
		case !ok:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: no record at %s:%d", capt, file, off))
		case recordIRI(h.Get("WARC-Record-ID")) != capt || h.Get("WARC-Target-URI") != vals[2][capt]:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s of %s: %s:%d holds %s of %s", capt, vals[2][capt], file, off,
				h.Get("WARC-Record-ID"), h.Get("WARC-Target-URI")))
		}
	}
	for k, h := range records {
		if named[k] {
			continue
		}
		id := h.Get("WARC-Record-ID")
		if marked[id] {
			rep.Abandoned[k.file+":"+strconv.FormatInt(k.off, 10)] = id
		} else {
			rep.Orphans = append(rep.Orphans, fmt.Sprintf("%s:%d %s %s", k.file, k.off, id, h.Get("WARC-Target-URI")))
		}
	}
	return rep, nil
}

// abandonedIDs returns the record ids a metadata block marks abandoned.
func abandonedIDs(block []byte) []string {
	var ids []string
	for _, line := range strings.Split(string(block), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), abandonedField+": "); ok {
			ids = append(ids, strings.TrimSpace(v))
		}
	}
	return ids
}

// objectsOf maps each subject of predicate p in the crawl's graph to one
// object value. The graph holds one value per capture for the properties
// CheckArchive reads.
func objectsOf(ctx context.Context, st *graph.Store, id, p string) (map[string]string, error) {
	out := map[string]string{}
	ids, err := st.LookupTerms([]rdf.Term{rdf.IRI(p), rdf.IRI(crawlrdf.CrawlIRI(id))})
	if err != nil || ids[0] == graph.Any || ids[1] == graph.Any {
		return out, err
	}
	it, err := st.Scan(ctx, graph.Pattern{P: ids[0], G: ids[1]}, graph.ScanOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var terms []rdf.Term
	for it.Next() {
		q := it.Quad()
		if terms, err = st.Terms(ctx, []graph.ID{q.S, q.O}, terms); err != nil {
			return nil, err
		}
		out[terms[0].Value] = terms[1].Value
	}
	return out, it.Err()
}
