package crawllog

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// ParseError reports a line that is not a crawl.log entry.
type ParseError struct {
	Name  string // file name, when known
	Line  int
	Field int // 1-based field number, 0 for the line as a whole
	Msg   string
}

func (e *ParseError) Error() string {
	where := "crawllog: "
	if e.Name != "" || e.Line > 0 {
		where = fmt.Sprintf("%s:%d: ", e.Name, e.Line)
	}
	if e.Field > 0 {
		where += fmt.Sprintf("field %d: ", e.Field)
	}
	return where + e.Msg
}

// fieldNames name the fields in error messages.
var fieldNames = [...]string{"time", "status", "size", "URI", "hop path", "via", "MIME type", "thread", "fetch time", "digest", "source tag", "annotations"}

// Parse reads one crawl.log line (without its newline). Heritrix writes no
// "-" for empty annotations, so 11 fields are accepted as well as 12;
// fields beyond the twelfth go to Extra.
func Parse(line string) (Entry, error) {
	e, field, msg := parse(line)
	if msg != "" {
		return Entry{}, &ParseError{Field: field, Msg: msg}
	}
	return e, nil
}

func parse(line string) (e Entry, field int, msg string) {
	f := strings.Fields(line)
	if len(f) < 11 {
		return e, 0, fmt.Sprintf("%d fields, want at least 11", len(f))
	}
	bad := func(i int, v string) (Entry, int, string) {
		return Entry{}, i + 1, fmt.Sprintf("bad %s %q", fieldNames[i], v)
	}
	var err error
	if e.Time, err = time.Parse(logTime, f[0]); err != nil {
		return bad(0, f[0])
	}
	if e.Status, err = strconv.Atoi(f[1]); err != nil {
		return bad(1, f[1])
	}
	e.Size = -1
	if f[2] != none {
		if e.Size, err = strconv.ParseInt(f[2], 10, 64); err != nil || e.Size < 0 {
			return bad(2, f[2])
		}
	}
	e.URI = f[3]
	e.HopPath, e.Via = orEmpty(f[4]), orEmpty(f[5])
	e.MimeType = f[6]
	if !strings.HasPrefix(f[7], "#") {
		return bad(7, f[7])
	}
	if e.Thread, err = strconv.Atoi(f[7][1:]); err != nil {
		return bad(7, f[7])
	}
	if f[8] != none {
		ts, dur, ok := strings.Cut(f[8], "+")
		ms, derr := strconv.ParseInt(dur, 10, 64)
		if !ok || len(ts) != 17 || derr != nil || ms < 0 {
			return bad(8, f[8])
		}
		if e.FetchBegin, err = time.Parse(fetchTime, ts[:14]+"."+ts[14:]); err != nil {
			return bad(8, f[8])
		}
		e.FetchDuration = time.Duration(ms) * time.Millisecond
	}
	e.Digest, e.SourceTag = orEmpty(f[9]), orEmpty(f[10])
	if len(f) > 11 && f[11] != none {
		e.Annotations = strings.Split(f[11], ",")
	}
	if len(f) > 12 {
		e.Extra = strings.Join(f[12:], " ")
	}
	return e, 0, ""
}

func orEmpty(v string) string {
	if v == none {
		return ""
	}
	return v
}

// Reader reads a crawl.log entry by entry.
type Reader struct {
	sc   *bufio.Scanner
	name string
	line int
}

// NewReader reads from r; name labels errors.
func NewReader(r io.Reader, name string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	return &Reader{sc: sc, name: name}
}

// Next returns the next entry, skipping blank lines, or io.EOF at the end.
func (r *Reader) Next() (Entry, error) {
	for r.sc.Scan() {
		r.line++
		line := strings.TrimRight(r.sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		e, field, msg := parse(line)
		if msg != "" {
			return Entry{}, &ParseError{Name: r.name, Line: r.line, Field: field, Msg: msg}
		}
		return e, nil
	}
	if err := r.sc.Err(); err != nil {
		return Entry{}, &ParseError{Name: r.name, Line: r.line + 1, Msg: err.Error()}
	}
	return Entry{}, io.EOF
}
