package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/spf13/pflag"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/kb/adapt"
	"github.com/mneme-archive/mneme/kb/fingerprint"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// aahOptions are the flags of mneme crawl for the application-aware helper.
type aahOptions struct {
	off          bool
	fingerprints string
	kbFiles      []string
	noAdapt      bool
	relearnFrom  string
}

func (o *aahOptions) flags(f *pflag.FlagSet) {
	f.BoolVar(&o.off, "no-aah", false, "crawl with the generic link extractor only, without the application-aware helper")
	f.StringVar(&o.fingerprints, "fingerprints", "", "directory of Wappalyzer-format fingerprints naming technologies beyond the knowledge base")
	f.StringSliceVar(&o.kbFiles, "kb", nil, "knowledge-base files or directories to use instead of the built-in one")
	f.BoolVar(&o.noAdapt, "no-adapt", false, "do not adapt the knowledge base to sites whose templates it does not match")
	f.StringVar(&o.relearnFrom, "relearn-from", "", "ID of an earlier crawl of the same sites whose stored objects adaptation looks for in the pages")
}

// helper builds the application-aware helper and sets it as d's analyzer;
// it returns nil with --no-aah. Unless --no-adapt, the helper adapts the
// KB to sites it fails on (package kb/adapt), with the patterns learned in
// data's kb/learned.yaml and, with --relearn-from, the objects an earlier
// crawl stored in d's store.
func (o *aahOptions) helper(d *crawler.Deps, log io.Writer, data string) (*aah.Helper, error) {
	if o.off {
		return nil, nil
	}
	k, err := loadKB(o.kbFiles)
	if err != nil {
		return nil, err
	}
	var fp *fingerprint.Set
	if o.fingerprints != "" {
		if fp, err = fingerprint.Load(o.fingerprints); err != nil {
			return nil, err
		}
	}
	opts := aah.Options{Log: log}
	if !o.noAdapt {
		sess, err := o.session(k, d, log, data)
		if err != nil {
			return nil, err
		}
		opts.Observe = func(r *aah.Result) {
			if an, ok := sess.Observe(r.Doc, r.Type, r.Level); ok {
				r.Links, r.Objects, r.Failures, r.More = an.Links, an.Objects, an.Failures, an.More
			}
		}
	} else if o.relearnFrom != "" {
		return nil, usagef("--relearn-from needs adaptation: drop --no-adapt")
	}
	h := aah.New(kb.NewDetector(k, fp), opts)
	d.Analyzer = h
	return h, nil
}

// session is the adaptation session of a crawl.
func (o *aahOptions) session(k *kb.KB, d *crawler.Deps, log io.Writer, data string) (*adapt.Session, error) {
	learned, err := adapt.OpenLearned(adapt.LearnedPath(data))
	if err != nil {
		return nil, err
	}
	sess := &adapt.Session{KB: k, Learned: learned, Log: log, Fetch: fetchPage}
	if o.relearnFrom != "" {
		if d.Store == nil {
			return nil, fmt.Errorf("--relearn-from %s: the crawl has no store", o.relearnFrom)
		}
		if sess.Known, err = adapt.Known(context.Background(), d.Store.Snapshot(), crawlrdf.CrawlIRI(o.relearnFrom)); err != nil {
			return nil, err
		}
		if len(sess.Known) == 0 {
			return nil, fmt.Errorf("--relearn-from %s: no objects stored by that crawl", o.relearnFrom)
		}
	}
	return sess, nil
}

// fetchPage gets a page adaptation checks a relaxed navigation on, or
// learns from, outside the crawl's own fetches.
func fetchPage(u string) (*vdoc.Doc, error) {
	resp, err := pageClient.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	return vdoc.New(resp.Request.URL.String(), resp.Header, body)
}

var pageClient = &http.Client{Timeout: 30 * time.Second}

// printSites says which application the helper found on each site.
func printSites(w io.Writer, h *aah.Helper) {
	if h == nil {
		return
	}
	for _, s := range h.Sites() {
		if s.App == "" {
			fmt.Fprintf(w, "  %s: no known application (%d pages, generic links)\n", s.Root, s.Pages)
			continue
		}
		fmt.Fprintf(w, "  %s: %s, %d pages (%d of a known level), %d objects extracted\n", s.Root, s.Name, s.Pages, s.Leveled, s.Objects)
	}
}
