package revisit

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Evaluator is one wait evaluator of the thesis: the revisit wait of the
// URLs whose content type matches ContentType. Heritrix 1.x stacks them in
// the post-processing chain and the first that matches decides; [Waits]
// does the same.
type Evaluator struct {
	Name        string
	ContentType *regexp.Regexp // nil matches every content type

	Initial time.Duration // wait after the first visit
	Min     time.Duration // the wait never goes below...
	Max     time.Duration // ...nor above these
	Default time.Duration // fixed wait when change detection said nothing (Unknown)

	ChangedFactor   float64 // the wait is divided by this after a change
	UnchangedFactor float64 // and multiplied by this after no change
	// UseOverdue adds how late the visit was to the wait before the
	// factor applies, so a URL that was served late does not shrink its
	// wait for a change it had more time to make.
	UseOverdue bool
}

// The defaults are Heritrix 1.x's (org.archive.crawler.postprocessor
// WaitEvaluator, TextWaitEvaluator and ImageWaitEvaluator, written with the
// thesis): initial wait 1 day, minimum 1 hour, maximum 4 weeks, 3 days when
// change is unknown, both factors 1.5, overdue time not used; text/* starts
// at 12 hours and image/* at 2 days.
const (
	DefaultInitial         = 24 * time.Hour
	DefaultMin             = time.Hour
	DefaultMax             = 4 * 7 * 24 * time.Hour
	DefaultUnknownWait     = 3 * 24 * time.Hour
	DefaultChangedFactor   = 1.5
	DefaultUnchangedFactor = 1.5
	TextInitial            = 12 * time.Hour
	ImageInitial           = 48 * time.Hour
)

// DefaultEvaluator returns the catch-all evaluator with Heritrix's defaults.
func DefaultEvaluator() Evaluator {
	return Evaluator{
		Name:            "default",
		Initial:         DefaultInitial,
		Min:             DefaultMin,
		Max:             DefaultMax,
		Default:         DefaultUnknownWait,
		ChangedFactor:   DefaultChangedFactor,
		UnchangedFactor: DefaultUnchangedFactor,
	}
}

// DefaultEvaluators returns the thesis's stack: text, images, then the
// catch-all.
func DefaultEvaluators() []Evaluator {
	text, image := DefaultEvaluator(), DefaultEvaluator()
	text.Name, text.ContentType, text.Initial = "text", regexp.MustCompile(`^text/`), TextInitial
	image.Name, image.ContentType, image.Initial = "image", regexp.MustCompile(`^image/`), ImageInitial
	return []Evaluator{text, image, DefaultEvaluator()}
}

// Validate reports a setting that cannot work: bounds out of order or
// factors below 1 (which would invert the heuristic).
func (e Evaluator) Validate() error {
	switch {
	case e.Min <= 0 || e.Max < e.Min:
		return fmt.Errorf("revisit: evaluator %q: want 0 < min (%v) <= max (%v)", e.Name, e.Min, e.Max)
	case e.Initial <= 0 || e.Default <= 0:
		return fmt.Errorf("revisit: evaluator %q: initial (%v) and default (%v) waits must be positive", e.Name, e.Initial, e.Default)
	case e.ChangedFactor < 1 || e.UnchangedFactor < 1:
		return fmt.Errorf("revisit: evaluator %q: factors must be >= 1, have changed %g, unchanged %g", e.Name, e.ChangedFactor, e.UnchangedFactor)
	}
	return nil
}

// Next is the thesis's wait evaluation. prev is the URL's current wait
// (0 after its first visit), overdue how late this visit was, status what
// it found. Unknown change gives the fixed Default wait; a first visit the
// Initial wait; otherwise the previous wait (plus overdue time when
// UseOverdue) is divided by ChangedFactor after a change and multiplied by
// UnchangedFactor after none. The result is kept within [Min, Max].
func (e Evaluator) Next(prev, overdue time.Duration, status Status) time.Duration {
	var w float64
	switch {
	case status == Unknown:
		w = float64(e.Default)
	case prev <= 0:
		w = float64(e.Initial)
	default:
		w = float64(prev)
		if e.UseOverdue {
			w += float64(overdue)
		}
		if status == Changed {
			w /= e.ChangedFactor
		} else {
			w *= e.UnchangedFactor
		}
	}
	return clampWait(w, e.Min, e.Max)
}

// clampWait converts a wait in nanoseconds to a Duration within [lo, hi],
// without overflowing on huge values.
func clampWait(ns float64, lo, hi time.Duration) time.Duration {
	switch {
	case ns < float64(lo) || ns != ns:
		return lo
	case ns > float64(hi):
		return hi
	}
	return time.Duration(ns)
}

// Waits chooses the evaluator for a URL: the host's own stack when it has
// one, else the crawl's; within a stack the first whose content-type
// pattern matches.
type Waits struct {
	Stack []Evaluator
	Hosts map[string][]Evaluator // per-host overrides, by lower-case host
}

// DefaultWaits is the thesis's stack with no host overrides.
func DefaultWaits() Waits { return Waits{Stack: DefaultEvaluators()} }

// Validate checks every evaluator, and that each stack ends in one that
// matches everything, so every URL gets an evaluator.
func (w Waits) Validate() error {
	check := func(where string, stack []Evaluator) error {
		if len(stack) == 0 || stack[len(stack)-1].ContentType != nil {
			return fmt.Errorf("revisit: %s: the last evaluator must match every content type", where)
		}
		for _, e := range stack {
			if err := e.Validate(); err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
		}
		return nil
	}
	if err := check("wait evaluators", w.Stack); err != nil {
		return err
	}
	for host, stack := range w.Hosts {
		if err := check("wait evaluators for host "+host, stack); err != nil {
			return err
		}
	}
	return nil
}

// For returns the evaluator for a URL of host whose content type is mime.
// A stack without a catch-all falls back to [DefaultEvaluator].
func (w Waits) For(host, mime string) Evaluator {
	stack := w.Stack
	if s, ok := w.Hosts[strings.ToLower(host)]; ok {
		stack = s
	}
	for _, e := range stack {
		if e.ContentType == nil || e.ContentType.MatchString(mime) {
			return e
		}
	}
	return DefaultEvaluator()
}
