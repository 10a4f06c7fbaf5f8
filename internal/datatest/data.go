// Package datatest makes the data folder that the tests of the control API
// and of the TUI run a crawl daemon over.
package datatest

import (
	"testing"

	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/crawler/inject"
	"github.com/mneme-archive/mneme/graph"
)

// DataFolder makes a data folder with its store open read-write (closed
// when the test ends, after the cleanups registered later) and its bearer
// token, for a control API over it.
func DataFolder(t testing.TB) (data string, st *graph.Store, token string) {
	t.Helper()
	data = t.TempDir()
	l := crawler.Layout{Data: data}
	st, err := l.OpenStore()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	token, err = inject.LoadToken(l.Token())
	if err != nil {
		t.Fatal(err)
	}
	return data, st, token
}
