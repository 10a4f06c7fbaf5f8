package spec

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-archive/mneme/crawler/canon"
	"github.com/mneme-archive/mneme/crawler/frontier"
)

const example = `
id: blog-2026
seeds: [https://blog.example.org/]
user-agent: "mneme/0.1 (+https://example.org/crawler)"
workers: 4
update: SUM
scope:
  seed-hosts: true
  max-hops: 3
  exclude: ['\?replytocom=']
politeness:
  min-delay: 1s
  max-delay: 10
  retry-delay: 1m30s
  hosts:
    - pattern: "*.example.org"
      delay-factor: 2
      valence: 2
    - pattern: "static.example.org"
      min-delay: 0s
limits:
  pages: 1000
  duration: 2h
`

func TestParseAndPoliteness(t *testing.T) {
	s, err := Parse([]byte(example), "example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	seeds, err := s.Check(canon.New(canon.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(seeds) != 1 || s.ID != "blog-2026" || s.Workers != 4 || s.UpdateFunc() != frontier.UpdateSum {
		t.Errorf("parsed %+v", s)
	}
	if s.Limits.Pages != 1000 || time.Duration(s.Limits.Duration) != 2*time.Hour {
		t.Errorf("limits %+v", s.Limits)
	}
	sc := s.ScopeConfig()
	if !sc.SeedHosts || !sc.SeedSURTs || sc.MaxHops != 3 || sc.MaxTransHops != 2 || len(sc.Exclude) != 1 {
		t.Errorf("scope %+v: set values or Heritrix defaults missing", sc)
	}
	// Unset fields keep Heritrix's defaults; the first matching rule wins.
	for _, tc := range []struct {
		key     string
		factor  float64
		minD    time.Duration
		maxD    time.Duration
		retry   time.Duration
		valence int
	}{
		{"other.org", 5, time.Second, 10 * time.Second, 90 * time.Second, 1},
		{"www.example.org", 2, time.Second, 10 * time.Second, 90 * time.Second, 2},
		{"static.example.org", 2, time.Second, 10 * time.Second, 90 * time.Second, 2},
	} {
		p := s.Politeness.For(tc.key)
		if p.DelayFactor != tc.factor || p.MinDelay != tc.minD || p.MaxDelay != tc.maxD || p.RetryDelay != tc.retry || p.Valence != tc.valence || p.MaxRetries != 30 || p.Off {
			t.Errorf("%s: %+v", tc.key, p)
		}
	}
}

