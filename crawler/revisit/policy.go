package revisit

import (
	"fmt"
	"math"
	"time"
)

// Policy decides how long to wait before visiting a URL again. Wait is
// called by [State.Record] after the visit is recorded in s (counters,
// history, validators; s.Wait still holds the previous wait); status is
// what the visit found and ev the evaluator chosen for the URL, whose
// bounds every policy respects.
type Policy interface {
	Name() string
	Wait(s *State, status Status, ev Evaluator) time.Duration
}

// Uniform revisits every URL after the same wait: the baseline, which a
// crawler gets by setting the wait to (URLs in the queue) / (requests per
// unit time the politeness budget allows).
type Uniform struct{ Every time.Duration }

// Name returns "uniform".
func (Uniform) Name() string { return "uniform" }

// Wait returns the fixed wait.
func (u Uniform) Wait(*State, Status, Evaluator) time.Duration { return u.Every }

// Adaptive is the thesis's heuristic ("ar"): the evaluator's multiplicative
// update of the previous wait ([Evaluator.Next]).
type Adaptive struct{}

// Name returns "ar".
func (Adaptive) Name() string { return "ar" }

// Wait applies the evaluator.
func (Adaptive) Wait(s *State, status Status, ev Evaluator) time.Duration {
	return ev.Next(s.Wait, s.Overdue, status)
}

// Poisson models each URL's changes as a Poisson process, estimates its
// rate λ from the visit history ([EstimateRate]) and spaces visits to
// maximise the expected number of captured changes under the politeness
// budget of one queue.
//
// A URL visited every T captures a change with probability 1 − e^(−λT), so
// visiting it at frequency f captures f(1 − e^(−λ/f)) changes per unit time.
// Maximising the sum over URLs with Σf fixed (the budget) by a Lagrange
// multiplier gives 1 − (1+x)e^(−x) = μ for x = λ/f at every URL: the
// optimum gives every URL the same expected changes per interval x, i.e.
// visits it every x/λ, with x = Σλ / budget so the visits fill the budget
// exactly. The policy keeps Σλ̂ over the queue's URLs incrementally; one
// Poisson value serves one politeness queue.
//
// Until a URL has shown a change its estimate is the prior's (see
// [EstimateRate]), which makes unvisited and quiet URLs be explored at
// waits that grow as evidence of no change accumulates, up to the
// evaluator's Max.
type Poisson struct {
	// Rate is the queue's budget in requests per second (1 / politeness
	// delay for a queue with one connection).
	Rate float64
	// Sum is Σλ̂ (changes per second) over the URLs of the queue that have
	// an estimate; the crawler persists it with the queue (or rebuilds it
	// by summing the States' Lambda).
	Sum float64
}

// Name returns "poisson".
func (*Poisson) Name() string { return "poisson" }

// Wait re-estimates λ from s's history, updates the queue's sum, and
// returns x/λ̂ within the evaluator's bounds.
func (p *Poisson) Wait(s *State, _ Status, ev Evaluator) time.Duration {
	lambda := EstimateRate(s.History, ev.Initial)
	p.Sum += lambda - s.Lambda
	s.Lambda = lambda
	if p.Sum < lambda {
		p.Sum = lambda // rounding drift after many updates
	}
	x := p.Sum / p.Rate
	return clampWait(x/lambda*float64(time.Second), ev.Min, ev.Max)
}

// Forget removes a URL from the queue's sum, when the URL is parked or
// leaves the crawl.
func (p *Poisson) Forget(s *State) {
	p.Sum = max(0, p.Sum-s.Lambda)
	s.Lambda = 0
}

// Policy names accepted by [NewPolicy].
const (
	PolicyUniform  = "uniform"
	PolicyAdaptive = "ar"
	PolicyPoisson  = "poisson"
)

// NewPolicy returns the named policy for one politeness queue of urls URLs
// allowed rate requests per second.
func NewPolicy(name string, urls int, rate float64) (Policy, error) {
	if rate <= 0 || math.IsInf(rate, 0) || math.IsNaN(rate) {
		return nil, fmt.Errorf("revisit: request rate must be positive and finite, have %g", rate)
	}
	switch name {
	case PolicyUniform:
		return Uniform{Every: time.Duration(float64(max(urls, 1)) / rate * float64(time.Second))}, nil
	case PolicyAdaptive:
		return Adaptive{}, nil
	case PolicyPoisson:
		return &Poisson{Rate: rate}, nil
	}
	return nil, fmt.Errorf("revisit: unknown policy %q (want %s, %s or %s)", name, PolicyUniform, PolicyAdaptive, PolicyPoisson)
}
