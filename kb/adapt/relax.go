package adapt

import (
	"cmp"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/mneme-archive/mneme/kb/vdoc"
)

// Kinds of relaxation, after the paper: drop a predicate, replace a tag
// by one present in the page, replace an attribute's value by one
// collected from the page.
const (
	dropPred = iota
	retag
	revalue
)

// change is one relaxation of one step of a path. rank orders the
// changes of a kind: values and tags that KB actions of the same category
// use come first, then what the page has most of.
type change struct {
	kind, step, pred int
	val              string
	rank             int
}

// relaxed is a candidate expression and how far it is from the KB's.
type relaxed struct {
	src string
	// n is the number of relaxations; worst marks a candidate that
	// changes one step more than once (the paper's worst case).
	n     int
	worst bool
	score int
}

// vocab is what the sample pages offer to relaxation: the tags present
// and, per attribute, the values found on elements of each tag (class
// attributes cut into their tokens).
type vocab struct {
	tags   map[string]int
	values map[string]map[string]map[string]int // attr → tag → value → count
}

func collectVocab(docs []*vdoc.Doc) *vocab {
	v := &vocab{tags: map[string]int{}, values: map[string]map[string]map[string]int{}}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Namespace != "" {
			return // SVG and MathML: drawing, not the page's structure
		}
		if n.Type == html.ElementNode {
			v.tags[n.Data]++
			for _, a := range n.Attr {
				if a.Key == "style" || a.Key == "href" || a.Key == "src" {
					continue
				}
				vals := []string{a.Val}
				if a.Key == "class" {
					vals = strings.Fields(a.Val)
				}
				for _, val := range vals {
					if len(val) > 80 {
						continue
					}
					if v.values[a.Key] == nil {
						v.values[a.Key] = map[string]map[string]int{}
					}
					if v.values[a.Key][n.Data] == nil {
						v.values[a.Key][n.Data] = map[string]int{}
					}
					v.values[a.Key][n.Data][val]++
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, d := range docs {
		walk(d.Root)
	}
	return v
}

// valuesFor returns the values of attr on any element with their counts.
func (v *vocab) valuesFor(attr string) map[string]int {
	out := map[string]int{}
	for _, vals := range v.values[attr] {
		for val, n := range vals {
			out[val] += n
		}
	}
	return out
}

// Limits on the candidates tried per step: the page's vocabulary is large
// and the candidates grow as its power.
const (
	maxValues = 10
	maxTags   = 10
)

// relaxations generates the relaxed forms of base up to max changes,
// leaving its first frozen steps (the part shared with a detection
// pattern) and a final attribute or text() step alone. Relaxed forms are
// location paths: a wrapping function belonged to the old template's
// text layout and is dropped. The order is the paper's: best-case
// candidates (one change per step) by number of changes, then worst-case
// ones; within a number, those using the preferred values and tags (of KB
// actions of the same category) first.
func relaxations(base *path, frozen int, v *vocab, preferred map[string]bool, max int) []relaxed {
	var changes []change
	last := len(base.steps) - 1
	for i := frozen; i < len(base.steps); i++ {
		s := base.steps[i]
		if i == last && !s.element() {
			continue
		}
		for j, pr := range s.preds {
			changes = append(changes, change{kind: dropPred, step: i, pred: j, rank: 1})
			attr, lit, ok := predValue(pr)
			if !ok {
				continue
			}
			// Values on any element: the step's tag may be replaced too.
			for r, val := range ranked(v.valuesFor(attr), lit, preferred, maxValues) {
				changes = append(changes, change{kind: revalue, step: i, pred: j, val: val, rank: r})
			}
		}
		if s.element() {
			for r, t := range ranked(v.tags, s.test, preferred, maxTags) {
				changes = append(changes, change{kind: retag, step: i, val: t, rank: r})
			}
			if s.test != "*" {
				changes = append(changes, change{kind: retag, step: i, val: "*", rank: 2})
			}
		}
	}
	var out []relaxed
	seen := map[string]bool{base.locPath(): true}
	var pick []int
	var rec func(from, k int)
	rec = func(from, k int) {
		if len(pick) == k {
			if src, worst, ok := applyChanges(base, changes, pick, frozen); ok && !seen[src] {
				seen[src] = true
				score := 0
				for _, i := range pick {
					score += changes[i].rank
				}
				out = append(out, relaxed{src: src, n: k, worst: worst, score: score})
			}
			return
		}
		for i := from; i < len(changes); i++ {
			pick = append(pick, i)
			rec(i+1, k)
			pick = pick[:len(pick)-1]
		}
	}
	for k := 1; k <= max; k++ {
		rec(0, k)
	}
	sortRelaxed(out)
	return out
}

// sortRelaxed puts candidates in the paper's order: best case before
// worst case, fewer relaxations first, then preferred values first.
func sortRelaxed(cs []relaxed) {
	slices.SortStableFunc(cs, func(a, b relaxed) int {
		if a.worst != b.worst {
			if a.worst {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.n, b.n), cmp.Compare(a.score, b.score))
	})
}

// applyChanges applies the picked changes to a copy of base; it fails on
// a combination that changes one predicate twice or retags a step twice.
func applyChanges(base *path, changes []change, pick []int, frozen int) (src string, worst bool, ok bool) {
	p := base.clone()
	p.prefix, p.suffix = "", ""
	steps := map[int]int{}
	slots := map[[2]int]bool{}
	retagged := map[int]bool{}
	var drops [][2]int
	for _, i := range pick {
		c := changes[i]
		steps[c.step]++
		switch c.kind {
		case retag:
			if retagged[c.step] {
				return "", false, false
			}
			retagged[c.step] = true
			p.steps[c.step].test = c.val
		case dropPred, revalue:
			slot := [2]int{c.step, c.pred}
			if slots[slot] {
				return "", false, false
			}
			slots[slot] = true
			if c.kind == dropPred {
				drops = append(drops, slot)
			} else {
				p.steps[c.step].preds[c.pred] = withValue(p.steps[c.step].preds[c.pred], c.val)
			}
		}
	}
	// Drop from the last predicate of a step back, so indexes stay right.
	slices.SortFunc(drops, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(b[1], a[1])) })
	for _, d := range drops {
		s := &p.steps[d[0]]
		s.preds = slices.Delete(s.preds, d[1], d[1]+1)
	}
	for _, n := range steps {
		if n > 1 {
			worst = true
		}
	}
	if vacuous(p, frozen) {
		return "", false, false
	}
	return p.locPath(), worst, true
}

// vacuous reports a path relaxed so far that it selects anything: its
// element steps past the frozen prefix are all * without a predicate
// (.//*, the detection prefix followed by //*). Such a candidate fits any
// page whose records have some element, so that three pages prove
// nothing about it.
func vacuous(p *path, frozen int) bool {
	seen := false
	for _, s := range p.steps[frozen:] {
		if !s.element() {
			continue
		}
		if s.test != "*" || len(s.preds) > 0 {
			return false
		}
		seen = true
	}
	return seen
}

// ranked orders the values of a vocabulary for replacing orig. Those
// that share a part of at least four characters with orig or with a
// literal of the KB actions preferred (of the same field, in the same
// category: 'wp-block-post-author' for 'author-bio') come first, the
// longer the part the earlier; then the rest by frequency. orig itself
// and values naming one object (with digits) are left out.
func ranked(vals map[string]int, orig string, preferred map[string]bool, limit int) []string {
	type cand struct {
		v         string
		sim, freq int
	}
	var cs []cand
	for v, n := range vals {
		if v == orig || v == "" || strings.ContainsAny(v, "'\n") || hasDigit(v) {
			continue
		}
		lv := strings.ToLower(v)
		sim := commonSubstring(lv, strings.ToLower(orig))
		for l := range preferred {
			sim = max(sim, commonSubstring(lv, strings.ToLower(l)))
		}
		if preferred[v] {
			sim = len(v)
		}
		if sim < 4 {
			sim = 0
		}
		cs = append(cs, cand{v, sim, n})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(b.sim, a.sim), cmp.Compare(b.freq, a.freq), strings.Compare(a.v, b.v))
	})
	var out []string
	for i := 0; i < len(cs) && i < limit; i++ {
		out = append(out, cs[i].v)
	}
	return out
}

