package expr

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"hash"

	"github.com/mneme-archive/mneme/rdf"
)

// dateBuiltins are the functions on dates and times of §17.4.5. They
// accept xsd:date too, as a dateTime at midnight.
var dateBuiltins = map[string]builtin{
	"NOW":     {nullary: func(c *Context) (value, error) { return termVal(nowTerm(c.Now)), nil }},
	"YEAR":    {unary: dateFn(func(d dateTime) (value, error) { return intVal(d.Year), nil })},
	"MONTH":   {unary: dateFn(func(d dateTime) (value, error) { return intVal(int64(d.Month)), nil })},
	"DAY":     {unary: dateFn(func(d dateTime) (value, error) { return intVal(int64(d.Day)), nil })},
	"HOURS":   {unary: dateFn(func(d dateTime) (value, error) { return intVal(int64(d.Hour)), nil })},
	"MINUTES": {unary: dateFn(func(d dateTime) (value, error) { return intVal(int64(d.Minute)), nil })},
	"SECONDS": {unary: dateFn(func(d dateTime) (value, error) { return numVal(d.seconds()), nil })},
	"TIMEZONE": {unary: dateFn(func(d dateTime) (value, error) {
		if !d.HasTZ {
			return value{}, ErrType
		}
		return termVal(d.timezone()), nil
	})},
	"TZ": {unary: dateFn(func(d dateTime) (value, error) { return strVal(d.tzString()), nil })},
}

func dateFn(f func(dateTime) (value, error)) func(*Context, value) (value, error) {
	return func(_ *Context, a value) (value, error) {
		if a.kind != vTerm || a.t.Kind != rdf.KindLiteral || !isTemporal(a.t.Datatype) {
			return value{}, ErrType
		}
		d, ok := parseDateTime(a.t.Value, a.t.Datatype == rdf.XSDDate)
		if !ok {
			return value{}, ErrType
		}
		return f(d)
	}
}

// hashBuiltins hash the UTF-8 bytes of a simple literal or xsd:string
// into lower-case hex (§17.4.6).
var hashBuiltins = map[string]builtin{
	"MD5":    {unary: hashFn(md5.New)},
	"SHA1":   {unary: hashFn(sha1.New)},
	"SHA256": {unary: hashFn(sha256.New)},
	"SHA384": {unary: hashFn(sha512.New384)},
	"SHA512": {unary: hashFn(sha512.New)},
}

func hashFn(newHash func() hash.Hash) func(*Context, value) (value, error) {
	return func(_ *Context, a value) (value, error) {
		s, ok := simpleArg(a)
		if !ok {
			return value{}, ErrType
		}
		h := newHash()
		h.Write([]byte(s))
		return strVal(hex.EncodeToString(h.Sum(nil))), nil
	}
}
