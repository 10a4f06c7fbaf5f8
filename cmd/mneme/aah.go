package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/kb/fingerprint"
)

// aahOptions are the flags of mneme crawl for the application-aware helper.
type aahOptions struct {
	off          bool
	fingerprints string
	kbFiles      []string
}

func (o *aahOptions) flags(f *pflag.FlagSet) {
	f.BoolVar(&o.off, "no-aah", false, "crawl with the generic link extractor only, without the application-aware helper")
	f.StringVar(&o.fingerprints, "fingerprints", "", "directory of Wappalyzer-format fingerprints naming technologies beyond the knowledge base")
	f.StringSliceVar(&o.kbFiles, "kb", nil, "knowledge-base files or directories to use instead of the built-in one")
}

// helper builds the application-aware helper and sets it as d's analyzer;
// it returns nil with --no-aah.
func (o *aahOptions) helper(d *crawler.Deps, log io.Writer) (*aah.Helper, error) {
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
	h := aah.New(kb.NewDetector(k, fp), aah.Options{Log: log})
	d.Analyzer = h
	return h, nil
}

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
