package syntax

import (
	"fmt"
	"unicode/utf8"
)

// Error is a syntax or static-semantics error at a position of the query.
type Error struct {
	Line   int // 1-based
	Col    int // 1-based, in characters
	Offset int // byte offset in the query text
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// newError locates byte offset off in src.
func newError(src string, off int, msg string) *Error {
	if off > len(src) {
		off = len(src)
	}
	line, col := 1, 1
	for i := 0; i < off; {
		r, n := utf8.DecodeRuneInString(src[i:])
		i += n
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return &Error{Line: line, Col: col, Offset: off, Msg: msg}
}

func (l *lexer) errAt(off int, msg string) *Error { return newError(l.src, off, msg) }
