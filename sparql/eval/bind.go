package eval

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/mneme-archive/mneme/graph"
)

// bindStep is an index nested-loop join: the pattern is looked up once
// per input row, by re-targeting a scan kept open per shape (which
// positions the row binds) rather than opening one per row.
//
// Input rows are taken in batches, growing from one row to
// bindBatchMax, and looked up in the order of the keys they seek: seeks
// in key order find the store's blocks and files where the previous seek
// left them, where random ones start over (about a quarter less CPU per
// seek on LUBM). A large batch is split in two, its second half looked
// up on another goroutine while this one works through the first: the
// lookups of a join step with many input rows are its whole cost, and
// the machine has more than one core. The batch's rows come out in key
// order; a basic graph pattern's solutions have no order to keep.
type bindStep struct {
	ex    *Exec
	in    iter
	pat   *quadPat
	sel   *graphSel
	stats *Stats
	row   []ID
	scan  *quadIter
	scans [16]*quadIter // by the bound positions of the looked-up pattern
	// batch holds the input rows taken, in key order; bi is the next to
	// look up and size the size of the next batch.
	batch []lookup
	bi    int
	size  int
	eof   bool
	// help looks up the batch's rows from help.from on, or is nil.
	help *bindHelper
	// helpScans are the helper's scans, by shape like scans.
	helpScans [16]*quadIter
	found     []helpMatch // the helper's matches still to return
	// out, when set, is the one row every match is written into (see
	// rowReuser).
	out []ID
}

// reuseRows: the step's input rows are held in batches, so only its
// own output can be one reused row.
func (s *bindStep) reuseRows() { s.out = make([]ID, s.ex.width()) }

// emit is row extended with q, or nil when they conflict.
func (s *bindStep) emit(row []ID, q graph.IDQuad) []ID {
	if s.out != nil && len(row) == len(s.out) {
		return s.pat.extendInto(s.out, row, q)
	}
	return s.pat.extend(s.ex, row, q)
}

// lookup is an input row and the pattern it looks up.
type lookup struct {
	row []ID
	pat graph.Pattern
	key [4]ID // the pattern's IDs in the scan's key order
}

// bindBatchMax is the most input rows a bind step takes at once.
const bindBatchMax = 4096

// helpMin is the smallest batch whose second half goes to a helper
// goroutine: below it, starting one costs more than it saves. (Variables
// so that tests can exercise the helper on small data.)
var helpMin = 512

// helpCap bounds the matches a helper holds for the step to return; a
// helper that reaches it stops, and the step looks up the rest itself.
var helpCap = 1 << 16

// bindHelper is the lookup of a batch's second half on its own goroutine.
type bindHelper struct {
	from  int
	done  chan struct{}
	stop  atomic.Bool
	found []helpMatch
	next  int // the first batch row not looked up (the end when complete)
	err   error
}

// helpMatch is a quad found for the batch row at index i.
type helpMatch struct {
	i    int
	quad graph.IDQuad
}

func (s *bindStep) next() ([]ID, error) {
	for {
		if s.scan != nil {
			for s.scan.next() {
				if err := s.ex.tick(); err != nil {
					return nil, err
				}
				if out := s.emit(s.row, s.scan.quad); out != nil {
					s.stats.Rows++
					return out, nil
				}
			}
			err := s.scan.err
			s.scan = nil
			if err != nil {
				return nil, err
			}
		}
		for len(s.found) > 0 {
			if err := s.ex.tick(); err != nil {
				return nil, err
			}
			m := s.found[0]
			s.found = s.found[1:]
			if out := s.emit(s.batch[m.i].row, m.quad); out != nil {
				s.stats.Rows++
				return out, nil
			}
		}
		if s.help != nil && s.bi == s.help.from {
			h := s.help
			<-h.done
			s.help = nil
			if h.err != nil {
				return nil, h.err
			}
			s.found, s.bi = h.found, h.next
			continue
		}
		if s.bi == len(s.batch) {
			if err := s.fill(); err != nil || len(s.batch) == 0 {
				return nil, err
			}
		}
		l := &s.batch[s.bi]
		s.bi++
		s.row = l.row
		s.scan = lookupScan(s.ex, &s.scans, s, l.pat, true)
	}
}

