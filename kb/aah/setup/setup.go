// Package setup builds a crawl's application-aware helper as every way of
// crawling uses it — mneme crawl, the control API's crawls (mneme serve,
// mneme tui) and mneme demo: the knowledge base (built-in or files),
// optional Wappalyzer fingerprints, and adaptation (package kb/adapt)
// with the patterns learned in the data folder.
package setup

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/mneme-archive/mneme/crawler/crawlrdf"
	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/kb"
	"github.com/mneme-archive/mneme/kb/aah"
	"github.com/mneme-archive/mneme/kb/adapt"
	"github.com/mneme-archive/mneme/kb/fingerprint"
)

// Knowledge is what helpers detect applications with. Loaded once, it is
// shared by the crawls of a process: a helper only reads it.
type Knowledge struct {
	KB           *kb.KB
	Fingerprints *fingerprint.Set // nil: only the KB names applications
	det          *kb.Detector
}

// Load reads the knowledge base files or directories kbFiles (the
// built-in KB when there are none) and, when fingerprints is not empty,
// the Wappalyzer-format fingerprints of that directory: those of the
// technologies that name an application (kb.NamesApplication), the only
// ones a crawl's detection looks at.
func Load(kbFiles []string, fingerprints string) (*Knowledge, error) {
	k, err := LoadKB(kbFiles)
	if err != nil {
		return nil, err
	}
	var fp *fingerprint.Set
	if fingerprints != "" {
		if fp, err = fingerprint.LoadOnly(fingerprints, kb.NamesApplication); err != nil {
			return nil, err
		}
	}
	return &Knowledge{KB: k, Fingerprints: fp, det: kb.NewDetector(k, fp)}, nil
}

// LoadKB reads the knowledge base files or directories, the built-in KB
// when there are none.
func LoadKB(files []string) (*kb.KB, error) {
	if len(files) == 0 {
		return kb.Builtin()
	}
	return kb.LoadFiles(files...)
}

// Options are one crawl's helper settings.
type Options struct {
	// Data is the data folder, whose kb/learned.yaml holds the patterns
	// adaptation learns; Store its store, which RelearnFrom reads.
	Data  string
	Store *graph.Store
	// NoAdapt turns adaptation off: the KB is used as it is.
	NoAdapt bool
	// RelearnFrom is the ID of an earlier crawl of the same sites whose
	// stored objects adaptation looks for in the pages ("": a cold start,
	// relaxation only).
	RelearnFrom string
	Log         io.Writer // detection and adaptation lines; default discarded
}

// ErrRelearnNoAdapt is returned for RelearnFrom without adaptation.
var ErrRelearnNoAdapt = errors.New("relearning from an earlier crawl needs adaptation")

// Helper returns a new helper for one crawl (a helper's knowledge of
// sites lasts as long as the crawl; close it when the crawl ends: it
// spills sites beyond the ones it keeps in RAM to a directory of the
// data folder).
func (k *Knowledge) Helper(o Options) (*aah.Helper, error) {
	opts := aah.Options{Log: o.Log, SpillDir: o.Data}
	if !o.NoAdapt {
		sess, err := k.session(o)
		if err != nil {
			return nil, err
		}
		opts.Observe = sess.ObserveResult
	} else if o.RelearnFrom != "" {
		return nil, ErrRelearnNoAdapt
	}
	return aah.New(k.det, opts), nil
}

// session is the adaptation session of a crawl.
func (k *Knowledge) session(o Options) (*adapt.Session, error) {
	learned, err := adapt.OpenLearned(adapt.LearnedPath(o.Data))
	if err != nil {
		return nil, err
	}
	sess := &adapt.Session{KB: k.KB, Learned: learned, Log: o.Log}
	if o.RelearnFrom == "" {
		return sess, nil
	}
	if o.Store == nil {
		return nil, fmt.Errorf("relearning from crawl %s: no store", o.RelearnFrom)
	}
	v := o.Store.Snapshot()
	defer v.Close()
	if sess.Known, err = adapt.Known(context.Background(), v, crawlrdf.CrawlIRI(o.RelearnFrom)); err != nil {
		return nil, err
	}
	if len(sess.Known) == 0 {
		return nil, fmt.Errorf("relearning from crawl %s: no objects stored by that crawl", o.RelearnFrom)
	}
	return sess, nil
}
