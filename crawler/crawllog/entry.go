package crawllog

import (
	"strconv"
	"strings"
	"time"
)

// Entry is one crawl.log line.
type Entry struct {
	Time          time.Time // when the line was logged
	Status        int       // HTTP status or Heritrix fetch status code
	Size          int64     // content bytes; negative when unknown
	URI           string
	HopPath       string // hop types from the seed, e.g. "LLE"; "" for a seed
	Via           string // URI it was discovered from; "" for a seed
	MimeType      string
	Thread        int           // worker number
	FetchBegin    time.Time     // zero when nothing was fetched
	FetchDuration time.Duration // counted in milliseconds
	Digest        string        // content digest, "sha1:BASE32"
	SourceTag     string        // seed the URI descends from, when tagged
	Annotations   []string
	// Extra holds any fields after the annotations, such as the JSON that
	// Heritrix writes with logExtraInfo, as read.
	Extra string
}

const (
	logTime   = "2006-01-02T15:04:05.000Z"
	fetchTime = "20060102150405.000" // the '.' is dropped when appended
	none      = "-"
	noType    = "no-type"
)

// MaxHopPath is the longest hop path a line shows in full.
const MaxHopPath = 50

// BoundHopPath is the hop path as a line shows it: a path longer than
// MaxHopPath hops keeps its last MaxHopPath letters after the number of
// hops left out and a '+' ("1234+RRRR…"), so that a long chain of
// redirects or embeds cannot make the log grow with the square of its
// length.
func BoundHopPath(hops string) string {
	if len(hops) <= MaxHopPath {
		return hops
	}
	return strconv.Itoa(len(hops)-MaxHopPath) + "+" + hops[len(hops)-MaxHopPath:]
}

// Append renders e as a crawl.log line, newline included, onto dst.
func Append(dst []byte, e Entry) []byte {
	dst = e.Time.UTC().AppendFormat(dst, logTime)
	dst = append(dst, ' ')
	var n [20]byte
	dst = appendPadded(dst, strconv.AppendInt(n[:0], int64(e.Status), 10), 5)
	dst = append(dst, ' ')
	if e.Size >= 0 {
		dst = appendPadded(dst, strconv.AppendInt(n[:0], e.Size, 10), 10)
	} else {
		dst = appendPadded(dst, []byte(none), 10)
	}
	dst = append(dst, ' ')
	dst = appendField(dst, e.URI)
	dst = append(dst, ' ')
	dst = appendField(dst, BoundHopPath(e.HopPath))
	dst = append(dst, ' ')
	dst = appendField(dst, e.Via)
	dst = append(dst, ' ')
	dst = append(dst, truncateMime(e.MimeType)...)
	dst = append(dst, " #"...)
	if e.Thread < 100 && e.Thread >= 0 {
		dst = append(dst, '0')
		if e.Thread < 10 {
			dst = append(dst, '0')
		}
	}
	dst = strconv.AppendInt(dst, int64(e.Thread), 10)
	dst = append(dst, ' ')
	if e.FetchBegin.IsZero() {
		dst = append(dst, none...)
	} else {
		start := len(dst)
		dst = e.FetchBegin.UTC().AppendFormat(dst, fetchTime)
		dot := start + 14
		dst = append(dst[:dot], dst[dot+1:]...)
		dst = append(dst, '+')
		dst = strconv.AppendInt(dst, e.FetchDuration.Milliseconds(), 10)
	}
	dst = append(dst, ' ')
	dst = appendField(dst, e.Digest)
	dst = append(dst, ' ')
	dst = appendField(dst, e.SourceTag)
	dst = append(dst, ' ')
	if len(e.Annotations) == 0 {
		dst = append(dst, none...)
	}
	for i, a := range e.Annotations {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendClean(dst, a, true)
	}
	if e.Extra != "" {
		dst = append(dst, ' ')
		dst = appendClean(dst, e.Extra, false)
	}
	return append(dst, '\n')
}

// String renders e without the newline.
func (e Entry) String() string {
	b := Append(nil, e)
	return string(b[:len(b)-1])
}

func appendPadded(dst, v []byte, width int) []byte {
	for i := len(v); i < width; i++ {
		dst = append(dst, ' ')
	}
	return append(dst, v...)
}

func appendField(dst []byte, v string) []byte {
	if v == "" {
		return append(dst, none...)
	}
	return appendClean(dst, v, false)
}

// appendClean keeps a field one token: whitespace would split it when read
// back, and so would a comma inside an annotation, so they become '_'. URIs
// from crawler/canon never contain either.
func appendClean(dst []byte, v string, annotation bool) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c <= ' ' || c == 0x7f || annotation && c == ',' {
			c = '_'
		}
		dst = append(dst, c)
	}
	return dst
}

// truncateMime cuts a Content-Type at its first ';', ',' or space, as
// Heritrix's MimetypeUtils.truncate does, with "no-type" for none.
func truncateMime(ct string) string {
	ct = strings.TrimLeft(ct, " \t")
	if i := strings.IndexAny(ct, " \t\r\n;,"); i >= 0 {
		ct = ct[:i]
	}
	if ct == "" {
		return noType
	}
	return ct
}
