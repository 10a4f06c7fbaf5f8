package eval

import (
	"math"
	"strconv"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/sparql/algebra"
	"github.com/mneme-archive/mneme/sparql/plan"
)

// A property path is a step of its basic graph pattern's plan like a
// triple pattern: the planner estimates it (planPath), orders it among
// the triples and joins it by bind (a walk from the ends each input row
// binds) or hash (one walk from the constant ends, probed per row).

// pathMemoMax bounds the pairs a bind step keeps from earlier walks.
const pathMemoMax = 1 << 16

// walkBudget is how many lookups a walk from a constant end may take at
// planning: enough for the hierarchies queries walk (a few thousand
// nodes), little next to a query that would start from the wrong end.
const walkBudget = 4096

// maxPathDepth bounds the levels the estimate of p+ and p* assumes.
const maxPathDepth = 8

// pathBindStep walks the path once per input row from the ends the row
// binds, remembering the walks of ends already seen.
type pathBindStep struct {
	ex    *Exec
	in    iter
	pn    *pathNode
	pe    *pathEval
	stats *Stats
	memo  map[[2]ID][][2]ID
	held  int
	row   []ID
	prs   [][2]ID
}

func (s *pathBindStep) next() ([]ID, error) {
	for {
		for len(s.prs) > 0 {
			pr := s.prs[0]
			s.prs = s.prs[1:]
			if out := s.pn.extend(s.ex, s.row, pr); out != nil {
				s.stats.Rows++
				return out, nil
			}
		}
		row, err := pull(s.ex, s.in)
		if err != nil || row == nil {
			return nil, err
		}
		s.row = row
		a, b := s.pn.ends(row)
		key := [2]ID{a, b}
		prs, ok := s.memo[key]
		if !ok {
			if prs, err = s.pn.match(s.pe, row); err != nil {
				return nil, err
			}
			if s.held+len(prs) <= pathMemoMax {
				s.memo[key] = prs
				s.held += len(prs)
			}
		}
		s.prs = prs
	}
}

func (s *pathBindStep) close() {
	s.pe.close()
	s.in.close()
}

// pathHashStep walks the path once from its constant ends and the seed's
// bindings, hashes the pairs on the ends bound before the step and
// probes them with each input row.
type pathHashStep struct {
	ex    *Exec
	in    iter
	pn    *pathNode
	seed  []ID
	sel   *graphSel
	stats *Stats
	// keyS, keyO: the ends the input rows bind.
	keyS, keyO bool
	table      map[[2]ID][][2]ID
	built      bool
	row        []ID
	prs        [][2]ID
}

func (s *pathHashStep) key(a, b ID) [2]ID {
	var k [2]ID
	if s.keyS {
		k[0] = a
	}
	if s.keyO {
		k[1] = b
	}
	return k
}

func (s *pathHashStep) next() ([]ID, error) {
	if !s.built {
		pe := newPathEval(s.ex, s.sel)
		prs, err := s.pn.match(pe, s.seed)
		pe.close()
		if err != nil {
			return nil, err
		}
		s.table = map[[2]ID][][2]ID{}
		for _, pr := range prs {
			k := s.key(pr[0], pr[1])
			s.table[k] = append(s.table[k], pr)
		}
		s.built = true
	}
	for {
		for len(s.prs) > 0 {
			pr := s.prs[0]
			s.prs = s.prs[1:]
			if out := s.pn.extend(s.ex, s.row, pr); out != nil {
				s.stats.Rows++
				return out, nil
			}
		}
		row, err := pull(s.ex, s.in)
		if err != nil || row == nil {
			return nil, err
		}
		s.row = row
		a, b := s.pn.ends(row)
		s.prs = s.table[s.key(a, b)]
	}
}

func (s *pathHashStep) close() { s.in.close() }

// openPathStep returns the step of path pattern qp over the rows of in.
func openPathStep(ex *Exec, in iter, qp *quadPat, join plan.Join, key []int, e env, stats *Stats) iter {
	if join == plan.Hash {
		h := &pathHashStep{ex: ex, in: in, pn: qp.path, seed: ex.newRow(e.seed), sel: e.graph, stats: stats}
		for _, k := range key {
			h.keyS = h.keyS || k == plan.S
			h.keyO = h.keyO || k == plan.O
		}
		return h
	}
	return &pathBindStep{ex: ex, in: in, pn: qp.path, pe: newPathEval(ex, e.graph), stats: stats, memo: map[[2]ID][][2]ID{}}
}

// pathPattern is a path as a pattern of its basic graph pattern.
func pathPattern(pn *pathNode) quadPat {
	return quadPat{t: [4]pos{pn.s, {slot: -1}, pn.o, {slot: -1}}, path: pn}
}