// hasDigit reports a value that names one object (post-10, comment-16,
// wp-container-8) rather than a role in the template.
func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// commonSubstring returns the length of the longest common substring.
func commonSubstring(a, b string) int {
	best := 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1] + 1
				best = max(best, cur[j])
			} else {
				cur[j] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

// frozenSteps is how many leading steps p shares with one of the
// detection patterns: the paper keeps that prefix, which identifies the
// level, as it is.
func frozenSteps(p *path, detect []string) int {
	best := 0
	for _, d := range detect {
		for _, branch := range splitUnion(d) {
			q, err := parsePath(branch)
			if err != nil || q.lead != p.lead {
				continue
			}
			n := 0
			for n < len(p.steps) && n < len(q.steps) && stepEqual(p.steps[n], q.steps[n]) {
				n++
			}
			best = max(best, n)
		}
	}
	return best
}

func stepEqual(a, b pstep) bool {
	return a.sep == b.sep && a.test == b.test && slices.Equal(a.preds, b.preds)
}

// vocabularyOf collects the tags and literal values of KB expressions
// (those of actions of the same category), which relaxation prefers.
func vocabularyOf(srcs []string) map[string]bool {
	out := map[string]bool{}
	for _, src := range srcs {
		for _, branch := range splitUnion(src) {
			p, err := parsePath(branch)
			if err != nil {
				continue
			}
			for _, s := range p.steps {
				if s.element() {
					out[s.test] = true
				}
				for _, pr := range s.preds {
					if _, lit, ok := predValue(pr); ok {
						out[lit] = true
					}
				}
			}
		}
	}
	return out
}
