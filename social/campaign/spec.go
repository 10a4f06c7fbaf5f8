package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	crawlspec "github.com/mneme-archive/mneme/crawler/spec"
	"github.com/mneme-archive/mneme/social/platform"
)

// Spec is a campaign specification (docs/social.md). Field comments give
// the YAML key. Credentials are never part of it: see Secrets.
type Spec struct {
	ID          string   `yaml:"id,omitempty"` // names the campaign and its folder; generated when empty
	Description string   `yaml:"description,omitempty"`
	UserAgent   string   `yaml:"user-agent"` // sent with every request; default DefaultUserAgent
	Window      Window   `yaml:"window,omitempty"`
	Budget      Budget   `yaml:"budget,omitempty"`
	Schedule    Schedule `yaml:"schedule,omitempty"`
	// Platforms sets, per platform name, the API base URL when it is not
	// the platform's public one (a compatible service, an instance).
	Platforms map[string]PlatformOptions `yaml:"platforms,omitempty"`
	Pairs     []Pair                     `yaml:"pairs"`
	Options   Options                    `yaml:"options,omitempty"`
}

// Window bounds the creation time of the posts a campaign keeps.
type Window struct {
	Since string `yaml:"since,omitempty"` // RFC 3339 time or date; empty: no bound
	Until string `yaml:"until,omitempty"`
}

// Budget ends a campaign once it is spent; zero means no limit.
type Budget struct {
	Requests int64 `yaml:"requests,omitempty"` // HTTP requests, over all passes
	Posts    int64 `yaml:"posts,omitempty"`    // post sightings stored, over all passes
}

// Schedule makes a campaign run once or every so often.
type Schedule struct {
	// Every starts a new pass this long after the last one started; 0
	// (the default) runs one pass.
	Every Duration `yaml:"every,omitempty"`
	// Passes ends the campaign after this many passes; 0: no end.
	Passes int64 `yaml:"passes,omitempty"`
}

// PlatformOptions configure one platform for the campaign.
type PlatformOptions struct {
	Base string `yaml:"base,omitempty"` // API base URL
}

// Pair is one (query, platform) pair.
type Pair struct {
	Platform string `yaml:"platform"`
	Kind     string `yaml:"kind"`            // keyword, hashtag, account, list, thread or post
	Query    string `yaml:"query"`           // the text: keyword(s), tag without '#', handle, URL or id
	Base     string `yaml:"base,omitempty"`  // this pair's API base URL, over the platform's
	Since    string `yaml:"since,omitempty"` // over the campaign's window
	Until    string `yaml:"until,omitempty"`
}

// Options are the campaign's further choices.
type Options struct {
	// Follow is how many queries a platform's strategy may add (authors'
	// recent posts, reply threads, quoted posts); 0 adds none.
	Follow int `yaml:"follow,omitempty"`
	// RetryErrors is how many times a failing page is tried again before
	// its pair is left for the pass; default 2.
	RetryErrors int `yaml:"retry-errors,omitempty"`
	// RetryDelay is the wait before the first retry, doubled each time;
	// default 2s.
	RetryDelay Duration `yaml:"retry-delay,omitempty"`
	// LinkedCrawl names a crawl of the same data folder that the links
	// shared in posts are injected into as they come, scored by how often
	// and how recently they were shared (see SharedLink).
	LinkedCrawl string `yaml:"linked-crawl,omitempty"`
	// LinkHalfLife is how fast a shared link's recency fades in its
	// score: a link last shared this long ago gets half; default 24h.
	LinkHalfLife Duration `yaml:"link-half-life,omitempty"`
}

// DefaultUserAgent is sent when the spec names none.
const DefaultUserAgent = "mneme-social/0.1 (+https://w3id.org/mneme)"

// Duration is a time.Duration written as in Go ("15m") or as seconds.
type Duration time.Duration

// UnmarshalYAML reads "15m" or 900.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: a duration such as \"15m\" expected", n.Line)
	}
	if v, err := time.ParseDuration(n.Value); err == nil {
		*d = Duration(v)
		return nil
	}
	secs, err := strconv.ParseFloat(strings.TrimSpace(n.Value), 64)
	if err != nil || secs < 0 {
		return fmt.Errorf("line %d: bad duration %q (want e.g. \"15m\", \"90s\" or a number of seconds)", n.Line, n.Value)
	}
	*d = Duration(secs * float64(time.Second))
	return nil
}

