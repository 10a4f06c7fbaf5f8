package revisit

import (
	"math"
	"time"
)

// EstimateRate estimates a URL's change rate λ, in changes per second,
// from its revisit history: each interval tells only whether at least one
// change happened in it (incomplete change history), which biases the
// naive count/time estimate low when visits are infrequent.
//
// It is the maximum-likelihood estimator for a Poisson process observed at
// irregular intervals (Cho and Garcia-Molina, "Estimating frequency of
// change", ACM TOIT 3(3), 2003): the λ solving
//
//	Σ_changed t_i / (e^(λ t_i) − 1) = Σ_unchanged t_j
//
// with their small-sample correction: half an unchanged interval of the
// mean length is added to the right. For n regular intervals of length I
// with X changes this is exactly their estimator
// λ̂ = −log((n − X + 0.5)/(n + 0.5)) / I, finite even when every interval
// changed. When no change has been seen the estimate would be 0, so half a
// changed interval of the mean length is added too, a weak prior that
// shrinks as quiet intervals accumulate; with no history at all the
// estimate is ln 2 / prior (a change per prior interval is as likely as
// not), so prior is the URL's initial wait.
func EstimateRate(history []Interval, prior time.Duration) float64 {
	// The equation's terms: changed intervals on the left (count c and
	// total length s), exposure without change on the right.
	var total, unchanged, c, s float64
	n := 0
	for _, h := range history {
		if h.Length <= 0 {
			continue
		}
		t := h.Length.Seconds()
		total += t
		n++
		if h.Changed {
			c, s = c+1, s+t
		} else {
			unchanged += t
		}
	}
	mean := prior.Seconds()
	if n > 0 {
		mean = total / float64(n)
	}
	if mean <= 0 {
		mean = 1
	}
	unchanged += 0.5 * mean
	changed := c > 0
	if !changed {
		c, s = 0.5, 0.5*mean
	}
	f := func(lambda float64) (v, d float64) {
		v = -unchanged
		add := func(w, t float64) {
			e := math.Expm1(lambda * t)
			if math.IsInf(e, 1) {
				return
			}
			v += w * t / e
			d -= w * t * t / (e * -math.Expm1(-lambda*t))
		}
		if !changed {
			add(0.5, mean)
			return v, d
		}
		for _, h := range history {
			if h.Length > 0 && h.Changed {
				add(1, h.Length.Seconds())
			}
		}
		return v, d
	}
	// x/(e^x − 1) lies in [1 − x/2, 1], so the root lies in
	// [c/(unchanged + s/2), c/unchanged]; f is convex and decreasing, so
	// Newton's method from the lower bound climbs to the root without
	// overshooting.
	lo, hi := c/(unchanged+s/2), c/unchanged
	lambda := lo
	for range 100 {
		v, d := f(lambda)
		if v <= 0 || d >= 0 {
			break
		}
		next := min(lambda-v/d, hi)
		if next-lambda <= 1e-12*lambda {
			lambda = next
			break
		}
		lambda = next
	}
	return lambda
}
