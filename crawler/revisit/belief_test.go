package revisit

import (
	"math"
	"math/rand/v2"
	"testing"
)

// median returns the bin holding the posterior's median under a flat
// prior.
func median(b *Belief) int {
	w := b.posterior(&flatPrior)
	var acc float64
	for k, p := range w {
		if acc += p; acc >= 0.5 {
			return k
		}
	}
	return Bins - 1
}

func binOf(perDay float64) int {
	return int((math.Log10(perDay) - math.Log10(minRatePerDay)) / math.Log10(maxRatePerDay/minRatePerDay) * Bins)
}

// Observed at irregular intervals, from much shorter to much longer than
// the mean time between changes, a Poisson process's rate is recovered
// within a few bins (a bin is a factor 1.29), where the naive
// changes/time would be biased low.
func TestBeliefRecoversRate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, perDay := range []float64{0.05, 0.5, 5} {
		lambda := perDay / 86400
		off := 0
		const trials = 50
		for range trials {
			var b Belief
			for range forgetAfter {
				length := (0.2 + 2*r.Float64()) / lambda
				b.Observe(length, r.Float64() < -math.Expm1(-lambda*length))
			}
			off += median(&b) - binOf(perDay)
		}
		if mean := float64(off) / trials; math.Abs(mean) > 1.5 {
			t.Errorf("λ = %g/day: the median is %.1f bins off on average", perDay, mean)
		}
	}
}

func TestBeliefObserve(t *testing.T) {
	var b Belief
	if b != (Belief{}) || median(&b) != Bins/2-1 {
		t.Fatalf("the zero belief is not flat: median bin %d", median(&b))
	}
	quiet := b
	for range 5 {
		quiet.Observe(86400, false)
	}
	busy := b
	for range 5 {
		busy.Observe(3600, true)
	}
	if !(median(&quiet) < binOf(0.5) && median(&busy) > binOf(24)) {
		t.Errorf("five quiet days: median bin %d; five changed hours: median bin %d", median(&quiet), median(&busy))
	}
	// Meaningless intervals say nothing.
	same := quiet
	for _, t := range []float64{0, -1, math.NaN(), math.Inf(1), 5e-324} {
		same.Observe(t, true)
	}
	if same != quiet {
		t.Error("a non-positive or non-finite interval changed the belief")
	}
	// The most likely bin is always at 0.
	if min(quiet[0], quiet[Bins-1], busy[0], busy[Bins-1]) != 0 {
		t.Errorf("no bin at the maximum: %v %v", quiet, busy)
	}
}