// MarshalYAML writes the Go form.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// Parse reads a YAML campaign specification; name labels errors. Unknown
// keys are errors, so a misspelt option is never silently ignored.
func Parse(data []byte, name string) (*Spec, error) {
	var s Spec
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&s); err != nil && !errors.Is(err, io.EOF) { // io.EOF: an empty file
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// Load reads the specification file at path.
func Load(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Marshal renders s as YAML.
func (s *Spec) Marshal() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ValidID reports whether id can name a campaign: the rule of crawl ids
// (it becomes a folder and part of WARC file names), so that a campaign
// and its linked crawl are named alike.
func ValidID(id string) bool { return crawlspec.ValidID(id) }

// NewID returns an id for a campaign created at t.
func NewID(t time.Time) string { return "campaign-" + t.UTC().Format("20060102-150405") }

var kinds = []platform.QueryKind{platform.ByKeyword, platform.ByHashtag, platform.ByAccount, platform.ByList, platform.ByThread, platform.ByPost}

// Check reports every problem of the specification, each naming its field.
func (s *Spec) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.ID != "" && !ValidID(s.ID) {
		bad("id %q: 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit", s.ID)
	}
	if len(s.Pairs) == 0 {
		bad("pairs: a campaign needs at least one (query, platform) pair")
	}
	if _, err := parseTime(s.Window.Since); err != nil {
		bad("window.since: %v", err)
	}
	if _, err := parseTime(s.Window.Until); err != nil {
		bad("window.until: %v", err)
	}
	if s.Budget.Requests < 0 || s.Budget.Posts < 0 {
		bad("budget: requests and posts are counts, 0 for no limit")
	}
	if s.Schedule.Every < 0 || s.Schedule.Passes < 0 {
		bad("schedule: every and passes cannot be negative")
	}
	if s.Options.LinkedCrawl != "" && !ValidID(s.Options.LinkedCrawl) {
		bad("options.linked-crawl %q: not a crawl id", s.Options.LinkedCrawl)
	}
	if s.Options.Follow < 0 || s.Options.RetryErrors < 0 || s.Options.LinkHalfLife < 0 {
		bad("options: follow, retry-errors and link-half-life cannot be negative")
	}
	for name, p := range s.Platforms {
		if err := checkBase(p.Base); err != nil {
			bad("platforms.%s.base: %v", name, err)
		}
	}
	seen := map[string]int{}
	for i, p := range s.Pairs {
		where := fmt.Sprintf("pairs[%d]", i)
		if p.Platform == "" {
			bad("%s.platform: missing (twitter, mastodon, bluesky, feed or import)", where)
		}
		if !validKind(p.Kind) {
			bad("%s.kind %q: want one of %v", where, p.Kind, kinds)
		}
		if strings.TrimSpace(p.Query) == "" {
			bad("%s.query: missing", where)
		}
		if err := checkBase(p.Base); err != nil {
			bad("%s.base: %v", where, err)
		}
		for _, t := range []struct{ name, v string }{{"since", p.Since}, {"until", p.Until}} {
			if _, err := parseTime(t.v); err != nil {
				bad("%s.%s: %v", where, t.name, err)
			}
		}
		key := p.Platform + "\x00" + p.Kind + "\x00" + p.Query
		if j, dup := seen[key]; dup {
			bad("%s: the same pair as pairs[%d]", where, j)
		}
		seen[key] = i
	}
	return errors.Join(errs...)
}

func validKind(k string) bool {
	for _, v := range kinds {
		if string(v) == k {
			return true
		}
	}
	return false
}

func checkBase(b string) error {
	if b == "" {
		return nil
	}
	u, err := url.Parse(b)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ws" && u.Scheme != "wss") || u.Host == "" {
		return fmt.Errorf("%q: want an http(s) or ws(s) URL", b)
	}
	if u.User != nil {
		return fmt.Errorf("%q: credentials go in the secrets file or the environment, not in the spec", u.Redacted())
	}
	return nil
}

// parseTime reads an RFC 3339 time or a date (midnight UTC); "" is zero.
func parseTime(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q: want an RFC 3339 time (2026-03-14T15:30:00Z) or a date (2026-03-14)", s)
}

// Query returns pair i's query, its window defaulting to the campaign's.
func (s *Spec) Query(i int) platform.Query {
	p := s.Pairs[i]
	q := platform.Query{Kind: platform.QueryKind(p.Kind), Text: p.Query}
	since, until := p.Since, p.Until
	if since == "" {
		since = s.Window.Since
	}
	if until == "" {
		until = s.Window.Until
	}
	q.Since, _ = parseTime(since) // checked by Check
	q.Until, _ = parseTime(until)
	return q
}

// Base returns pair i's API base URL: its own, else its platform's.
func (s *Spec) Base(i int) string {
	if b := s.Pairs[i].Base; b != "" {
		return b
	}
	return s.Platforms[s.Pairs[i].Platform].Base
}
