package robots

import (
	"testing"
	"time"
)

// manualClock is a real Clock whose time moves only when told to.
type manualClock struct{ t time.Time }

func (c *manualClock) Now() time.Time          { return c.t }
func (c *manualClock) advance(d time.Duration) { c.t = c.t.Add(d) }

var rulesX = []byte("User-agent: *\nDisallow: /x\n")

func TestCacheExpiry(t *testing.T) {
	clock := &manualClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := NewCache("mneme", CacheConfig{}, clock)
	const site = "http://example.com"
	if _, ok := c.Get(site); ok {
		t.Fatal("empty cache returned an entry")
	}
	c.Put(site, FromResponse(200, rulesX, nil))
	clock.advance(24*time.Hour - time.Second)
	a, ok := c.Get(site)
	if !ok || a.Allowed("/x") || !a.Allowed("/y") {
		t.Fatalf("fresh entry: ok=%v, rules wrong", ok)
	}
	clock.advance(time.Second)
	if _, ok := c.Get(site); ok {
		t.Error("entry still fresh after 24h; RFC 9309 §2.4 says refetch")
	}
}

func TestCacheUnreachableKeepsLastGoodCopy(t *testing.T) {
	clock := &manualClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := NewCache("mneme", CacheConfig{RetryAfter: time.Hour}, clock)
	const site = "http://example.com"
	c.Put(site, FromResponse(200, rulesX, nil))
	clock.advance(25 * time.Hour)
	a := c.Put(site, FromResponse(503, nil, nil))
	if a.Allowed("/x") || !a.Allowed("/y") {
		t.Error("unreachable after a good fetch should keep the good rules")
	}
	clock.advance(59 * time.Minute)
	if got, ok := c.Get(site); !ok || got != a {
		t.Error("unreachable entry should be in force until RetryAfter")
	}
	clock.advance(time.Minute)
	if _, ok := c.Get(site); ok {
		t.Error("unreachable entry should ask for a retry after RetryAfter")
	}
}

func TestCacheUnreachableGivesUp(t *testing.T) {
	clock := &manualClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := NewCache("mneme", CacheConfig{RetryAfter: 24 * time.Hour}, clock)
	const site = "http://down.example"
	for day := 0; day < 30; day++ {
		if a := c.Put(site, FromResponse(0, nil, errFake("connect: connection refused"))); a.Allowed("/y") {
			t.Fatalf("day %d: unreachable with no earlier copy must disallow all", day)
		}
		clock.advance(24 * time.Hour)
	}
	if a := c.Put(site, FromResponse(500, nil, nil)); !a.Allowed("/y") {
		t.Error("after 30 days unreachable the file should be taken as unavailable")
	}
	// A success resets the failure run.
	c.Put(site, FromResponse(404, nil, nil))
	if a := c.Put(site, FromResponse(500, nil, nil)); !a.Allowed("/y") {
		t.Error("a 404 is a good copy (allow all) to fall back on")
	}
}

func TestCacheLRU(t *testing.T) {
	clock := &manualClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	c := NewCache("mneme", CacheConfig{Size: 2}, clock)
	c.Put("http://a", FromResponse(404, nil, nil))
	c.Put("http://b", FromResponse(404, nil, nil))
	c.Get("http://a") // a is now more recent than b
	c.Put("http://c", FromResponse(404, nil, nil))
	if c.Len() != 2 {
		t.Errorf("Len = %d, want 2", c.Len())
	}
	for site, want := range map[string]bool{"http://a": true, "http://b": false, "http://c": true} {
		if _, ok := c.Get(site); ok != want {
			t.Errorf("Get(%s) present=%v, want %v", site, ok, want)
		}
	}
}
