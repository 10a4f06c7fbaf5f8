package revisit

import "fmt"

// Config is a crawl's revisit settings, as the crawler reads them.
type Config struct {
	Policy   string // PolicyAdaptive ("ar", default) or PolicyPoisson
	Waits    Waits
	Detector Detector
	// ConditionalRequests sends If-None-Match / If-Modified-Since from the
	// last capture ([ConditionalHeaders]); a 304 is then Unchanged without
	// a download.
	ConditionalRequests bool
	// AbortOnHeaders stops a download when [Scheme4] predicts no change
	// and the host's [Trust] passes TrustMinChecked and TrustMinRatio.
	AbortOnHeaders  bool
	TrustMinChecked uint32
	TrustMinRatio   float64
	// EmbedsWithPage revisits a page's embedded resources (images, style
	// sheets, scripts) together with the page when it changed.
	EmbedsWithPage bool
}

// DefaultConfig is the thesis's setup: the adaptive heuristic with
// Heritrix's evaluators, strict comparison, conditional requests on,
// downloads never aborted on headers alone, embeds revisited with a changed
// page.
func DefaultConfig() Config {
	return Config{
		Policy:              PolicyAdaptive,
		Waits:               DefaultWaits(),
		ConditionalRequests: true,
		TrustMinChecked:     20,
		TrustMinRatio:       0.95,
		EmbedsWithPage:      true,
	}
}

// Validate checks the policy name, the evaluators and the trust settings.
func (c Config) Validate() error {
	if c.Policy != PolicyAdaptive && c.Policy != PolicyPoisson {
		return fmt.Errorf("revisit: policy %q: want %s or %s", c.Policy, PolicyAdaptive, PolicyPoisson)
	}
	if c.TrustMinRatio < 0 || c.TrustMinRatio > 1 {
		return fmt.Errorf("revisit: trust ratio %g outside [0, 1]", c.TrustMinRatio)
	}
	return c.Waits.Validate()
}

// RevisitEmbeds reports whether the embedded resources of a page whose
// visit found status are to be revisited with it now.
func (c Config) RevisitEmbeds(page Status) bool { return c.EmbedsWithPage && page == Changed }

// MayAbort reports whether a download may stop on prediction p from a host
// with trust t.
func (c Config) MayAbort(p Prediction, t Trust) bool {
	return c.AbortOnHeaders && p == PredictUnchanged && t.Trusted(c.TrustMinChecked, c.TrustMinRatio)
}
