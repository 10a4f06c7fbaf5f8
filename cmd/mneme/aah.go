package main

import (
	"fmt"
	"io"

	"github.com/spf13/pflag"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/kb/aah/setup"
)

// knowledgeOptions are the flags that say what the application-aware
// helper detects applications with: mneme crawl's, and mneme serve's and
// mneme tui's for the crawls of the control API.
type knowledgeOptions struct {
	fingerprints string
	kbFiles      []string
}

func (o *knowledgeOptions) flags(f *pflag.FlagSet) {
	f.StringVar(&o.fingerprints, "fingerprints", "", "directory of Wappalyzer-format fingerprints naming technologies beyond the knowledge base")
	f.StringSliceVar(&o.kbFiles, "kb", nil, "knowledge-base files or directories to use instead of the built-in one")
}

// given reports whether a flag asks for more than the built-in KB.
func (o knowledgeOptions) given() bool { return o.fingerprints != "" || len(o.kbFiles) > 0 }

func (o knowledgeOptions) load() (*setup.Knowledge, error) {
	return setup.Load(o.kbFiles, o.fingerprints)
}

// aahOptions are the flags of mneme crawl for the application-aware helper.
type aahOptions struct {
	knowledgeOptions
	off         bool
	noAdapt     bool
	relearnFrom string
}

func (o *aahOptions) flags(f *pflag.FlagSet) {
	f.BoolVar(&o.off, "no-aah", false, "crawl with the generic link extractor only, without the application-aware helper")
	o.knowledgeOptions.flags(f)
	f.BoolVar(&o.noAdapt, "no-adapt", false, "do not adapt the knowledge base to sites whose templates it does not match")
	f.StringVar(&o.relearnFrom, "relearn-from", "", "ID of an earlier crawl of the same sites whose stored objects adaptation looks for in the pages")
}

// helper builds the application-aware helper (package kb/aah/setup, as
// the control API's crawls and the demo do) and sets it as d's analyzer;
// it returns nil with --no-aah. Unless --no-adapt, the helper adapts the
// KB to sites it fails on (package kb/adapt), with the patterns learned in
// data's kb/learned.yaml and, with --relearn-from, the objects an earlier
// crawl stored in d's store.
func (o *aahOptions) helper(d *crawler.Deps, log io.Writer, data string) (*aah.Helper, error) {
	if o.off {
		return nil, nil
	}
	if o.noAdapt && o.relearnFrom != "" {
		return nil, usagef("--relearn-from needs adaptation: drop --no-adapt")
	}
	k, err := o.load()
	if err != nil {
		return nil, err
	}
	h, err := k.Helper(setup.Options{Data: data, Store: d.Store, NoAdapt: o.noAdapt, RelearnFrom: o.relearnFrom, Log: log})
	if err != nil {
		return nil, err
	}
	d.Analyzer = h
	return h, nil
}

// closeHelper removes what h spilled to disk; h may be nil.
func closeHelper(h *aah.Helper, log io.Writer) {
	if h == nil {
		return
	}
	if err := h.Close(); err != nil {
		fmt.Fprintf(log, "mneme: %v\n", err)
	}
}

// printSites says which application the helper found on each site.
func printSites(w io.Writer, h *aah.Helper) error {
	if h == nil {
		return nil
	}
	sites, err := h.Sites()
	if err != nil {
		return err
	}
	for _, s := range sites {
		if s.App == "" {
			fmt.Fprintf(w, "  %s: no known application (%d pages, generic links)\n", s.Root, s.Pages)
			continue
		}
		fmt.Fprintf(w, "  %s: %s, %d pages (%d of a known level), %d objects extracted\n", s.Root, s.Name, s.Pages, s.Leveled, s.Objects)
	}
	return nil
}
