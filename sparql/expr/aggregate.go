package expr

import (
	"strings"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/syntax"
)

// Aggregate is a compiled aggregate (§18.5.1): COUNT, SUM, MIN, MAX, AVG,
// SAMPLE or GROUP_CONCAT, possibly DISTINCT.
type Aggregate struct {
	name     string
	distinct bool
	arg      *Expr // nil for COUNT(*)
	sep      string
	scope    *Scope
}

// CompileAggregate compiles a; its argument's variables get slots in
// scope. COUNT(DISTINCT *) compares solutions over all of scope's slots,
// so rows must use the same scope.
func CompileAggregate(a *syntax.Aggregate, scope *Scope) (*Aggregate, error) {
	out := &Aggregate{name: a.Name, distinct: a.Distinct, sep: " ", scope: scope}
	if a.HasSeparator {
		out.sep = a.Separator
	}
	switch a.Name {
	case "COUNT", "SUM", "MIN", "MAX", "AVG", "SAMPLE", "GROUP_CONCAT":
	default:
		return nil, &CompileError{Expr: syntax.ExprString(a), Msg: "unknown aggregate " + a.Name}
	}
	if a.Arg != nil {
		e, err := Compile(a.Arg, scope)
		if err != nil {
			return nil, err
		}
		out.arg = e
	}
	return out, nil
}

// CountsRows reports whether a is COUNT(*) without DISTINCT: its value
// is the number of solutions, which an evaluator may count without
// producing them (see AddRows).
func (a *Aggregate) CountsRows() bool { return a.name == "COUNT" && a.arg == nil && !a.distinct }

// New starts the accumulation for one group.
func (a *Aggregate) New() *Accumulator {
	acc := &Accumulator{agg: a, sum: intNum(0)}
	if a.distinct {
		acc.seen = map[rdf.Term]struct{}{}
		if a.arg == nil {
			acc.seenRows = map[string]struct{}{}
		}
	}
	return acc
}

// Accumulator folds the solutions of one group into the aggregate value.
type Accumulator struct {
	agg      *Aggregate
	count    int64
	sum      number
	best     rdf.Term // MIN, MAX, SAMPLE
	concat   strings.Builder
	err      error // SUM, AVG: the first error, which makes the result an error
	seen     map[rdf.Term]struct{}
	seenRows map[string]struct{}
	key      []byte
}

// Add folds in one solution. Errors in the argument are skipped by COUNT,
// MIN, MAX, SAMPLE and GROUP_CONCAT and make SUM and AVG an error, as
// §18.5.1 defines them over the values with and without errors.
func (acc *Accumulator) Add(c *Context, b Binding) {
	a := acc.agg
	if a.arg == nil { // COUNT(*)
		if acc.seenRows != nil {
			acc.key = acc.key[:0]
			for i := range a.scope.names {
				acc.key = b.Value(i).Append(acc.key)
				acc.key = append(acc.key, 0)
			}
			if _, dup := acc.seenRows[string(acc.key)]; dup {
				return
			}
			acc.seenRows[string(acc.key)] = struct{}{}
		}
		acc.count++
		return
	}
	v, err := a.arg.root.eval(c, b)
	if err != nil {
		if (a.name == "SUM" || a.name == "AVG") && acc.err == nil {
			acc.err = err
		}
		return
	}
	if acc.seen != nil {
		t := v.term()
		if _, dup := acc.seen[t]; dup {
			return
		}
		acc.seen[t] = struct{}{}
	}
	acc.count++
	switch a.name {
	case "SUM", "AVG":
		n, ok := v.number()
		if !ok {
			acc.err = ErrType
			return
		}
		if acc.err == nil {
			acc.sum, acc.err = arith('+', acc.sum, n)
		}
	case "MIN", "MAX":
		t := v.term()
		if acc.count == 1 {
			acc.best = t
			return
		}
		if c := Compare(t, acc.best); a.name == "MIN" && c < 0 || a.name == "MAX" && c > 0 {
			acc.best = t
		}
	case "SAMPLE":
		if acc.count == 1 {
			acc.best = v.term()
		}
	case "GROUP_CONCAT":
		t := v.term()
		if t.Kind == rdf.KindBlank {
			acc.err = ErrType
			return
		}
		if acc.count > 1 {
			acc.concat.WriteString(a.sep)
		}
		acc.concat.WriteString(t.Value)
	}
}

// AddKey folds in one solution of SUM or AVG (without DISTINCT) whose
// argument, a plain variable (see VarArg), is bound to the term of the
// prepared key k: a term's number is parsed once for its key, not per
// solution.
func (acc *Accumulator) AddKey(k *OrderKey) {
	acc.count++
	if k.t.Kind != rdf.KindLiteral || k.class != classNumber {
		acc.err = ErrType
		return
	}
	if acc.err == nil {
		acc.sum, acc.err = arith('+', acc.sum, k.num)
	}
}

// SumsKeys reports whether a may be fed with AddKey.
func (a *Aggregate) SumsKeys() bool {
	_, isVar := a.VarArg()
	return isVar && !a.distinct && (a.name == "SUM" || a.name == "AVG")
}

// AddRows folds in n solutions at once; only for an aggregate whose
// CountsRows holds, whose solutions need not be seen.
func (acc *Accumulator) AddRows(n int64) { acc.count += n }

// Result returns the aggregate's value; an error leaves the variable
// unbound. An empty group counts 0, sums and averages to 0, concatenates
// to "" and has no MIN, MAX or SAMPLE.
func (acc *Accumulator) Result() (rdf.Term, error) {
	switch acc.agg.name {
	case "COUNT":
		return intNum(acc.count).term(), nil
	case "SUM", "AVG":
		if acc.err != nil {
			return rdf.Term{}, acc.err
		}
		if acc.agg.name == "SUM" || acc.count == 0 {
			return acc.sum.term(), nil
		}
		avg, err := arith('/', acc.sum, intNum(acc.count))
		if err != nil {
			return rdf.Term{}, err
		}
		return avg.term(), nil
	case "GROUP_CONCAT":
		if acc.err != nil {
			return rdf.Term{}, acc.err
		}
		return rdf.String(acc.concat.String()), nil
	}
	if acc.best.IsZero() {
		return rdf.Term{}, ErrUnbound
	}
	return acc.best, nil
}

// Name is the aggregate's function: COUNT, SUM, MIN, MAX, AVG, SAMPLE or
// GROUP_CONCAT.
func (a *Aggregate) Name() string { return a.name }

// Distinct reports whether the aggregate is over distinct values.
func (a *Aggregate) Distinct() bool { return a.distinct }

// VarArg returns the slot of the aggregate's argument when it is a plain
// variable, whose values an evaluator may then read as IDs; ok is false
// otherwise (and for COUNT(*)).
func (a *Aggregate) VarArg() (slot int, ok bool) {
	if a.arg == nil {
		return 0, false
	}
	v, ok := a.arg.root.(*varNode)
	if !ok {
		return 0, false
	}
	return v.slot, true
}

// Star reports whether the aggregate is COUNT(*) or COUNT(DISTINCT *).
func (a *Aggregate) Star() bool { return a.arg == nil }
