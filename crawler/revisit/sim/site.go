package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Change-rate mixes of the simulated site, in changes per day.
const (
	// MixLogUniform draws every page's λ log-uniformly from [0.001, 10].
	MixLogUniform = "loguniform"
	// MixStatic80 makes 80 % of the pages nearly static (λ = 0.001) and
	// draws the other 20 % log-uniformly from [0.1, 10].
	MixStatic80 = "static80"
)

// page is one simulated page: a Poisson process of changes and what the
// archive holds of it. The policies never see it; they see only content.
type page struct {
	lambda   float64 // changes per second
	rng      *rand.Rand
	next     time.Duration // time of the next change after the ones applied
	version  int64         // changes applied so far
	captured int64         // version of the last capture, -1 before the first
	// staleSince is when the archive's copy went stale: the first change
	// after the last capture; stale tells whether it is.
	staleSince time.Duration
	stale      bool
	firstSeen  time.Duration
}

// site is the simulated web site; time is measured from the simulation's
// start.
type site struct {
	pages []page
}

// newSite draws the pages' rates from the mix with the seed. Each page
// gets its own random stream, so its change times do not depend on when a
// policy looks at it: every policy faces the same site.
func newSite(n int, mix string, seed uint64) *site {
	draw := rand.New(rand.NewPCG(seed, 0x5eed))
	logUniform := func(lo, hi float64) float64 {
		return math.Exp(math.Log(lo) + draw.Float64()*(math.Log(hi)-math.Log(lo)))
	}
	s := &site{pages: make([]page, n)}
	for i := range s.pages {
		var perDay float64
		switch mix {
		case MixLogUniform:
			perDay = logUniform(0.001, 10)
		default: // MixStatic80; Config.Validate rejects other names
			// Which pages are static is drawn too, so it is not a block of
			// indices a policy could learn from the URL order.
			if draw.Float64() < 0.8 {
				perDay = 0.001
			} else {
				perDay = logUniform(0.1, 10)
			}
		}
		p := &s.pages[i]
		p.lambda = perDay / 86400
		p.rng = rand.New(rand.NewPCG(seed, uint64(i)+1))
		p.next = p.gap()
		p.captured = -1
	}
	return s
}

// gap draws the time to the next change.
func (p *page) gap() time.Duration {
	return time.Duration(p.rng.ExpFloat64() / p.lambda * float64(time.Second))
}

// advance applies the changes up to time t, noting when a captured copy
// went stale.
func (p *page) advance(t time.Duration) {
	for p.next <= t {
		if p.captured == p.version && !p.stale {
			p.stale, p.staleSince = true, p.next
		}
		p.version++
		p.next += p.gap()
	}
}

// capture records that the archive now holds the page's version at t and
// returns the staleness it ends, ∫ age dt over the stale stretch, in
// second².
func (p *page) capture(t time.Duration) float64 {
	p.advance(t)
	var area float64
	if p.captured < 0 {
		p.firstSeen = t
	} else if p.stale {
		area = sq((t - p.staleSince).Seconds()) / 2
	}
	p.captured, p.stale = p.version, false
	return area
}

func sq(x float64) float64 { return x * x }

// content is what a fetch of page i returns: different for every version.
func (p *page) content(i int) []byte {
	return fmt.Appendf(nil, "<html><body>page %d, version %d</body></html>", i, p.version)
}