// planPath describes the path to the planner. With a constant end it
// walks the path from there (within walkBudget lookups) and counts; the
// walk is kept for the run. With both ends free it walks from sampled
// nodes (sampled), unless the path is links and alternatives of them. Otherwise, or when the walks are too long, it
// estimates from the predicates' statistics (pathStats).
func (c *compiler) planPath(x *algebra.Path, qp *quadPat) (plan.Pattern, error) {
	pn := qp.path
	p := plan.Pattern{Path: true, Sorted: -1, Vars: [4]int{pn.s.slot, -1, pn.o.slot, -1}}
	card, dS, dO := c.pathStats(pn.p)
	s, o := pn.ends(nil)
	_, links := altLinks(pn.p)
	switch {
	case s == 0 && o == 0 && links:
		// Links and their alternatives are their predicates' quads:
		// the statistics count them.
	case s == 0 && o == 0:
		smp, err := c.sampled(x, pn.p)
		if err != nil {
			return p, err
		}
		if smp.ok {
			card, dS, dO = smp.card, smp.card/smp.perS, smp.card/smp.perO
		}
	default:
		w, done := c.walks[x]
		var err error
		if !done {
			// Planned again (a trial, a factored branch): walk once.
			w, err = c.walk(pn, s, o)
			if err != nil && err != errWalkBudget {
				return p, err
			}
			c.walks[x] = w
		}
		if w != nil {
			pn.pre = w
			card = float64(len(w.pairs))
			dS, dO = distinctEnds(w.pairs)
		} else {
			// Longer than the budget: per start, what the
			// statistics say, but at least what was walked.
			per := math.Max(walkBudget, card/math.Max(1, dS))
			if s == 0 {
				per = math.Max(walkBudget, card/math.Max(1, dO))
			}
			card, dS, dO = per, math.Min(per, dS), math.Min(per, dO)
		}
	}
	p.Card = card
	p.Distinct[plan.S] = math.Max(math.Min(dS, card), 1)
	p.Distinct[plan.O] = math.Max(math.Min(dO, card), 1)
	qp.card = card
	return p, nil
}

// sampleWalks is how many start nodes the estimate of a path with both
// ends free walks from, in each direction, and sampleBudget the lookups
// those walks may take.
const (
	sampleWalks  = 16
	sampleBudget = 1024
)

// pathSample is what walks from sample nodes say of a path: its pairs and
// the nodes reached per bound subject (walking forwards) and per bound
// object (backwards); ok is false when no estimate could be made.
type pathSample struct {
	card, perS, perO float64
	ok               bool
}

// sampled estimates p by walking it from sample start nodes: how far a
// walk goes (a hierarchy walked upwards ends after a few levels,
// downwards it fans out) is what predicate statistics cannot tell. The
// start nodes are the first ones in the index of the path's first
// predicates, whose IDs are hashes, so in effect a random sample; *
// and ? are sampled without their zero-length matches, then add every
// node to itself.
func (c *compiler) sampled(x *algebra.Path, p ppath) (pathSample, error) {
	if smp, ok := c.samples[x]; ok {
		return smp, nil
	}
	core, zero := p, false
	if m, ok := p.(*pMod); ok && m.zero {
		zero, core = true, m.sub
		if m.many {
			core = &pMod{sub: m.sub, many: true}
		}
	}
	var smp pathSample
	fwd, starts, ok, err := c.sample(core)
	if err != nil {
		return smp, err
	}
	bwd, _, okb, err := c.sample(core.inverse())
	if err != nil {
		return smp, err
	}
	if ok && okb && fwd > 0 && bwd > 0 {
		smp = pathSample{card: fwd * starts, perS: fwd, perO: bwd, ok: true}
		if zero {
			smp.card += c.nodeCount()
			smp.perS++
			smp.perO++
		}
	}
	c.samples[x] = smp
	return smp, nil
}

// sample walks p from up to sampleWalks nodes its first links start from
// and returns the average nodes reached and how many nodes start those
// links (from the statistics); false when p may start anywhere or the
// walks outgrow sampleBudget.
func (c *compiler) sample(p ppath) (per, starts float64, ok bool, err error) {
	links, ok := firstLinks(p)
	if !ok {
		return 0, 0, false, nil
	}
	sel := c.ex.Data.defaultGraph()
	seen := map[ID]bool{}
	var nodes []ID
	for _, l := range links {
		if l.absent {
			continue
		}
		ps := c.storeStats.Predicates[l.id]
		if l.rev {
			starts += float64(ps.Objects)
		} else {
			starts += float64(ps.Subjects)
		}
		q := c.ex.scan(graph.Pattern{P: l.id}, sel)
		for len(nodes) < sampleWalks && q.next() {
			n := q.quad.S
			if l.rev {
				n = q.quad.O
			}
			if !seen[n] {
				seen[n] = true
				nodes = append(nodes, n)
			}
		}
		q.close()
		if q.err != nil {
			return 0, 0, false, q.err
		}
	}
	if len(nodes) == 0 {
		return 0, 0, false, nil
	}
	pe := newPathEval(c.ex, sel)
	pe.budget = sampleBudget
	defer pe.close()
	reached := 0
	for _, n := range nodes {
		err := pe.succ(p, n, func(ID) error { reached++; return nil })
		if err == errWalkBudget {
			return 0, 0, false, nil
		}
		if err != nil {
			return 0, 0, false, err
		}
	}
	return float64(reached) / float64(len(nodes)), starts, true, nil
}