// TestRoundTrip: a written spec reads back the same, defaults included.
func TestRoundTrip(t *testing.T) {
	s, err := Parse([]byte(example), "example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	data, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data, "written.yaml")
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	again, err := back.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(data) {
		t.Errorf("round trip changed the spec:\n%s\n---\n%s", data, again)
	}
	if !strings.Contains(string(data), "max-crawl-delay: 5m0s") {
		t.Errorf("defaults not written out:\n%s", data)
	}
}

func TestErrors(t *testing.T) {
	c := canon.New(canon.Options{})
	for _, tc := range []struct{ yaml, want string }{
		{"seeds: [http://a/]\nuser-agnet: x\n", "spec.yaml:2: user-agnet: unknown field (did you mean user-agent?); the fields of the top level are aah, fetch, focus, http, id,"},
		{"seeds: [http://a/]\npoliteness:\n  min-dealy: 1s\n", "spec.yaml:3: politeness.min-dealy: unknown field (did you mean min-delay?); the fields of politeness are delay-factor,"},
		{"politeness:\n  min-delay: soon\n", `spec.yaml:2: politeness.min-delay: bad duration "soon"`},
		{"workers: many\n", `spec.yaml:1: workers: want a whole number, got "many"`},
		{"seeds: http://a/\n", `spec.yaml:1: seeds: want a list ([a, b] or "- a" lines), got "http://a/"`},
		{"scope:\n  seed-hosts: yes please\n", `spec.yaml:2: scope.seed-hosts: want true or false, got "yes please"`},
		{"limits: 5\n", `spec.yaml:1: limits: want a section of "key: value" lines, got 5`},
		{"seeds: [http://a/\n", "spec.yaml: line 1: did not find expected ',' or ']'"},
		{"seeds: [http://a/]\n", `spec.yaml: user-agent "": must carry a contact URL`},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nworkers: 0\n", "spec.yaml:3: workers: 0: at least 1"},
		{"seeds: [ftp://a/]\nuser-agent: 'x/1 (+https://a/)'\n", "spec.yaml:1: seeds[0]: \"ftp://a/\": only http and https"},
		{"user-agent: 'x/1 (+https://a/)'\n", "seeds: at least one seed URL is required"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nupdate: MEDIAN\n", "update:"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nid: ../etc\n", `id "../etc"`},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\npoliteness:\n  min-delay: 40s\n", "min-delay 40s exceeds max-delay 30s"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\npoliteness:\n  hosts: [{pattern: '[', valence: 2}]\n", `politeness.hosts[0]: bad pattern "["`},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\npoliteness:\n  hosts: [{pattern: 'a', valence: 0}]\n", "politeness.hosts[0]: valence 0"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nwarc: {prefix: ..hidden, max-size: 1000000}\n", `warc.prefix: "..hidden"`},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nwarc: {prefix: a/../../b, max-size: 1000000}\n", `warc.prefix: "a/../../b"`},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nwarc: {prefix: '', max-size: 1000000}\n", `warc.prefix: ""`},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nfetch: {total-timeout: 0s}\n", "fetch.total-timeout: must be positive"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nfetch: {min-rate: -1}\n", "fetch: negative values"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\nrdf: {commit-within: 0s}\n", "rdf.commit-within: must be positive"},
		{"seeds: [http://a/]\nuser-agent: 'x/1 (+https://a/)'\npoliteness: {max-retry-delay: -1s}\n", "politeness: negative values"},
		{"seeds: [http://127.0.0.1/, 'http://[::1]:8080/', http://localhost/, http://10.0.0.1/]\nuser-agent: 'x/1 (+https://a/)'\npoliteness: {off: true}\n",
			"politeness off is only allowed when every seed is on a loopback address; seeds[3] is on 10.0.0.1"},
	} {
		s, err := Parse([]byte(tc.yaml), "spec.yaml")
		if err == nil {
			_, err = s.Check(c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
		// The file's words, not the program's: no Go type names.
		if err != nil && (strings.Contains(err.Error(), "spec.Spec") || strings.Contains(err.Error(), "into ") || strings.Contains(err.Error(), "!!")) {
			t.Errorf("%q: error %q speaks of Go types", tc.yaml, err)
		}
	}
}

// TestPolitenessOffLoopbackOnly: with politeness off, a non-loopback host
// the scope lets in is still crawled politely.
func TestPolitenessOffLoopbackOnly(t *testing.T) {
	p := Default().Politeness
	p.Off = true
	if hp := p.For("127.0.0.1:8080"); !hp.Off || hp.Wait(time.Second, 10*time.Second) != 0 {
		t.Errorf("loopback: %+v", hp)
	}
	if hp := p.For("example.org"); hp.Off || hp.Wait(time.Millisecond, 0) != 3*time.Second {
		t.Errorf("example.org: %+v", hp)
	}
	// Retries: short on loopback with politeness off, Heritrix's
	// quarter of an hour elsewhere, and Retry-After capped either way.
	now := time.Now()
	if at, _ := p.For("127.0.0.1:8080").Retry(now, 1, 30*24*time.Hour); !at.Equal(now.Add(OffMaxRetryDelay)) {
		t.Errorf("loopback retry with a 30-day Retry-After at %v", at.Sub(now))
	}
	if at, _ := p.For("127.0.0.1:8080").Retry(now, 1, 0); !at.Equal(now.Add(OffRetryDelay)) {
		t.Errorf("loopback retry at %v", at.Sub(now))
	}
	if at, _ := p.For("example.org").Retry(now, 1, 30*24*time.Hour); !at.Equal(now.Add(time.Hour)) {
		t.Errorf("example.org retry with a 30-day Retry-After at %v, want the 1h max-retry-delay", at.Sub(now))
	}
}

// TestHardeningDefaults: the bounds against hostile servers and crashes
// are on by default and written out with the spec.
func TestHardeningDefaults(t *testing.T) {
	d := Default()
	if d.Scope.MaxRedirects != 20 || d.Fetch.TotalTimeout != Duration(20*time.Minute) || d.Fetch.MinRate != 1000 ||
		d.Fetch.MinRateWindow != Duration(30*time.Second) || d.Politeness.MaxRetryDelay != Duration(time.Hour) ||
		d.RDF.CommitWithin != Duration(time.Second) {
		t.Errorf("defaults: %+v %+v %+v %+v", d.Scope, d.Fetch, d.Politeness, d.RDF)
	}
	out, err := d.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"max-redirects: 20", "total-timeout: 20m0s", "min-rate: 1000", "min-rate-window: 30s", "max-retry-delay: 1h0m0s", "commit-within: 1s"} {
		if !strings.Contains(string(out), key) {
			t.Errorf("marshalled spec lacks %q:\n%s", key, out)
		}
	}
}

func TestProductToken(t *testing.T) {
	for ua, want := range map[string]string{
		"mneme/0.1 (+https://example.org/)": "mneme",
		"  MyBot (+https://x/)":             "MyBot",
		"":                                  "",
	} {
		if got := ProductToken(ua); got != want {
			t.Errorf("ProductToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

// TestDocsNameEveryField: docs/crawl-spec.md documents every field a
// specification can hold.
func TestDocsNameEveryField(t *testing.T) {
	doc, err := os.ReadFile("../../docs/crawl-spec.md")
	if err != nil {
		t.Fatal(err)
	}
	var walk func(reflect.Type, string)
	walk = func(rt reflect.Type, at string) {
		for rt.Kind() == reflect.Pointer || rt.Kind() == reflect.Slice || rt.Kind() == reflect.Map {
			rt = rt.Elem()
		}
		if rt.Kind() != reflect.Struct || rt == durationType {
			return
		}
		for name, ft := range yamlFields(rt) {
			// As `name`, `parent.name` or `name.child` in a table, or as
			// a key of a {name, …} list item.
			named := strings.Contains(string(doc), "{"+name) || strings.Contains(string(doc), ", "+name)
			parts := strings.Split(at+name, ".")
			for i := range parts {
				suffix := "`" + strings.Join(parts[i:], ".")
				named = named || strings.Contains(string(doc), suffix+"`") || strings.Contains(string(doc), suffix+".")
			}
			if !named {
				t.Errorf("docs/crawl-spec.md does not name %s%s", at, name)
			}
			walk(ft, at+name+".")
		}
	}
	walk(reflect.TypeFor[Spec](), "")
}
