package crawler

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

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
}

// CheckArchive verifies that the RDF of crawl id agrees with its WARC
// files: every capture that names a WARC file and offset finds there a
// response or revisit record with its record id and URL. (The converse
// need not hold: a URL fetched when a crash struck has records but no
// capture.) It reads every WARC file of the crawl.
func CheckArchive(ctx context.Context, data, id string, st *graph.Store) (*ArchiveReport, error) {
	l := Layout{Data: data}
	if _, err := os.Stat(l.Crawl(id)); err != nil {
		return nil, err
	}
	paths, err := filepath.Glob(filepath.Join(l.WARCs(id), "*.warc.gz"))
	if err != nil {
		return nil, err
	}
	rep := &ArchiveReport{URLs: map[string]int{}}
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
			if t := r.Type(); t == "response" || t == "revisit" {
				records[key{filepath.Base(p), r.Offset}] = r.Header
				rep.Records++
			}
		}
	}
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
		switch {
		case !ok:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: no record at %s:%d", capt, file, off))
		case recordIRI(h.Get("WARC-Record-ID")) != capt || h.Get("WARC-Target-URI") != vals[2][capt]:
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s of %s: %s:%d holds %s of %s", capt, vals[2][capt], file, off,
				h.Get("WARC-Record-ID"), h.Get("WARC-Target-URI")))
		}
	}
	return rep, nil
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