// walk walks pn from its constant ends in the default graph within
// walkBudget lookups; nil and errWalkBudget past it.
func (c *compiler) walk(pn *pathNode, s, o ID) (*pathWalk, error) {
	sel := c.ex.Data.defaultGraph()
	pe := newPathEval(c.ex, sel)
	pe.budget = walkBudget
	prs, err := pe.pairs(pn.p, s, o)
	pe.close()
	if err != nil {
		return nil, err
	}
	return &pathWalk{s: s, o: o, sel: *sel, pairs: prs}, nil
}

func distinctEnds(prs [][2]ID) (float64, float64) {
	s, o := map[ID]bool{}, map[ID]bool{}
	for _, pr := range prs {
		s[pr[0]], o[pr[1]] = true, true
	}
	return float64(len(s)), float64(len(o))
}

// pathStats estimates, from the predicates' statistics, the pairs a
// path matches with both ends free and the distinct start and end nodes
// among them. A sequence joins its parts on the middle node, assuming
// its values spread evenly; p+ walks up to maxPathDepth levels, each
// reached node going on with the link's out-degree times the chance
// that it starts a link at all; p* and p? add every node to itself.
func (c *compiler) pathStats(p ppath) (card, dS, dO float64) {
	st := c.storeStats
	nodes := c.nodeCount()
	switch x := p.(type) {
	case *pLink:
		if x.absent {
			return 0, 0, 0
		}
		ps := st.Predicates[x.id]
		card, dS, dO = float64(ps.Triples), float64(ps.Subjects), float64(ps.Objects)
		if x.rev {
			dS, dO = dO, dS
		}
		return card, dS, dO
	case *pNeg:
		return float64(st.Triples), nodes, nodes
	case *pSeq:
		ac, as, ao := c.pathStats(x.a)
		bc, bs, bo := c.pathStats(x.b)
		card = ac * bc / math.Max(1, math.Max(ao, bs))
		return card, math.Min(as, card), math.Min(bo, card)
	case *pAlt:
		ac, as, ao := c.pathStats(x.a)
		bc, bs, bo := c.pathStats(x.b)
		return ac + bc, math.Min(as+bs, nodes), math.Min(ao+bo, nodes)
	case *pMod:
		card, dS, dO = c.pathStats(x.sub)
		if x.many && card > 0 {
			fan := card / math.Max(1, dS)
			cont := math.Min(1, math.Min(dS, dO)/math.Max(1, dO))
			per, level := 0.0, fan
			for range maxPathDepth {
				per += level
				level *= fan * cont
				if per >= dO || level < 0.5 {
					break
				}
			}
			card = dS * math.Min(per, dO)
		}
		if x.zero {
			card, dS, dO = card+nodes, nodes, nodes
		}
		return card, dS, dO
	}
	return 0, 0, 0
}

// nodeCount estimates the nodes of the store: the distinct subjects and
// objects of its predicates, at most two per triple.
func (c *compiler) nodeCount() float64 {
	if c.nodes == 0 {
		st := c.storeStats
		var n float64
		for _, ps := range st.Predicates {
			n += float64(ps.Subjects + ps.Objects)
		}
		c.nodes = math.Max(1, math.Min(n, 2*float64(st.Triples)))
	}
	return c.nodes
}

// pathsOf returns the triples and paths of op when it only joins basic
// graph patterns and paths.
func pathsOf(op algebra.Op) (bgp *algebra.BGP, paths []*algebra.Path, ok bool) {
	bgp = &algebra.BGP{}
	var walk func(op algebra.Op) bool
	walk = func(op algebra.Op) bool {
		switch x := op.(type) {
		case *algebra.BGP:
			bgp.Triples = append(bgp.Triples, x.Triples...)
			return true
		case *algebra.Path:
			paths = append(paths, x)
			return true
		case *algebra.Join:
			return walk(x.Left) && walk(x.Right)
		}
		return false
	}
	return bgp, paths, walk(op)
}

// walkNote says for EXPLAIN how the path step walks: from the ends
// bound before it (key: their positions) per input row, or once from
// its constant ends (hash; a walk done at planning is reused).
func (pn *pathNode) walkNote(key []int, join plan.Join) string {
	from := [2]bool{pn.s.slot < 0, pn.o.slot < 0}
	if join != plan.Hash {
		for _, k := range key {
			from[k/2] = true
		}
	}
	note := "walk"
	switch {
	case from[0] && from[1]:
		note += " between bound ends"
	case from[0]:
		note += " forwards from the subject"
	case from[1]:
		note += " backwards from the object"
	default:
		note += " from every start node"
	}
	if pn.pre != nil {
		note += ", " + strconv.Itoa(len(pn.pre.pairs)) + " pairs walked at planning"
	}
	return note
}
