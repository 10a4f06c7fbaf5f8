package warc

import (
	"strconv"
	"strings"
)

// Field is one named field of a WARC header or of an application/warc-fields block.
type Field struct {
	Name  string
	Value string
}

// Fields is an ordered list of fields; names compare case-insensitively.
type Fields []Field

// Get returns the first value of the named field, or "" when it is absent.
func (fs Fields) Get(name string) string {
	for _, f := range fs {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// GetAll returns every value of the named field in order.
func (fs Fields) GetAll(name string) []string {
	var out []string
	for _, f := range fs {
		if strings.EqualFold(f.Name, name) {
			out = append(out, f.Value)
		}
	}
	return out
}

// add appends a field unless its value is empty: optional fields are simply left out.
func (fs *Fields) add(name, value string) {
	if value != "" {
		*fs = append(*fs, Field{name, value})
	}
}

func (fs *Fields) addInt(name string, v int64) {
	*fs = append(*fs, Field{name, strconv.FormatInt(v, 10)})
}

// bytes renders the fields as "Name: value\r\n" lines. Values must not contain
// CR or LF: callers pass values through clean first.
func (fs Fields) bytes() []byte { return fs.appendTo(make([]byte, 0, fs.size())) }

// appendTo appends the fields to dst as bytes renders them.
func (fs Fields) appendTo(dst []byte) []byte {
	for _, f := range fs {
		dst = append(append(append(append(dst, f.Name...), ": "...), f.Value...), "\r\n"...)
	}
	return dst
}

// size is the length of the fields as bytes renders them.
func (fs Fields) size() int {
	n := 0
	for _, f := range fs {
		n += len(f.Name) + len(f.Value) + 4
	}
	return n
}

// clean makes a value safe for a single header line: line breaks, which would
// start a new field or end the header, become spaces.
func clean(v string) string {
	if !hasBreak(v) {
		return v
	}
	return string(appendClean(nil, v))
}

func hasBreak(v string) bool {
	return strings.IndexByte(v, '\n') >= 0 || strings.IndexByte(v, '\r') >= 0
}

// appendClean appends v to dst as clean returns it: CRLF, CR and LF each
// become one space.
func appendClean(dst []byte, v string) []byte {
	if !hasBreak(v) {
		return append(dst, v...)
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\r':
			if i+1 < len(v) && v[i+1] == '\n' {
				i++
			}
			dst = append(dst, ' ')
		case '\n':
			dst = append(dst, ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}
