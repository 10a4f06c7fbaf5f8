package revisit

import (
	"fmt"
	"math"
	"time"
)

// Policy decides how long to wait before visiting a URL again. Wait is
// called by [State.Record] after the visit is recorded in s (counters,
// times, validators; s.Wait still holds the previous wait); since is the
// time from the previous visit to this one (0 for a first visit), status
// what the visit found and ev the evaluator chosen for the URL, whose
// bounds every policy respects.
type Policy interface {
	Name() string
	Wait(s *State, since time.Duration, status Status, ev Evaluator) time.Duration
}

// Uniform revisits every URL after the same wait: the baseline, which a
// crawler gets by setting the wait to (URLs in the queue) / (requests per
// unit time the politeness budget allows).
type Uniform struct{ Every time.Duration }

// Name returns "uniform".
func (Uniform) Name() string { return "uniform" }

// Wait returns the fixed wait.
func (u Uniform) Wait(*State, time.Duration, Status, Evaluator) time.Duration { return u.Every }

// Adaptive is the thesis's heuristic ("ar"): the evaluator's multiplicative
// update of the previous wait ([Evaluator.Next]).
type Adaptive struct{}

// Name returns "ar".
func (Adaptive) Name() string { return "ar" }

// Wait applies the evaluator.
func (Adaptive) Wait(s *State, _ time.Duration, status Status, ev Evaluator) time.Duration {
	return ev.Next(s.Wait, s.Overdue, status)
}

// Poisson models each URL's changes as a Poisson process of unknown rate
// λ, keeps a belief about λ from the visits ([Belief]) and visits a URL
// when the expected value of visiting now reaches the price of a request.
//
// The value comes from the renewal problem of one URL visited every T
// seconds (after Cho and Garcia-Molina, "Effective page refresh policies
// for web crawlers", ACM TODS 28(4), 2003):
//
//	maximise  [ P(N(T) ≥ 1) − μ · ∫₀ᵀ age(s) ds − κ ] / T
//
// where P(N(T) ≥ 1) is the chance the visit captures a change, age(s) how
// long the archive's copy has been out of date s seconds after the visit,
// μ the price of staleness and κ the price of a request, both in captured
// changes. Its optimal T is where the index P(N(T) ≥ 2) + μ ∫₀ᵀ s P(N(s) ≥ 1) ds
// reaches κ; the index grows with T, so the policy's wait is the time the
// index, averaged over the URL's posterior, takes to reach κ. Every URL is
// thus due when visiting it is worth κ: a threshold policy expressed as
// due times, the frontier's model.
//
// The posterior of a URL is its own evidence ([Belief]) times the queue's
// population of rates (empirical Bayes): the average over the queue's
// URLs of their posteriors under a flat prior, one EM step towards the
// distribution of rates that explains them all, kept exactly: each URL
// counts once and its share is replaced at each of its visits. One
// pseudo-URL spread evenly over the bins keeps every rate possible.
// Pooling tells a URL that has not changed for a week whether such URLs
// are usually static or merely slow.
//
// κ is the queue's own yield: the captured changes per revisit so far
// (first visits are not chosen, so they do not count). That is the fixed
// point of Dinkelbach's method for maximising captured changes per
// request: a revisit is worth making when it is expected to do at least
// as well as the average one. The politeness budget caps the requests:
// the policy keeps the queue's demand Σ 1/T over its URLs and, while it
// exceeds the budget, multiplies κ by demand/budget, which lengthens every
// wait until the demand fits (the frontier meanwhile serves the URL due
// the longest). It does not spend the budget for its own sake: a request
// expected to capture less than the average one lowers the yield.
//
// μ is set by a staleness horizon τ, μ = 2κ/τ²: τ is how long the copy of
// a page that is surely out of date may wait for a visit, since the index
// of such a page is μt²/2. A page of rate λ with λt ≪ 1 then waits about
// (3τ²/(2λ))^(1/3): slowly changing pages are still visited, less often
// the quieter they are. [NewPolicy] sets τ to the budget's round, the
// time the budget takes to visit every URL of the queue once (URLs / Rate,
// the uniform policy's wait): a copy known to be out of date waits no
// longer than under the uniform policy. No constant of the policy is
// tuned to a site. One Poisson value serves one politeness queue.
type Poisson struct {
	// Rate is the queue's budget in requests per second (1 / politeness
	// delay for a queue with one connection).
	Rate float64
	// StalenessHorizon is τ (the evaluator's Initial when 0; NewPolicy
	// sets the budget's round).
	StalenessHorizon time.Duration

	// The queue's learnt state, which the crawler persists with the
	// queue: Demand is Σ 1/Wait (visits per second) over the visited
	// URLs; Revisits and Captured count the revisits seen and those that
	// found a change; Population is the sum of the URLs' posteriors under
	// a flat prior.
	Demand             float64
	Revisits, Captured uint64
	Population         [Bins]float64
}

