package spec

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/mneme-archive/mneme/crawler/revisit"
)

// Incremental turns a crawl into a continuous one (Sigurðsson's adaptive
// revisiting): every URL fetched successfully is visited again when its
// revisit policy says, and each visit is archived as changed (a response
// record) or unchanged (a revisit record). Absent, the crawl visits each
// URL once. Zero fields take the defaults of revisit.DefaultConfig.
type Incremental struct {
	Policy string `yaml:"policy"` // "ar" (the thesis's heuristic) or "poisson"
	// ConditionalRequests sends If-None-Match / If-Modified-Since from the
	// last capture; a 304 is unchanged without a download.
	ConditionalRequests *bool `yaml:"conditional-requests,omitempty"`
	// AbortOnHeaders stops a download when the response's validators say
	// "unchanged" (scheme 4) and the host's headers have predicted well
	// (trust-min-checked predictions, trust-min-ratio of them correct).
	AbortOnHeaders  bool    `yaml:"abort-on-headers,omitempty"`
	TrustMinChecked uint32  `yaml:"trust-min-checked,omitempty"`
	TrustMinRatio   float64 `yaml:"trust-min-ratio,omitempty"`
	// EmbedsWithPage revisits the embedded resources of a page that changed
	// together with it.
	EmbedsWithPage *bool `yaml:"embeds-with-page,omitempty"`
	// Waits is the stack of wait evaluators (first match on the content
	// type wins; the last must have no content-type); Hosts overrides it
	// per host. Empty: the thesis's text, image and catch-all evaluators.
	Waits []WaitEvaluator            `yaml:"waits,omitempty"`
	Hosts map[string][]WaitEvaluator `yaml:"hosts,omitempty"`
	// Strip removes volatile sections before the content is digested;
	// Fuzzy turns on "close enough" comparison. The first rule matching a
	// URL applies.
	Strip []StripRule `yaml:"strip,omitempty"`
	Fuzzy []FuzzyRule `yaml:"fuzzy,omitempty"`
}

// WaitEvaluator is one wait evaluator (revisit.Evaluator).
type WaitEvaluator struct {
	Name            string   `yaml:"name,omitempty"`
	ContentType     string   `yaml:"content-type,omitempty"` // regular expression on the MIME type
	Initial         Duration `yaml:"initial"`
	Min             Duration `yaml:"min"`
	Max             Duration `yaml:"max"`
	Default         Duration `yaml:"default"`
	ChangedFactor   float64  `yaml:"changed-factor"`
	UnchangedFactor float64  `yaml:"unchanged-factor"`
	UseOverdue      bool     `yaml:"use-overdue,omitempty"`
}

// StripRule is a revisit.StripRule: regular expressions removed from the
// content of the URLs matching URL before digesting.
type StripRule struct {
	URL     string   `yaml:"url,omitempty"`
	Strip   []string `yaml:"strip"`
	MaxSize int      `yaml:"max-size,omitempty"`
}

// FuzzyRule is a revisit.FuzzyRule.
type FuzzyRule struct {
	URL       string  `yaml:"url,omitempty"`
	Threshold float64 `yaml:"threshold"`
}

// RevisitConfig converts the incremental section for package revisit; it
// reports every bad pattern and setting. ok is false when the crawl is not
// incremental.
func (s *Spec) RevisitConfig() (cfg revisit.Config, ok bool, err error) {
	in := s.Incremental
	if in == nil {
		return revisit.Config{}, false, nil
	}
	cfg = revisit.DefaultConfig()
	if in.Policy != "" {
		cfg.Policy = in.Policy
	}
	if in.ConditionalRequests != nil {
		cfg.ConditionalRequests = *in.ConditionalRequests
	}
	if in.EmbedsWithPage != nil {
		cfg.EmbedsWithPage = *in.EmbedsWithPage
	}
	cfg.AbortOnHeaders = in.AbortOnHeaders
	if in.TrustMinChecked > 0 {
		cfg.TrustMinChecked = in.TrustMinChecked
	}
	if in.TrustMinRatio > 0 {
		cfg.TrustMinRatio = in.TrustMinRatio
	}
	var errs []error
	re := func(where, pattern string) *regexp.Regexp {
		if pattern == "" {
			return nil
		}
		r, err := regexp.Compile(pattern)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
		return r
	}
	stack := func(where string, ws []WaitEvaluator) []revisit.Evaluator {
		out := make([]revisit.Evaluator, len(ws))
		for i, w := range ws {
			out[i] = revisit.Evaluator{
				Name: w.Name, ContentType: re(fmt.Sprintf("%s[%d].content-type", where, i), w.ContentType),
				Initial: time.Duration(w.Initial), Min: time.Duration(w.Min), Max: time.Duration(w.Max),
				Default: time.Duration(w.Default), ChangedFactor: w.ChangedFactor,
				UnchangedFactor: w.UnchangedFactor, UseOverdue: w.UseOverdue,
			}
		}
		return out
	}
	if len(in.Waits) > 0 {
		cfg.Waits.Stack = stack("incremental.waits", in.Waits)
	}
	for host, ws := range in.Hosts {
		if cfg.Waits.Hosts == nil {
			cfg.Waits.Hosts = map[string][]revisit.Evaluator{}
		}
		cfg.Waits.Hosts[host] = stack("incremental.hosts."+host, ws)
	}
	for i, r := range in.Strip {
		where := fmt.Sprintf("incremental.strip[%d]", i)
		rule := revisit.StripRule{URL: re(where+".url", r.URL), MaxSize: r.MaxSize}
		for j, p := range r.Strip {
			rule.Strip = append(rule.Strip, re(fmt.Sprintf("%s.strip[%d]", where, j), p))
		}
		cfg.Detector.Strip = append(cfg.Detector.Strip, rule)
	}
	for i, r := range in.Fuzzy {
		where := fmt.Sprintf("incremental.fuzzy[%d]", i)
		if r.Threshold <= 0 || r.Threshold > 1 {
			errs = append(errs, fmt.Errorf("%s.threshold: %g outside (0, 1]", where, r.Threshold))
		}
		cfg.Detector.Fuzzy = append(cfg.Detector.Fuzzy, revisit.FuzzyRule{URL: re(where+".url", r.URL), Threshold: r.Threshold})
	}
	if len(errs) == 0 {
		if err := cfg.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("incremental: %w", err))
		}
	}
	if len(errs) > 0 {
		return revisit.Config{}, true, errors.Join(errs...)
	}
	return cfg, true, nil
}
