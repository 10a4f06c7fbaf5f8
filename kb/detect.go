package kb

import (
	"slices"
	"strings"

	"github.com/mneme-archive/mneme/kb/fingerprint"
	"github.com/mneme-archive/mneme/kb/litindex"
	"github.com/mneme-archive/mneme/kb/vdoc"
)

// Detector names the application behind pages: the knowledge base's types
// through a literal index over their detection patterns, and optionally
// the technologies of Wappalyzer-format fingerprints. It is safe for
// concurrent use.
type Detector struct {
	kb    *KB
	refs  []patternRef
	index *litindex.Index
	fp    *fingerprint.Set
	// joint scans pages once for the literals of index and of the
	// fingerprints; nil without fingerprints.
	joint *litindex.Joint
	// raw files the same patterns for Possible, which scans the markup
	// as sent (ASCII case-blind); need has each pattern's literals.
	raw  *litindex.Index
	need []patternNeed
	// names are the fingerprints' application technologies by their
	// one-word names, for markup that names its engine (namedInMarkup).
	names map[string]fingerprint.Match
}

type patternRef struct {
	typ  int // index in kb.Types
	rank int // index in the type's Detect list: lower is stronger
}

// NewDetector indexes the detection patterns of k; fp may be nil.
func NewDetector(k *KB, fp *fingerprint.Set) *Detector {
	d := &Detector{kb: k, fp: fp}
	b := litindex.NewBuilder(false) // pages and literals are lower-cased here
	raw := litindex.NewBuilder(true)
	for ti, t := range k.Types {
		for pi, p := range t.Detect {
			lits := markupLiterals(p.Literals)
			b.Add(len(d.refs), lits)
			raw.Add(len(d.refs), lits)
			d.need = append(d.need, needOf(raw, lits))
			d.refs = append(d.refs, patternRef{ti, pi})
		}
	}
	d.index, d.raw = b.Build(), raw.Build()
	if fp != nil {
		// Both indexes take lower-cased text and join; were they ever to
		// fold case differently, each would scan pages on its own.
		if j, err := litindex.Join(d.index, fp.Index()); err == nil {
			d.joint = j
		}
		d.names = selfNames(fp)
	}
	return d
}

// markupLiterals lower-cases literals as vdoc.Doc.Lower does pages,
// keeping those that markup writes as they are: not with &, <, >, quotes
// or non-ASCII characters, which character references may stand for.
func markupLiterals(lits []string) []string {
	var out []string
	for _, l := range lits {
		if !strings.ContainsFunc(l, func(r rune) bool { return r >= 0x80 || strings.ContainsRune(`&<>"'`, r) }) {
			out = append(out, string(vdoc.LowerASCII([]byte(l))))
		}
	}
	return out
}

// KB returns the knowledge base the detector uses.
func (d *Detector) KB() *KB { return d.kb }

// Fingerprints returns the fingerprint set, nil when none was loaded.
func (d *Detector) Fingerprints() *fingerprint.Set { return d.fp }

// Detection is what Detect found for one page.
type Detection struct {
	// Type is the knowledge-base type identified, nil when none was.
	Type *Type
	// Pattern is the type's detection pattern that fired. With a type
	// known only through a fingerprint it is nil and Technology says why.
	Pattern *Pattern
	// Level is the page's level, nil when no level pattern matched;
	// LevelPattern the pattern that decided it.
	Level        *Level
	LevelPattern *Pattern
	// Technology is the fingerprint technology the application was named
	// by when the knowledge base has no matching pattern (nil otherwise).
	Technology *fingerprint.Match
	// Technologies is every fingerprint technology found on the page.
	Technologies []fingerprint.Match
	// Evidence is what named the knowledge-base type: the kinds of its
	// patterns that are true on the page and the confidence they give.
	Evidence Evidences
	// Rejected are the types whose only evidence was too weak (a
	// generator string on a page with nothing else of the application).
	Rejected []string
}

// Evidences is the evidence for an application on a page.
type Evidences struct {
	Kinds      []string // header, cookie, generator, asset, script, markup, id, url
	Confidence float64
}

// MinConfidence is the confidence an application needs: one kind of
// strong evidence, or two weak ones.
const MinConfidence = 0.5

// evidenceWeights: how far each kind of evidence alone names an
// application. A generator string is copied onto sites the application
// did not make (exports, themes, other engines); a URL shape is shared by
// many; one element's id (<body id="phpbb">) is a single word a theme or
// another engine may write too; an asset path on any host, a header, a
// cookie, the application's markup (its classes and structure) or its
// embedded settings are its own. The weak kinds name an application
// only with a second, independent kind.
var evidenceWeights = map[string]float64{
	"header": 0.7, "cookie": 0.6, "generator": 0.45, "asset": 0.6, "script": 0.6, "markup": 0.6, "id": 0.4, "url": 0.3,
}

// with adds a kind of evidence.
func (ev Evidences) with(kind string) Evidences {
	if slices.Contains(ev.Kinds, kind) {
		return ev
	}
	ev.Kinds = append(slices.Clone(ev.Kinds), kind)
	slices.Sort(ev.Kinds)
	ev.Confidence = 1 - (1-ev.Confidence)*(1-evidenceWeights[kind])
	return ev
}

