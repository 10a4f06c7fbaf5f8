package revisit

import (
	"math"
)

// Rate grid of a [Belief]: Bins change rates spaced evenly in log λ from
// one change in about 27 years (1e-4 a day) to one every 86 seconds (1e3 a
// day), nine bins a decade. Slower rates cannot be told apart within a
// crawl and faster ones change at every visit the evaluators' minimum wait
// allows.
const (
	Bins          = 64
	minRatePerDay = 1e-4
	maxRatePerDay = 1e3
)

// gridRate holds the rate of each bin in changes per second (the
// geometric centre of the bin).
var gridRate = func() (r [Bins]float64) {
	lo, hi := math.Log(minRatePerDay/86400), math.Log(maxRatePerDay/86400)
	for k := range r {
		r[k] = math.Exp(lo + (float64(k)+0.5)*(hi-lo)/Bins)
	}
	return r
}()

// Belief is what the visits of a URL say about its change rate λ: the
// log-likelihood of each rate bin, relative to the most likely one, in
// steps of 1/beliefStep nat (0 is the most likely; 255 stands for 32 nats
// or more below it, a likelihood ratio beyond 10¹³). The zero value says
// nothing: every rate is as likely. Combined with the queue's population
// of rates ([Poisson.Population]) it gives the URL's posterior.
//
// A visit reveals only whether at least one change happened since the
// previous one (interval-censored Poisson data): an interval of t seconds
// has likelihood 1 − e^(−λt) if it ended in a change and e^(−λt) if not,
// used exactly per bin, so the bias of counting changes under infrequent
// visits does not arise. Before each update the old evidence is weighted
// by 1 − 1/forgetAfter, so the belief weighs about the last forgetAfter
// intervals and follows a rate that drifts.
type Belief [Bins]uint8

const (
	beliefStep  = 8 // quantisation steps per nat
	forgetAfter = 32
)

// Observe updates b with an interval of t seconds at whose end the
// content had changed or not.
func (b *Belief) Observe(t float64, changed bool) {
	if !(t > 0) || math.IsInf(t, 0) {
		return
	}
	var l [Bins]float64
	best := math.Inf(-1)
	for k, q := range b {
		x := gridRate[k] * t
		if changed {
			l[k] = math.Log(-math.Expm1(-x))
		} else {
			l[k] = -x
		}
		l[k] -= float64(q) / beliefStep * (1 - 1.0/forgetAfter)
		best = max(best, l[k])
	}
	if math.IsInf(best, -1) {
		return // an interval so short that no rate could change in it
	}
	for k := range b {
		b[k] = uint8(min(255, math.Round((best-l[k])*beliefStep)))
	}
}

// flatPrior weighs every bin the same.
var flatPrior = func() (f [Bins]float64) {
	for k := range f {
		f[k] = 1
	}
	return f
}()

// posterior returns the probability of each bin under the prior (weights
// of any scale).
func (b *Belief) posterior(prior *[Bins]float64) (w [Bins]float64) {
	var sum float64
	for k, q := range b {
		w[k] = prior[k] * math.Exp(-float64(q)/beliefStep)
		sum += w[k]
	}
	for k := range w {
		w[k] /= sum
	}
	return w
}

// index is the value, in captured changes, of visiting a URL now rather
// than waiting, t seconds after its last visit, when a page-second of
// staleness per second costs mu, averaged over the bins' probabilities w:
// the index of the renewal problem "maximise (captures − mu · staleness
// area − κ · requests) per unit time", whose optimal interval is where
// the index reaches κ (see [Poisson]). For a known λ it is
//
//	P(N(t) ≥ 2) + mu · ∫₀ᵗ s (1 − e^(−λs)) ds
//
// (the changes a longer wait would merge into one capture, plus the
// staleness a longer wait would add).
func index(w *[Bins]float64, t, mu float64) float64 {
	var v float64
	for k, p := range w {
		if p < 1e-12 {
			continue
		}
		x := gridRate[k] * t
		e := math.Exp(-x)
		merged := -math.Expm1(-x) - x*e
		// ∫₀ᵗ s (1 − e^(−λs)) ds = (x²/2 − 1 + e^(−x)(1 + x)) / λ², whose
		// terms cancel for small x: there it is x³/3 − x⁴/8 to within x⁵.
		var area float64
		if x < 1e-3 {
			area = x * x * x * (1.0/3 - x/8)
		} else {
			area = x*x/2 - 1 + e*(1+x)
		}
		v += p * (merged + mu*area/(gridRate[k]*gridRate[k]))
	}
	return v
}
