package sim

import (
	"context"
	"strings"
	"testing"
	"time"
)

func run(t *testing.T, c Config) Result {
	t.Helper()
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%-8s %-10s requests %7d idle %6d changes %7d captured %7d per request %.4f staleness %.0fs",
		r.Policy, r.Mix, r.Requests, r.IdleSlots, r.Changes, r.Captured, r.CapturedPerRequest, r.MeanStalenessS)
	return r
}

// A smaller site than the benchmark's (1,000 pages, the same 30 days and
// budget per page) must meet the acceptance criteria: ar captures at least
// 1.5× uniform's changes per request, poisson at least 1.1× ar's with a
// mean staleness no worse than ar's.
func TestPolicyOrdering(t *testing.T) {
	const pages, days = 1000, 30
	for _, mix := range []string{MixLogUniform, MixStatic80} {
		var got [3]Result
		for i, p := range []string{"uniform", "ar", "poisson"} {
			got[i] = run(t, Config{Policy: p, Mix: mix, Pages: pages, Days: days, Budget: pages, Seed: 7})
		}
		uniform, ar, poisson := got[0], got[1], got[2]
		if uniform.Requests != days*pages || uniform.IdleSlots != 0 {
			t.Errorf("%s: uniform made %d requests, idle %d: it should use the whole budget", mix, uniform.Requests, uniform.IdleSlots)
		}
		if ar.Changes != uniform.Changes || poisson.Changes != uniform.Changes {
			t.Errorf("%s: the policies faced different sites: changes %d, %d, %d", mix, uniform.Changes, ar.Changes, poisson.Changes)
		}
		if !(ar.CapturedPerRequest >= 1.5*uniform.CapturedPerRequest) {
			t.Errorf("%s: ar %.4f below 1.5× uniform %.4f", mix, ar.CapturedPerRequest, uniform.CapturedPerRequest)
		}
		if !(poisson.CapturedPerRequest >= 1.1*ar.CapturedPerRequest) {
			t.Errorf("%s: poisson %.4f below 1.1× ar %.4f", mix, poisson.CapturedPerRequest, ar.CapturedPerRequest)
		}
		if !(poisson.MeanStalenessS <= ar.MeanStalenessS) {
			t.Errorf("%s: poisson's staleness %.0f s worse than ar's %.0f s", mix, poisson.MeanStalenessS, ar.MeanStalenessS)
		}
		for _, r := range got {
			if r.Captured > r.Changes || r.Captured+r.FirstCaptures > r.Requests || r.Requests+r.IdleSlots != days*pages {
				t.Errorf("%s %s: inconsistent counts %+v", mix, r.Policy, r)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	c := Config{Policy: "poisson", Mix: MixStatic80, Pages: 300, Days: 5, Budget: 300, Seed: 42}
	a, b := run(t, c), run(t, c)
	if a != b {
		t.Fatalf("same seed, different results:\n%+v\n%+v", a, b)
	}
	c.Seed = 43
	if d := run(t, c); d.Changes == a.Changes && d.Captured == a.Captured {
		t.Errorf("seeds 42 and 43 gave the same site: %+v", d)
	}
}

func TestConfigErrors(t *testing.T) {
	ok := Config{Policy: "ar", Mix: MixLogUniform, Pages: 10, Days: 1, Budget: 10}
	for _, c := range []struct {
		edit func(*Config)
		want string
	}{
		{func(c *Config) { c.Pages = 0 }, "pages"},
		{func(c *Config) { c.Days = -1 }, "days"},
		{func(c *Config) { c.Budget = MaxBudget + 1 }, "budget"},
		{func(c *Config) { c.Policy = "lifo" }, "unknown policy"},
		{func(c *Config) { c.Mix = "bimodal" }, "unknown mix"},
		{func(c *Config) { c.StalenessHorizon = -time.Hour }, "negative"},
	} {
		cfg := ok
		c.edit(&cfg)
		_, err := Run(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error mentioning %q", cfg, err, c.want)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, ok); err != context.Canceled {
		t.Errorf("cancelled context: %v", err)
	}
}
