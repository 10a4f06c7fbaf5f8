package crawlrdf

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/rdf"
)

// Cut is a WARC file that crash recovery shortened: records at or beyond
// Size are gone (all of them when Removed).
type Cut struct {
	File    string // base name, as in mneme:warcFile
	Size    int64
	Removed bool
}

// Reconcile deletes from the crawl's graph every capture whose WARC record
// was cut away, with its links, so that the graph never points into a
// missing part of a file. It returns how many captures it dropped.
func Reconcile(ctx context.Context, s *graph.Store, crawlID string, cuts []Cut) (int, error) {
	g := rdf.IRI(CrawlIRI(crawlID))
	ids, err := s.LookupTerms([]rdf.Term{g, iri(ontology.WARCFile), iri(ontology.WARCOffset), iri(ontology.LinkSource)})
	if err != nil {
		return 0, err
	}
	gID, fileP, offP, srcP := ids[0], ids[1], ids[2], ids[3]
	if gID == graph.Any || fileP == graph.Any {
		return 0, nil // nothing written yet
	}
	var doomed []graph.ID
	for _, c := range cuts {
		fileID, found, err := s.Lookup(rdf.String(c.File))
		if err != nil {
			return 0, err
		}
		if !found {
			continue
		}
		caps, err := collect(ctx, s, graph.Pattern{P: fileP, O: fileID, G: gID}, func(q graph.IDQuad) graph.ID { return q.S })
		if err != nil {
			return 0, err
		}
		for _, capID := range caps {
			cut := c.Removed
			if !cut {
				off, err := offset(ctx, s, capID, offP, gID)
				if err != nil {
					return 0, err
				}
				cut = off >= c.Size
			}
			if cut {
				doomed = append(doomed, capID)
			}
		}
	}
	if len(doomed) == 0 {
		return 0, nil
	}
	b := s.NewBatch()
	for _, capID := range doomed {
		subjects := []graph.ID{capID}
		if srcP != graph.Any {
			links, err := collect(ctx, s, graph.Pattern{P: srcP, O: capID, G: gID}, func(q graph.IDQuad) graph.ID { return q.S })
			if err != nil {
				return 0, err
			}
			subjects = append(subjects, links...)
		}
		for _, subj := range subjects {
			if err := deleteSubject(ctx, s, b, subj, gID); err != nil {
				return 0, err
			}
		}
	}
	if _, err := b.Commit(ctx); err != nil {
		return 0, fmt.Errorf("reconciling crawl %s with its WARC files: %w", crawlID, err)
	}
	return len(doomed), nil
}

// collect returns pick(q) for every quad matching pat.
func collect(ctx context.Context, s *graph.Store, pat graph.Pattern, pick func(graph.IDQuad) graph.ID) ([]graph.ID, error) {
	it, err := s.Scan(ctx, pat, graph.ScanOptions{})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []graph.ID
	for it.Next() {
		out = append(out, pick(it.Quad()))
	}
	return out, it.Err()
}

// offset reads the mneme:warcOffset of a capture.
func offset(ctx context.Context, s *graph.Store, capID, offP, gID graph.ID) (int64, error) {
	objs, err := collect(ctx, s, graph.Pattern{S: capID, P: offP, G: gID}, func(q graph.IDQuad) graph.ID { return q.O })
	if err != nil || len(objs) == 0 {
		return 0, err
	}
	t, err := s.Term(objs[0])
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(t.Value, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("capture offset %s: %w", t, err)
	}
	return n, nil
}

// deleteSubject adds the deletion of every quad of subj in the graph to b.
func deleteSubject(ctx context.Context, s *graph.Store, b *graph.Batch, subj, gID graph.ID) error {
	it, err := s.Scan(ctx, graph.Pattern{S: subj, G: gID}, graph.ScanOptions{})
	if err != nil {
		return err
	}
	defer it.Close()
	var terms []rdf.Term
	for it.Next() {
		q := it.Quad()
		if terms, err = s.Terms(ctx, []graph.ID{q.S, q.P, q.O, q.G}, terms); err != nil {
			return err
		}
		b.Delete(rdf.Quad{S: terms[0], P: terms[1], O: terms[2], G: terms[3]})
	}
	return it.Err()
}

// CaptureOffsets returns the offsets of the records that the crawl's
// captures name in WARC file file (a base name): what a record there
// needs to be part of the archive.
func CaptureOffsets(ctx context.Context, s *graph.Store, crawlID, file string) (map[int64]bool, error) {
	out := map[int64]bool{}
	ids, err := s.LookupTerms([]rdf.Term{rdf.IRI(CrawlIRI(crawlID)), iri(ontology.WARCFile), iri(ontology.WARCOffset)})
	if err != nil {
		return nil, err
	}
	gID, fileP, offP := ids[0], ids[1], ids[2]
	if gID == graph.Any || fileP == graph.Any || offP == graph.Any {
		return out, nil
	}
	fileID, found, err := s.Lookup(rdf.String(file))
	if err != nil || !found {
		return out, err
	}
	caps, err := collect(ctx, s, graph.Pattern{P: fileP, O: fileID, G: gID}, func(q graph.IDQuad) graph.ID { return q.S })
	if err != nil {
		return nil, err
	}
	for _, capID := range caps {
		off, err := offset(ctx, s, capID, offP, gID)
		if err != nil {
			return nil, err
		}
		out[off] = true
	}
	return out, nil
}