// Name returns "poisson".
func (*Poisson) Name() string { return "poisson" }

// Yield is the price of a request before the budget: captured changes per
// revisit so far, starting from one imaginary revisit worth 1/2 (a change
// as likely as not).
func (p *Poisson) Yield() float64 {
	return (float64(p.Captured) + 0.5) / (float64(p.Revisits) + 1)
}

// prior is the population's distribution of rates with one pseudo-URL
// spread evenly over the bins.
func (p *Poisson) prior() (pi [Bins]float64) {
	for k, m := range p.Population {
		pi[k] = max(0, m) + 1.0/Bins
	}
	return pi
}

// Wait folds the visit into the URL's belief, the population and the
// queue's yield, and returns the time the URL's index takes to reach the
// price of a request, within the evaluator's bounds, updating the queue's
// demand.
func (p *Poisson) Wait(s *State, since time.Duration, status Status, ev Evaluator) time.Duration {
	pi := p.prior()
	if s.Visits > 1 {
		old := s.Belief.posterior(&flatPrior) // the URL's previous share
		for k := range p.Population {
			p.Population[k] -= old[k]
		}
		if status != Unknown {
			p.Revisits++
			if status == Changed {
				p.Captured++
			}
			s.Belief.Observe(since.Seconds(), status == Changed)
		}
	}
	lik := s.Belief.posterior(&flatPrior)
	for k := range p.Population {
		p.Population[k] += lik[k]
	}
	w := s.Belief.posterior(&pi)
	tau := p.StalenessHorizon
	if tau <= 0 {
		tau = ev.Initial
	}
	yield := p.Yield()
	mu := 2 * yield / (tau.Seconds() * tau.Seconds())
	kappa := yield
	if p.Demand > p.Rate {
		kappa *= p.Demand / p.Rate
	}
	t := crossing(&w, kappa, mu, ev.Min.Seconds(), ev.Max.Seconds())
	wait := clampWait(t*float64(time.Second), ev.Min, ev.Max)
	p.Demand = max(0, p.Demand+visitRate(wait)-visitRate(s.Wait))
	return wait
}

// visitRate is 1/w in visits per second (0 for no wait yet).
func visitRate(w time.Duration) float64 {
	if w <= 0 {
		return 0
	}
	return 1 / w.Seconds()
}

// crossing returns the first t in [lo, hi] seconds at which the index
// reaches kappa, by bisection on log t (the index grows with t).
func crossing(w *[Bins]float64, kappa, mu, lo, hi float64) float64 {
	if index(w, lo, mu) >= kappa {
		return lo
	}
	if index(w, hi, mu) < kappa {
		return hi
	}
	a, b := math.Log(lo), math.Log(hi)
	for b-a > 1e-4 {
		m := (a + b) / 2
		if index(w, math.Exp(m), mu) >= kappa {
			b = m
		} else {
			a = m
		}
	}
	return math.Exp(b)
}

// Forget removes a URL from the queue's demand and population, when the
// URL is parked or leaves the crawl.
func (p *Poisson) Forget(s *State) {
	p.Demand = max(0, p.Demand-visitRate(s.Wait))
	if s.Visits > 0 {
		w := s.Belief.posterior(&flatPrior)
		for k := range p.Population {
			p.Population[k] -= w[k]
		}
	}
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
		return &Poisson{Rate: rate, StalenessHorizon: time.Duration(float64(max(urls, 1)) / rate * float64(time.Second))}, nil
	}
	return nil, fmt.Errorf("revisit: unknown policy %q (want %s, %s or %s)", name, PolicyUniform, PolicyAdaptive, PolicyPoisson)
}
