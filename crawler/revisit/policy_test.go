package revisit

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestNewPolicy(t *testing.T) {
	p, err := NewPolicy(PolicyUniform, 10000, 10000.0/86400)
	if err != nil {
		t.Fatal(err)
	}
	if w := p.Wait(&State{}, 0, Changed, DefaultEvaluator()); w < 24*time.Hour-time.Millisecond || w > 24*time.Hour+time.Millisecond {
		t.Errorf("uniform over 10,000 URLs at 10,000 requests/day: wait %v, want a day", w)
	}
	for _, name := range []string{PolicyAdaptive, PolicyPoisson} {
		if p, err := NewPolicy(name, 1, 1); err != nil || p.Name() != name {
			t.Errorf("%s: %v, %v", name, p, err)
		}
	}
	for _, c := range []struct {
		name string
		rate float64
		want string
	}{{"lru", 1, "unknown policy"}, {"ar", 0, "positive"}, {"ar", math.Inf(1), "finite"}} {
		if _, err := NewPolicy(c.name, 1, c.rate); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewPolicy(%q, %g): %v, want %q", c.name, c.rate, err, c.want)
		}
	}
}

// visits records n visits of a URL whose content changes every visit or
// never, each when due, and returns the State.
func visits(p Policy, n int, changing bool) State {
	s := State{Due: t0}
	at := t0
	for i := range n {
		st := Unchanged
		if i == 0 || changing {
			st = Changed
		}
		s.Record(Visit{At: at, Status: st, HasDigest: true}, p, DefaultEvaluator())
		at = s.Due
	}
	return s
}

func TestPoissonLearnsRates(t *testing.T) {
	fast := visits(&Poisson{Rate: 1}, 12, true)
	quiet := visits(&Poisson{Rate: 1}, 12, false)
	if !(fast.Wait < 12*time.Hour && quiet.Wait > 4*24*time.Hour && quiet.Wait > 10*fast.Wait) {
		t.Errorf("waits: always changing %v, never changing %v", fast.Wait, quiet.Wait)
	}
	ev := DefaultEvaluator()
	if fast.Wait < ev.Min || quiet.Wait > ev.Max {
		t.Errorf("waits outside the evaluator's bounds: %v, %v", fast.Wait, quiet.Wait)
	}
}

// sharp is a belief certain of bin k's rate.
func sharp(k int) Belief {
	var b Belief
	for i := range b {
		b[i] = 255
	}
	b[k] = 0
	return b
}

// For a known rate, the wait at which the index reaches κ maximises the
// renewal objective [P(N(T) ≥ 1) − μ ∫₀ᵀ age − κ] / T: the index policy
// is the per-URL optimum the Poisson policy claims.
func TestCrossingMaximisesRenewalObjective(t *testing.T) {
	const kappa = 0.6
	tau := 86400.0
	mu := 2 * kappa / (tau * tau)
	for _, k := range []int{5, 20, 30, 38, 45} {
		lambda := gridRate[k]
		objective := func(T float64) float64 {
			x := lambda * T
			captured := -math.Expm1(-x)
			// ∫₀ᵀ E[age(s)] ds with E[age(s)] = s − (1 − e^(−λs))/λ.
			area := T*T/2 - T/lambda + captured/(lambda*lambda)
			return (captured - mu*area - kappa) / T
		}
		b := sharp(k)
		w := b.posterior(&flatPrior)
		best := crossing(&w, kappa, mu, 60, 1e8)
		for _, f := range []float64{0.7, 0.9, 0.97, 1.03, 1.1, 1.4} {
			if objective(best*f) > objective(best)+1e-12*math.Abs(objective(best)) {
				t.Errorf("λ = %.3g/day: T = %.0f s beats the crossing %.0f s (%g > %g)",
					lambda*86400, best*f, best, objective(best*f), objective(best))
			}
		}
	}
	// A surely stale copy waits τ; a faster page is visited sooner.
	fast, slow := sharp(45), sharp(30)
	wf, ws := fast.posterior(&flatPrior), slow.posterior(&flatPrior)
	if a, b := crossing(&wf, kappa, mu, 60, 1e8), crossing(&ws, kappa, mu, 60, 1e8); !(a < b) {
		t.Errorf("faster page waits %.0f s, slower %.0f s", a, b)
	}
}

// Demand beyond the budget raises the price of requests, which lengthens
// waits; Forget takes a URL out of the demand and the population.
func TestPoissonBudget(t *testing.T) {
	free := &Poisson{Rate: 1}
	s1 := visits(free, 6, true)
	tight := &Poisson{Rate: 1, Demand: 4}
	s2 := visits(tight, 6, true)
	if !(s2.Wait > s1.Wait) {
		t.Errorf("over budget: wait %v, within budget %v", s2.Wait, s1.Wait)
	}
	want := 1 / s1.Wait.Seconds()
	if math.Abs(free.Demand-want) > 1e-12 {
		t.Errorf("demand %g after one URL's visits, want 1/wait = %g", free.Demand, want)
	}
	var mass float64
	for _, m := range free.Population {
		mass += m
	}
	if math.Abs(mass-1) > 1e-9 {
		t.Errorf("population holds %g URLs after one URL's visits", mass)
	}
	if free.Revisits != 5 || free.Captured != 5 || free.Yield() != 5.5/6 {
		t.Errorf("revisits %d, captured %d, yield %g", free.Revisits, free.Captured, free.Yield())
	}
	free.Forget(&s1)
	mass = 0
	for _, m := range free.Population {
		mass += math.Abs(m)
	}
	if free.Demand > 1e-15 || mass > 1e-9 {
		t.Errorf("demand %g, population %g after Forget", free.Demand, mass)
	}
}

// The population is the prior: the same quiet history waits longer in a
// queue whose URLs are quiet than in one whose URLs change all the time.
func TestPoissonPoolsTheQueue(t *testing.T) {
	quietQueue, busyQueue := &Poisson{Rate: 1}, &Poisson{Rate: 1}
	for range 50 {
		visits(quietQueue, 6, false)
		visits(busyQueue, 6, true)
	}
	// Both queues' yields are set alike, so only the prior differs.
	busyQueue.Revisits, busyQueue.Captured = quietQueue.Revisits, quietQueue.Captured
	inQuiet, inBusy := visits(quietQueue, 3, false), visits(busyQueue, 3, false)
	t.Logf("quiet queue %v, busy queue %v", inQuiet.Wait, inBusy.Wait)
	if !(inQuiet.Wait > inBusy.Wait) {
		t.Errorf("a quiet URL waits %v among quiet URLs, %v among busy ones", inQuiet.Wait, inBusy.Wait)
	}
}
