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
	if w := p.Wait(&State{}, Changed, DefaultEvaluator()); w < 24*time.Hour-time.Millisecond || w > 24*time.Hour+time.Millisecond {
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
	if !(fast.Lambda > quiet.Lambda*10) {
		t.Errorf("λ̂ of a page that always changed %g, of one that never did %g", fast.Lambda, quiet.Lambda)
	}
	if !(fast.Wait < 12*time.Hour && quiet.Wait > 4*24*time.Hour && quiet.Wait > 10*fast.Wait) {
		t.Errorf("waits: always changing %v, never changing %v", fast.Wait, quiet.Wait)
	}
	ev := DefaultEvaluator()
	if fast.Wait < ev.Min || quiet.Wait > ev.Max {
		t.Errorf("waits outside the evaluator's bounds: %v, %v", fast.Wait, quiet.Wait)
	}
}

// The interval maximises the objective: nearby intervals do no better.
func TestBestIntervalIsAMaximum(t *testing.T) {
	kappa, mu := DefaultRequestCost, DefaultStalenessCost/(86400*86400)
	objective := func(lambda, t float64) float64 {
		x := lambda * t
		p := -math.Expm1(-x)
		return (p-kappa)/t - mu*(x/2-1+p/x)/lambda
	}
	for _, perDay := range []float64{0.001, 0.05, 1, 20} {
		lambda := perDay / 86400
		best := bestInterval(lambda, kappa, mu, 3600, 28*86400)
		for _, f := range []float64{0.8, 0.95, 1.05, 1.25} {
			if iv := best * f; iv >= 3600 && iv <= 28*86400 && objective(lambda, iv) > objective(lambda, best)+1e-15 {
				t.Errorf("λ=%g/day: interval %v beats the chosen %v", perDay, time.Duration(iv*1e9), time.Duration(best*1e9))
			}
		}
	}
	// Faster pages are visited more often.
	if a, b := bestInterval(1/86400., kappa, mu, 3600, 28*86400), bestInterval(0.1/86400, kappa, mu, 3600, 28*86400); !(a < b) {
		t.Errorf("λ=1/day interval %g s not below λ=0.1/day interval %g s", a, b)
	}
}

// Demand beyond the budget raises the price of requests, which lengthens
// waits; Forget takes a URL's visits out of the demand.
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
	free.Forget(&s1)
	if free.Demand > 1e-15 {
		t.Errorf("demand %g after Forget", free.Demand)
	}
}
