package focus

import (
	"sync"

	"github.com/mneme-archive/mneme/crawler/canon"
)

// siteModel is the site module: it learns while the crawl runs how close
// to the topic the pages crawled under each folder of a host were, and
// scores a link by what was learnt of its folder. Documentation, manuals
// and most sites group pages on a subject in a folder (a manual's chapter,
// a module reference, a language's translation), so the pages already
// crawled next to a link's target predict it better than the text of the
// page that links to it, which for navigation links (menus, next and
// previous, language bars) says little about the target.
//
// A folder's value is the mean cosine of its crawled pages shrunk towards
// its parent folder's value, as a Bayesian mean with a prior of
// siteShrink pages: value(d) = (Σcos(d) + siteShrink·value(parent)) /
// (n(d) + siteShrink), the host's root shrunk towards the mean m over all
// pages. A folder with no page crawled yet takes its parent's value. The
// score is value / (value + m): 0.5 for a folder like the rest of the
// crawl, towards 1 for one much closer to the topic, towards 0 for one
// much further. Being relative to m, the score of a site whose folders
// say nothing stays 0.5 while m grows with the crawl: links found late
// are not preferred to those found early for that alone.
type siteModel struct {
	mu    sync.RWMutex
	dirs  map[string]siteStat // host + folder path, "h/a/b/"
	n     float64
	sum   float64
	limit int
}

type siteStat struct{ n, sum float64 }

// siteShrink is the weight, in pages, of a folder's parent in its value.
const siteShrink = 2

// siteMax bounds the folders the model learns (they grow with the
// crawl); once it is full, the folders it knows keep learning and new
// ones take their parents' values.
const siteMax = 1 << 16

// folders calls fn with the folder keys of u, the host's root first. The
// key is only valid during the call: it lives in one buffer reused for
// every folder, so scoring a link allocates nothing (the map lookups of
// string(key) do not copy).
func folders(u canon.URL, fn func(key []byte)) {
	p := u.Path
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	var arr [256]byte
	key := append(arr[:0], u.Host...)
	for i := range len(u.Host) {
		if c := key[i]; 'A' <= c && c <= 'Z' {
			key[i] = c + 'a' - 'A'
		}
	}
	key = append(append(key, ':'), u.Port...)
	base := len(key)
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			key = append(key[:base], p[:i+1]...)
			fn(key)
		}
	}
}

// add learns a crawled page's cosine with the topic.
func (m *siteModel) add(u canon.URL, cos float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dirs == nil {
		m.dirs = map[string]siteStat{}
		if m.limit == 0 {
			m.limit = siteMax
		}
	}
	m.n++
	m.sum += cos
	folders(u, func(key []byte) {
		st, ok := m.dirs[string(key)]
		if !ok && len(m.dirs) >= m.limit {
			return
		}
		st.n++
		st.sum += cos
		m.dirs[string(key)] = st
	})
}

// score is the score of u's folder; 0.5 before any page close to the
// topic was learnt.
func (m *siteModel) score(u canon.URL) float64 {
	m.mu.RLock()
	defer m.mu.RUnlock()
	if m.sum <= 0 {
		return 0.5
	}
	mean := m.sum / m.n
	v := mean
	folders(u, func(key []byte) {
		if st, ok := m.dirs[string(key)]; ok {
			v = (st.sum + siteShrink*v) / (st.n + siteShrink)
		}
	})
	return v / (v + mean)
}
