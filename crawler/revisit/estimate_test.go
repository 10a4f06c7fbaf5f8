package revisit

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func regular(n, changed int, every time.Duration) []Interval {
	h := make([]Interval, n)
	for i := range h {
		h[i] = Interval{Length: every, Changed: i < changed}
	}
	return h
}

// With regular intervals the estimate is Cho and Garcia-Molina's closed form.
func TestEstimateRegularMatchesChoGarciaMolina(t *testing.T) {
	I := 6 * time.Hour
	for n := 1; n <= 20; n++ {
		for x := 1; x <= n; x++ {
			want := -math.Log((float64(n-x)+0.5)/(float64(n)+0.5)) / I.Seconds()
			got := EstimateRate(regular(n, x, I), 24*time.Hour)
			if math.Abs(got-want) > 1e-9*want {
				t.Fatalf("n=%d X=%d: %g, want %g", n, x, got, want)
			}
		}
	}
}

func TestEstimatePriorAndQuietURLs(t *testing.T) {
	day := 24 * time.Hour
	if got, want := EstimateRate(nil, day), math.Ln2/day.Seconds(); math.Abs(got-want) > 1e-12 {
		t.Errorf("no history: %g, want ln2/day = %g", got, want)
	}
	prev := math.Inf(1)
	for n := 1; n <= 10; n++ {
		got := EstimateRate(regular(n, 0, day), day)
		if !(got > 0 && got < prev) {
			t.Fatalf("%d quiet intervals: estimate %g, want positive and below %g", n, got, prev)
		}
		prev = got
	}
	// Zero-length intervals say nothing.
	h := append(regular(3, 1, day), Interval{Length: 0, Changed: true})
	if a, b := EstimateRate(h, day), EstimateRate(regular(3, 1, day), day); a != b {
		t.Errorf("zero-length interval changed the estimate: %g vs %g", a, b)
	}
}

// On simulated Poisson processes observed at irregular intervals the
// estimate lands near the true rate, where the naive changes/time does not.
func TestEstimateIrregularRecoversRate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, lambdaPerDay := range []float64{0.2, 1, 5} {
		lambda := lambdaPerDay / 86400
		var sum float64
		const trials = 200
		for range trials {
			var h []Interval
			for range historySize {
				length := (0.2 + 2*r.Float64()) / lambda // 0.2 to 2.2 mean change intervals
				changed := r.Float64() < 1-math.Exp(-lambda*length)
				h = append(h, Interval{Length: time.Duration(length * 1e9), Changed: changed})
			}
			sum += EstimateRate(h, 24*time.Hour)
		}
		if mean := sum / trials; math.Abs(mean-lambda)/lambda > 0.15 {
			t.Errorf("λ = %g/day: mean estimate %g/day, more than 15%% off", lambdaPerDay, mean*86400)
		}
	}
}