// lookupScan re-targets the scan of scans for pat's shape to pat,
// opening one (or taking an idle one of the execution, when idle is set)
// the first time.
func lookupScan(ex *Exec, scans *[16]*quadIter, s *bindStep, pat graph.Pattern, idle bool) *quadIter {
	shape := patShape(pat)
	q := scans[shape]
	if q == nil {
		k := s.scanKey(shape)
		if idle {
			q = ex.idleScan(k)
		}
		if q == nil {
			q = ex.scanShaped(k.base, pat, k.sel)
		}
		scans[shape] = q
	}
	q.reset(pat)
	return q
}

// patShape is the set of positions pat binds, a bit per position.
func patShape(pat graph.Pattern) int {
	shape := 0
	for k, id := range [4]ID{pat.S, pat.P, pat.O, pat.G} {
		if id != graph.Any {
			shape |= 1 << k
		}
	}
	return shape
}

// fill takes the next batch of input rows, sorts it by lookup key and
// hands the second half of a large one to a helper.
func (s *bindStep) fill() error {
	s.batch, s.bi = s.batch[:0], 0
	if s.eof {
		return nil
	}
	s.size = min(max(2*s.size, 1), bindBatchMax)
	union := s.sel != nil && s.sel.union && !s.pat.graphVar
	for len(s.batch) < s.size {
		row, err := pull(s.ex, s.in)
		if err != nil {
			return err
		}
		if row == nil {
			s.eof = true
			break
		}
		pat := s.pat.pattern(row)
		l := lookup{row: row, pat: pat}
		ids := [4]ID{pat.S, pat.P, pat.O, pat.G}
		for i, c := range graph.AutoOrder(pat, union).String() {
			l.key[i] = ids[strings.IndexByte("spog", byte(c))]
		}
		s.batch = append(s.batch, l)
	}
	if len(s.batch) > 1 {
		slices.SortFunc(s.batch, func(a, b lookup) int {
			for i := range a.key {
				if c := cmp.Compare(a.key[i], b.key[i]); c != 0 {
					return c
				}
			}
			return 0
		})
	}
	if len(s.batch) >= helpMin {
		s.startHelper(len(s.batch) / 2)
	}
	return nil
}

// startHelper looks up the batch's rows from index from on on another
// goroutine.
func (s *bindStep) startHelper(from int) {
	h := &bindHelper{from: from, done: make(chan struct{}), next: len(s.batch)}
	s.help = h
	batch := s.batch
	go func() {
		defer close(h.done)
		for i := from; i < len(batch); i++ {
			if h.stop.Load() || len(h.found) >= helpCap {
				h.next = i
				return
			}
			if (i-from)%checkEvery == 0 {
				if h.err = s.ex.Ctx.Err(); h.err != nil {
					return
				}
			}
			q := lookupScan(s.ex, &s.helpScans, s, batch[i].pat, false)
			for q.next() {
				h.found = append(h.found, helpMatch{i: i, quad: q.quad})
			}
			if q.err != nil {
				h.err = q.err
				return
			}
		}
	}()
}

// scanKey describes the scans the step uses for rows of shape.
func (s *bindStep) scanKey(shape int) scanKey {
	sel := s.sel
	if s.pat.graphVar {
		sel = nil
	}
	return scanKey{base: s.pat.pattern(nil), shape: shape, sel: sel}
}

// close stops the helper and gives the step's scans back to the
// execution for the next opening of the pattern.
func (s *bindStep) close() {
	if h := s.help; h != nil {
		h.stop.Store(true)
		<-h.done
		s.help = nil
	}
	for shape, q := range s.scans {
		if q != nil {
			s.ex.putScan(s.scanKey(shape), q)
			s.scans[shape] = nil
		}
	}
	for shape, q := range s.helpScans {
		if q != nil {
			q.close()
			s.helpScans[shape] = nil
		}
	}
	s.in.close()
}
