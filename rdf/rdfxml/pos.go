package rdfxml

import (
	"bufio"
	"io"
)

// posReader feeds encoding/xml byte by byte (the decoder does no buffering
// of its own when given an io.ByteReader) and counts lines and
// characters, so errors can give a line and a column in characters, which
// the decoder itself does not offer.
type posReader struct {
	r        *bufio.Reader
	consumed int64
	line     int  // line of the next byte, 1-based
	col      int  // characters already read on that line
	prevCol  int  // characters of the line before
	last     byte // the last byte read
}

func newPosReader(r io.Reader) *posReader {
	return &posReader{r: bufio.NewReader(r), line: 1}
}

func (p *posReader) ReadByte() (byte, error) {
	c, err := p.r.ReadByte()
	if err != nil {
		return c, err
	}
	p.consumed++
	p.last = c
	switch {
	case c == '\n':
		p.line++
		p.prevCol, p.col = p.col, 0
	case c&0xC0 != 0x80: // not a UTF-8 continuation byte: a new character
		p.col++
	}
	return c, nil
}

func (p *posReader) Read(b []byte) (int, error) {
	for i := range b {
		c, err := p.ReadByte()
		if err != nil {
			return i, err
		}
		b[i] = c
	}
	return len(b), nil
}

// at returns the line and column of the byte at offset off, which must be
// the offset of the next byte or of the last one read: the decoder reads
// at most one byte ahead and gives it back.
func (p *posReader) at(off int64) (line, col int) {
	if off >= p.consumed {
		return p.line, p.col + 1
	}
	if p.last == '\n' {
		return p.line - 1, p.prevCol + 1
	}
	return p.line, max(p.col, 1)
}
