package ntriples

import (
	"fmt"
	"unicode/utf8"

	"github.com/mneme-archive/mneme/rdf"
)

// errorAt returns a *rdf.ParseError at offset i of the chunk. The column
// is counted in characters, which costs a scan of the line, so it is only
// done here, when there is an error to report.
func (p *ChunkParser) errorAt(i int, format string, args ...any) error {
	i = min(i, len(p.data))
	return &rdf.ParseError{
		Name: p.name,
		Line: p.line,
		Col:  utf8.RuneCount(p.data[p.lineStart:i]) + 1,
		Msg:  fmt.Sprintf(format, args...),
	}
}

// found describes for an error message what stands at offset i.
func (p *ChunkParser) found(i int) string {
	d := p.data
	if i >= len(d) || d[i] == '\n' || d[i] == '\r' {
		return "end of line"
	}
	r, n := utf8.DecodeRune(d[i:])
	switch {
	case r == utf8.RuneError && n == 1:
		return fmt.Sprintf("invalid UTF-8 byte 0x%02X", d[i])
	case r == ' ':
		return "space"
	case r == '\t':
		return "tab"
	case r < 0x20 || r == 0x7F:
		return fmt.Sprintf("control character U+%04X", r)
	}
	return fmt.Sprintf("%q", r)
}
