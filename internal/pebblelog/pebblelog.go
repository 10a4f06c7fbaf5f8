// Package pebblelog is the one adapter of Pebble's logger that mneme's
// Pebble databases use (the store, the crawl frontier, the digest index,
// the helper's site spill): Pebble's informational chatter is dropped,
// its errors are written with the database's name, and a fatal error
// panics so that the process stops with a trace instead of going on with
// a broken database.
package pebblelog

import (
	"fmt"
	"io"
	"os"
)

// Logger is a pebble.Logger writing to W (standard error when nil), each
// line prefixed with Name.
type Logger struct {
	W    io.Writer
	Name string
}

// Infof drops Pebble's informational messages.
func (Logger) Infof(string, ...any) {}

// Errorf writes an error.
func (l Logger) Errorf(format string, args ...any) {
	w := l.W
	if w == nil {
		w = os.Stderr
	}
	fmt.Fprintf(w, l.Name+": "+format+"\n", args...)
}

// Fatalf panics with the message.
func (l Logger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf(l.Name+": "+format, args...))
}