// structured reports whether one of t's level patterns on the markup (not
// on the URL, nor one of its detection patterns again) holds on doc: the
// application's page structure, which corroborates a weak signal such as
// its generator string or the id of its root element.
func (t *Type) structured(doc *vdoc.Doc) bool {
	for _, l := range t.Levels {
		for _, p := range l.Detect {
			if patternKind(p) != "url" && !slices.ContainsFunc(t.Detect, func(q *Pattern) bool { return q.String() == p.String() }) &&
				p.MatchIndexed(doc.Root, doc) {
				return true
			}
		}
	}
	return false
}

// patternKind is the kind of evidence a detection pattern looks at.
func patternKind(p *Pattern) string {
	src := p.String()
	switch {
	case strings.Contains(src, "/http/header"):
		return "header"
	case strings.Contains(src, "/http/cookie"):
		return "cookie"
	case strings.Contains(src, "/http/url"):
		return "url"
	case strings.Contains(src, "'generator'"):
		return "generator"
	case strings.Contains(src, "text()"):
		return "script"
	case strings.Contains(src, "@src") || strings.Contains(src, "@href"):
		return "asset"
	case strings.Count(src, "@") == 1 && strings.Contains(src, "@id"):
		return "id"
	}
	return "markup"
}

// Evidence evaluates the detection patterns of t at the given ranks with
// match and combines the kinds of those that hold: 1 − Π(1 − weight) over
// distinct kinds.
func Evidence(t *Type, ranks []int, match func(*Pattern) bool) Evidences {
	var ev Evidences
	miss := 1.0
	for _, r := range ranks {
		p := t.Detect[r]
		k := patternKind(p)
		if slices.Contains(ev.Kinds, k) || !match(p) {
			continue
		}
		ev.Kinds = append(ev.Kinds, k)
		miss *= 1 - evidenceWeights[k]
	}
	slices.Sort(ev.Kinds)
	ev.Confidence = 1 - miss
	return ev
}

// App returns the short name of the application, "" when unknown: the
// knowledge-base type's ID, or the slug of a fingerprint technology of
// the blog, forum, wiki or CMS categories (whose type is then its
// category's generic type).
func (det *Detection) App() string {
	switch {
	case det.Type != nil && !det.Type.Generic:
		return det.Type.ID
	case det.Technology != nil:
		return det.Technology.Slug
	}
	return ""
}

// Category returns blog, forum, wiki or cms for a known application.
func (det *Detection) Category() string {
	switch {
	case det.Type != nil:
		return det.Type.Category
	case det.Technology != nil:
		return TechCategory(det.Technology)
	}
	return ""
}

// TechCategory is the application category (blog, forum, wiki, cms) of a
// fingerprint technology, "" when it is not an application: the
// category the fingerprints give it, or the one the knowledge base knows
// for platforms the fingerprints file elsewhere (community platforms
// under content curation, say).
func TechCategory(m *fingerprint.Match) string { return techCategory(m.Slug, m.AppCategory) }

func techCategory(slug, appCategory string) string {
	if c, ok := techCategories[slug]; ok {
		return c
	}
	return appCategory
}

// NamesApplication reports whether the fingerprint technology of slug and
// application category (fingerprint.Match) names an application
// (TechCategory): what a crawl loads fingerprints for
// (fingerprint.LoadOnly), as Detect names applications only by those
// technologies and by the ones that imply them.
func NamesApplication(slug, appCategory string) bool { return techCategory(slug, appCategory) != "" }

// categoryRank orders categories from the most specific.
var categoryRank = map[string]int{"forum": 4, "wiki": 3, "blog": 2, "cms": 1}

// techCategories are the knowledge base's facts about technologies whose
// fingerprint categories name no application category, or the wrong one.
var techCategories = map[string]string{
	"insided": "forum", "invision-community": "forum", "invision-power-board": "forum", "lithium": "forum",
	"simple-machines-forum": "forum", "mybb": "forum", "nodebb": "forum", "flarum": "forum",
	"tumblr": "blog", "ghost": "blog", "medium": "blog", "substack": "blog", "blogger": "blog",
	"hugo": "cms", "jekyll": "cms", "squarespace": "cms", "webflow": "cms", "wix": "cms", "weebly": "cms",
}

