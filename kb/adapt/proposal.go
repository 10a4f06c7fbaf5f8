package adapt

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mneme-archive/mneme/kb"
)

// Proposal is one pattern learned for a site: an alternative for a field
// of an extraction, a navigation action or a level's detection, with its
// provenance. It adds to the knowledge base and removes nothing: the KB's
// own alternatives stay, and a site's learned ones are tried before them
// on that site (they were checked there) and after them elsewhere.
type Proposal struct {
	// ID names the proposal in the learned file and the review API: a
	// hash of what it changes and its pattern.
	ID     string `yaml:"id" json:"id"`
	Status Status `yaml:"status" json:"status"`
	// Site is the host (host:port) the pattern was learned on.
	Site  string `yaml:"site" json:"site"`
	Type  string `yaml:"type" json:"type"`
	Level string `yaml:"level" json:"level"`
	// Action is "field" (Object and Field say which), "navigate"
	// (Target says which) or "detect" (the level's detection).
	Action string        `yaml:"action" json:"action"`
	Object kb.ObjectKind `yaml:"object,omitempty" json:"object,omitempty"`
	Field  kb.Field      `yaml:"field,omitempty" json:"field,omitempty"`
	Target string        `yaml:"target,omitempty" json:"target,omitempty"`
	// Pattern is the learned XPath; Replaces the KB alternatives that
	// failed on the site.
	Pattern  string   `yaml:"pattern" json:"pattern"`
	Replaces []string `yaml:"replaces,omitempty" json:"replaces,omitempty"`
	// Method is "relearn" (found the content an earlier crawl stored) or
	// "relax" (a relaxed KB expression, in a cold start); Relaxations the
	// number of relaxations of a relaxed one.
	Method      string `yaml:"method" json:"method"`
	Relaxations int    `yaml:"relaxations,omitempty" json:"relaxations,omitempty"`
	// Pages are the URLs the pattern was checked on and worked on;
	// Checked how many pages it was tried on in all.
	Pages   []string  `yaml:"pages" json:"pages"`
	Checked int       `yaml:"checked" json:"checked"`
	Learned time.Time `yaml:"learned" json:"learned"`
}

// Status is where a proposal is in review. A pending proposal is used
// (adaptation must work unattended, as the paper's AAH does) until it is
// reviewed; a rejected one is kept, so that it is not learned again, but
// never used.
type Status string

// Review states.
const (
	Pending  Status = "pending"
	Accepted Status = "accepted"
	Rejected Status = "rejected"
)

// Actions a proposal can change.
const (
	ActionField    = "field"
	ActionNavigate = "navigate"
	ActionDetect   = "detect"
)

// Methods of learning.
const (
	MethodRelearn = "relearn"
	MethodRelax   = "relax"
)

// key is what a proposal changes, without its pattern.
func (p *Proposal) key() string {
	return fmt.Sprintf("%s|%s|%s|%s|%s|%s|%s", p.Site, p.Type, p.Level, p.Action, p.Object, p.Field, p.Target)
}

func (p *Proposal) setID() {
	h := sha256.Sum256([]byte(p.key() + "|" + p.Pattern))
	p.ID = hex.EncodeToString(h[:6])
}

// What returns a short description of what the proposal changes.
func (p *Proposal) What() string {
	switch p.Action {
	case ActionField:
		return fmt.Sprintf("%s/%s: %s %s", p.Type, p.Level, p.Object, p.Field)
	case ActionNavigate:
		return fmt.Sprintf("%s/%s: navigation to %s", p.Type, p.Level, p.Target)
	}
	return fmt.Sprintf("%s/%s: level detection", p.Type, p.Level)
}

// Apply returns a copy of k with the proposals that are not rejected
// added: those of site before the alternatives of the KB, those of other
// sites after them. k itself is not changed. A proposal naming a type,
// level, extraction or navigation k does not have is returned as an
// error and left out.
func Apply(k *kb.KB, props []Proposal, site string) (*kb.KB, error) {
	out := &kb.KB{Types: slices.Clone(k.Types)}
	cloned := map[string]*kb.Type{}
	var errs []error
	for i := range props {
		p := &props[i]
		if p.Status == Rejected {
			continue
		}
		ti := slices.IndexFunc(out.Types, func(t *kb.Type) bool { return t.ID == p.Type })
		if ti < 0 {
			errs = append(errs, fmt.Errorf("proposal %s: no type %q", p.ID, p.Type))
			continue
		}
		t := cloned[p.Type]
		if t == nil {
			t = cloneType(out.Types[ti])
			cloned[p.Type] = t
			out.Types[ti] = t
		}
		pat, err := compile(p.Pattern)
		if err != nil {
			errs = append(errs, fmt.Errorf("proposal %s: %v", p.ID, err))
			continue
		}
		if err := add(t, p, pat, p.Site == site); err != nil {
			errs = append(errs, fmt.Errorf("proposal %s: %v", p.ID, err))
		}
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("%d proposals not applied: %w", len(errs), errs[0])
	}
	return out, nil
}

// add puts pattern pat of proposal p among the alternatives it adds to.
func add(t *kb.Type, p *Proposal, pat *kb.Pattern, first bool) error {
	l := t.Level(p.Level)
	if l == nil {
		return fmt.Errorf("type %s has no level %q", t.ID, p.Level)
	}
	insert := func(alts []*kb.Pattern) []*kb.Pattern {
		if slices.ContainsFunc(alts, func(a *kb.Pattern) bool { return a.String() == p.Pattern }) {
			return alts
		}
		if first {
			return append([]*kb.Pattern{pat}, alts...)
		}
		return append(alts, pat)
	}
	switch p.Action {
	case ActionField:
		for _, x := range l.Extract {
			if x.Object == p.Object {
				x.Fields[p.Field] = insert(x.Fields[p.Field])
				return nil
			}
		}
		return fmt.Errorf("level %s has no %s extraction", l.Name, p.Object)
	case ActionNavigate:
		for _, n := range l.Navigate {
			if n.Target == p.Target {
				n.Select = insert(n.Select)
				return nil
			}
		}
		return fmt.Errorf("level %s has no navigation to %s", l.Name, p.Target)
	case ActionDetect:
		l.Detect = insert(l.Detect)
		return nil
	}
	return fmt.Errorf("unknown action %q", p.Action)
}

// cloneType copies t deeply enough that adding alternatives to the copy
// leaves t as it was.
func cloneType(t *kb.Type) *kb.Type {
	c := *t
	c.Levels = make([]*kb.Level, len(t.Levels))
	for i, l := range t.Levels {
		lc := *l
		lc.Detect = slices.Clone(l.Detect)
		lc.Navigate = make([]*kb.Navigation, len(l.Navigate))
		for j, n := range l.Navigate {
			nc := *n
			nc.Select = slices.Clone(n.Select)
			lc.Navigate[j] = &nc
		}
		lc.Extract = make([]*kb.Extraction, len(l.Extract))
		for j, x := range l.Extract {
			xc := *x
			xc.Fields = maps.Clone(x.Fields)
			xc.Optional = maps.Clone(x.Optional)
			lc.Extract[j] = &xc
		}
		c.Levels[i] = &lc
	}
	return &c
}
