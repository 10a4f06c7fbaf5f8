package expr

import (
	"math"
	"math/big"
)

// decimalDivScale is the number of fraction digits a non-terminating
// decimal quotient keeps (XPath leaves the precision to implementations).
const decimalDivScale = 24

// arith applies + - * / (op) to two numbers with XPath type promotion.
func arith(op byte, a, b number) (number, error) {
	k := max(a.k, b.k)
	if op == '/' && k == nInteger {
		k = nDecimal // op:numeric-divide on integers returns xsd:decimal
	}
	a, b = a.to(k), b.to(k)
	switch k {
	case nInteger:
		if a.r == nil && b.r == nil {
			if v, ok := intArith(op, a.i, b.i); ok {
				return intNum(v), nil
			}
		}
		return bigIntNum(ratArith(op, a.rat(), b.rat())), nil
	case nDecimal:
		if op == '/' {
			return divideDecimal(a.rat(), b.rat())
		}
		return decNum(ratArith(op, a.rat(), b.rat())), nil
	case nFloat:
		return floatNum(floatArith(op, a.f, b.f)), nil
	}
	return doubleNum(floatArith(op, a.f, b.f)), nil
}

// intArith is the int64 fast path; ok is false on overflow.
func intArith(op byte, a, b int64) (int64, bool) {
	switch op {
	case '+':
		s := a + b
		return s, (s > a) == (b > 0)
	case '-':
		s := a - b
		return s, (s < a) == (b > 0)
	case '*':
		if a == 0 || b == 0 {
			return 0, true
		}
		p := a * b
		return p, p/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
	}
	return 0, false
}

func ratArith(op byte, a, b *big.Rat) *big.Rat {
	z := new(big.Rat)
	switch op {
	case '+':
		return z.Add(a, b)
	case '-':
		return z.Sub(a, b)
	}
	return z.Mul(a, b)
}

// divideDecimal divides exactly, rounding quotients that do not
// terminate to decimalDivScale fraction digits (half away from zero).
func divideDecimal(a, b *big.Rat) (number, error) {
	if b.Sign() == 0 {
		return number{}, errDivZero
	}
	q := new(big.Rat).Quo(a, b)
	d := new(big.Int).Set(q.Denom())
	d.Rsh(d, d.TrailingZeroBits())
	five, m := big.NewInt(5), new(big.Int)
	for d.Cmp(big.NewInt(1)) > 0 {
		if new(big.Int).QuoRem(d, five, m); m.Sign() != 0 {
			r, _ := new(big.Rat).SetString(q.FloatString(decimalDivScale))
			return decNum(r), nil
		}
		d.Quo(d, five)
	}
	return decNum(q), nil
}

func floatArith(op byte, a, b float64) float64 {
	switch op {
	case '+':
		return a + b
	case '-':
		return a - b
	case '*':
		return a * b
	}
	return a / b
}

// negate is unary minus.
func negate(n number) number {
	switch n.k {
	case nFloat, nDouble:
		n.f = -n.f
		return n
	}
	if n.r == nil && n.i != math.MinInt64 {
		n.i = -n.i
		return n
	}
	n.r = new(big.Rat).Neg(n.rat())
	return n
}

// cmpNum compares two numbers after promotion; unordered is true when a
// NaN is involved (then every comparison but != is false).
func cmpNum(a, b number) (c int, unordered bool) {
	k := max(a.k, b.k)
	a, b = a.to(k), b.to(k)
	switch k {
	case nFloat, nDouble:
		switch {
		case math.IsNaN(a.f) || math.IsNaN(b.f):
			return 0, true
		case a.f < b.f:
			return -1, false
		case a.f > b.f:
			return 1, false
		}
		return 0, false
	}
	if a.r == nil && b.r == nil {
		switch {
		case a.i < b.i:
			return -1, false
		case a.i > b.i:
			return 1, false
		}
		return 0, false
	}
	return a.rat().Cmp(b.rat()), false
}

// numAbs, numCeil, numFloor and numRound implement ABS, CEIL, FLOOR and
// ROUND; their result has the argument's type.
func numAbs(n number) number {
	switch n.k {
	case nFloat, nDouble:
		n.f = math.Abs(n.f)
		return n
	}
	if n.r == nil && n.i >= 0 || n.r != nil && n.r.Sign() >= 0 {
		return n
	}
	return negate(n)
}

func numCeil(n number) number  { return roundWith(n, math.Ceil, ratCeil) }
func numFloor(n number) number { return roundWith(n, math.Floor, ratFloor) }

// numRound rounds half towards positive infinity (fn:round), keeping
// negative zero for negative inputs like XPath.
func numRound(n number) number {
	return roundWith(n, func(f float64) float64 {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return f
		}
		r := math.Floor(f + 0.5)
		if r == 0 && math.Signbit(f) {
			return math.Copysign(0, -1)
		}
		return r
	}, func(r *big.Rat) *big.Rat {
		return ratFloor(new(big.Rat).Add(r, big.NewRat(1, 2)))
	})
}

func roundWith(n number, ff func(float64) float64, rf func(*big.Rat) *big.Rat) number {
	switch n.k {
	case nInteger:
		return n
	case nDecimal:
		return decNum(rf(n.r))
	case nFloat:
		return floatNum(ff(n.f))
	}
	return doubleNum(ff(n.f))
}

func ratFloor(r *big.Rat) *big.Rat {
	q := new(big.Int)
	m := new(big.Int)
	q.DivMod(r.Num(), r.Denom(), m) // Euclidean: floor for positive denominators
	return new(big.Rat).SetInt(q)
}

func ratCeil(r *big.Rat) *big.Rat {
	f := ratFloor(r)
	if f.Cmp(r) != 0 {
		f.Add(f, big.NewRat(1, 1))
	}
	return f
}
