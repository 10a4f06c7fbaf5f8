package expr

import (
	"crypto/rand"
	"encoding/hex"
	mrand "math/rand/v2"
	"regexp"
	"strconv"
	"time"

	"github.com/mneme-archive/mneme/rdf"
	"github.com/mneme-archive/mneme/sparql/algebra"
)

// Context holds what stays fixed for one query execution (NOW, the base
// IRI, fresh blank node labels) and per-solution state for BNODE(str). It
// is not safe for concurrent use: give each goroutine its own.
type Context struct {
	// Now is the query time that NOW() returns for every call.
	Now time.Time
	// Base resolves relative IRIs in IRI()/URI().
	Base string
	// Exists reports whether e.Op has a solution compatible with b
	// (ignoring e.Not); the evaluator supplies it. Without it, EXISTS is
	// an error.
	Exists func(e *algebra.Exists, b Binding) (bool, error)

	rand      *mrand.Rand
	bnodeTag  string
	bnodeSeq  uint64
	rowBnodes map[string]rdf.Term
	regexps   map[string]*regexp.Regexp
}

// NewContext returns a context with NOW fixed to the current time and a
// random prefix for the blank nodes BNODE makes, so that they are distinct
// from the dataset's labels and from other queries'.
func NewContext() *Context {
	var seed [32]byte
	_, _ = rand.Read(seed[:]) // crypto/rand.Read never fails (Go ≥ 1.24)
	return &Context{
		Now:      time.Now(),
		rand:     mrand.New(mrand.NewChaCha8(seed)),
		bnodeTag: "bnode" + hex.EncodeToString(seed[:6]) + "x",
	}
}

// NewSolution starts a new solution: BNODE(str) returns the same blank
// node for the same string only within one solution (§17.4.2.9).
func (c *Context) NewSolution() { clear(c.rowBnodes) }

// freshBlank returns a blank node no other call returns.
func (c *Context) freshBlank() rdf.Term {
	c.bnodeSeq++
	return rdf.Blank(c.bnodeTag + strconv.FormatUint(c.bnodeSeq, 10))
}

// uuid returns a random (version 4) UUID in its textual form.
func (c *Context) uuid() string {
	var b [16]byte
	for i := 0; i < 16; i += 8 {
		v := c.rand.Uint64()
		for j := 0; j < 8; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
