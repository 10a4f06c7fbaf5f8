package control

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/mneme-archive/mneme/control/api"
	"github.com/mneme-archive/mneme/crawler"
	"github.com/mneme-archive/mneme/internal/datatest"
	"github.com/mneme-archive/mneme/internal/sitetest"
)

func newSite(t *testing.T, n int) *sitetest.Site { return sitetest.New(t, n) }

// server is a control API over a fresh data folder.
type server struct {
	data  string
	token string
	m     *Manager
	h     *Handler
	srv   *httptest.Server
}

func newServer(t testing.TB) *server {
	t.Helper()
	data, st, tok := datatest.DataFolder(t)
	m := NewManager(data, crawler.Deps{Store: st}, "mneme-test/1.0 (+https://example.org/contact)")
	h := NewHandler(m, tok, 0)
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	return &server{data: data, token: tok, m: m, h: h, srv: srv}
}

func (s *server) client() *api.Client { return &api.Client{Base: s.srv.URL, Token: s.token} }

// specYAML is a spec crawling seeds without politeness delays, whose
// scope takes in every loopback URL (the tests inject URLs of other test
// sites).
func specYAML(id string, seeds ...string) []byte {
	y := fmt.Sprintf("id: %s\nworkers: 2\npoliteness: {off: true}\nrdf: {interval: 5ms}\nscope: {include: ['^http://127\\.0\\.0\\.1:']}\nseeds:\n", id)
	for _, s := range seeds {
		y += "  - " + s + "\n"
	}
	return []byte(y)
}