// Detect identifies the application type and the level of doc. One scan
// of the page finds the literals of the knowledge base's patterns and of
// the fingerprints; only patterns whose literal occurs in the page are
// evaluated. When several types fire, the one whose fired pattern comes
// earliest in its list (the strongest evidence, by the convention of the
// KB files) wins, then the first type; but a type whose candidate
// patterns that hold give less than MinConfidence (Evidence: a lone
// generator string, say) is passed over.
func (d *Detector) Detect(doc *vdoc.Doc) *Detection {
	det := &Detection{}
	best, bestRank := -1, 0
	done := make([]bool, len(d.kb.Types))
	markup, http := doc.Lower()
	var hits, fpHits *litindex.Hits
	switch {
	case d.joint != nil:
		// The fingerprints' index looks at the markup; the knowledge
		// base's at it and the <http> element.
		texts := append([][]byte{markup}, http...)
		hs := d.joint.Scan(texts, []int{len(texts), 1})
		hits, fpHits = hs[0], hs[1]
	case d.fp != nil:
		hits = d.index.Scan(append([][]byte{markup}, http...)...)
		fpHits = d.fp.Index().Scan(markup)
	default:
		hits = d.index.Scan(append([][]byte{markup}, http...)...)
	}
	// The types whose patterns fired, each with its first (strongest)
	// fired pattern; cands keeps each type's candidate patterns for the
	// evidence count.
	fired := map[int]int{}
	cands := map[int][]int{}
	for _, id := range hits.Candidates {
		r := d.refs[id]
		cands[r.typ] = append(cands[r.typ], r.rank)
		if done[r.typ] {
			continue
		}
		p := d.kb.Types[r.typ].Detect[r.rank]
		if !p.MatchIndexed(doc.Root, doc) {
			continue
		}
		done[r.typ] = true
		fired[r.typ] = r.rank
	}
	// A type shown by the site's own files alone ranks after every
	// pattern of its list.
	ownFiles := map[int]*SiteFiles{}
	for ti, t := range d.kb.Types {
		for _, sf := range t.SiteFiles {
			if sf.Holds(doc, markup) {
				ownFiles[ti] = sf
				if _, ok := fired[ti]; !ok {
					fired[ti] = len(t.Detect)
				}
				break
			}
		}
	}
	// The strongest type whose evidence is not one weak signal alone.
	for len(fired) > 0 {
		b, br := -1, 0
		for ti, rank := range fired {
			if b < 0 || rank < br || rank == br && ti < b {
				b, br = ti, rank
			}
		}
		t := d.kb.Types[b]
		ev := Evidence(t, cands[b], func(p *Pattern) bool { return p.MatchIndexed(doc.Root, doc) })
		if ownFiles[b] != nil {
			ev = ev.with("asset")
		}
		if ev.Confidence < MinConfidence && t.structured(doc) {
			ev = ev.with("markup")
		}
		if ev.Confidence >= MinConfidence {
			best, bestRank = b, br
			det.Pattern, det.Evidence = t.Detect[min(br, len(t.Detect)-1)], ev
			if br == len(t.Detect) {
				det.Pattern = ownFiles[b].Pattern
			}
			break
		}
		det.Rejected = append(det.Rejected, t.ID)
		delete(fired, b)
	}
	_ = bestRank
	if d.fp != nil {
		det.Technologies = d.fp.MatchScanned(doc, fpHits)
	}
	if best >= 0 {
		det.Type = d.kb.Types[best]
	} else if tech := d.appTechnology(det, doc, markup); tech != nil {
		det.Technology = tech
		// The knowledge base's entry for the technology, else its
		// category's generic type.
		if det.Type = d.kb.Type(tech.Slug); det.Type == nil {
			det.Type = Generic(TechCategory(tech))
		}
	}
	if det.Type != nil {
		det.Level, det.LevelPattern = det.Type.LevelOf(doc)
	}
	return det
}

// appTechnology is the technology that names the application on doc when
// no knowledge-base type does: one the fingerprints found, else one the
// markup names itself by.
func (d *Detector) appTechnology(det *Detection, doc *vdoc.Doc, markup []byte) *fingerprint.Match {
	if t := appTechnology(det.Technologies, det.Rejected); t != nil {
		return t
	}
	if m := namedInMarkup(doc, markup, d.names); m != nil && !slices.Contains(det.Rejected, m.Slug) {
		det.Technologies = append(det.Technologies, *m)
		return m
	}
	return nil
}

// appTechnology picks the technology that names the application among
// those of an application category, but the rejected types (too weak
// evidence in the knowledge base's eyes): found on the page before implied,
// then of higher confidence, then first by name.
func appTechnology(ts []fingerprint.Match, rejected []string) *fingerprint.Match {
	var best *fingerprint.Match
	for i := range ts {
		t := &ts[i]
		if TechCategory(t) == "" || slices.Contains(rejected, t.Slug) {
			continue // not an application, or one whose evidence was too weak
		}
		// The platform before what is built on it (WordPress before
		// its page builder): the most specific category first.
		if best == nil {
			best = t
			continue
		}
		br, tr := categoryRank[TechCategory(best)], categoryRank[TechCategory(t)]
		if tr > br || tr == br && (best.Implied && !t.Implied ||
			best.Implied == t.Implied && t.Confidence > best.Confidence) {
			best = t
		}
	}
	return best
}

// LevelOf returns the first level of t one of whose patterns is true on
// doc, with that pattern.
func (t *Type) LevelOf(doc *vdoc.Doc) (*Level, *Pattern) {
	for _, l := range t.Levels {
		if i := slices.IndexFunc(l.Detect, func(p *Pattern) bool { return p.MatchIndexed(doc.Root, doc) }); i >= 0 {
			return l, l.Detect[i]
		}
	}
	return nil, nil
}
