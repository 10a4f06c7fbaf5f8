package control

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/mneme-archive/mneme/control/api"
)

// MaxCount bounds the limit and lines parameters.
const MaxCount = 10000

// count reads a positive integer parameter of at most MaxCount (def when
// absent), answering a bad one with 400 itself.
func count(w http.ResponseWriter, r *http.Request, name string, def int) (int, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > MaxCount {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%s %q: an integer from 1 to %d expected", name, v, MaxCount), nil)
		return 0, false
	}
	return n, true
}

// frontier lists the best-scored queued URLs of an open crawl.
func (h *Handler) frontier(w http.ResponseWriter, r *http.Request) {
	limit, ok := count(w, r, "limit", 100)
	if !ok {
		return
	}
	top, err := h.m.Top(r.PathValue("id"), limit)
	if err != nil {
		fail(w, err)
		return
	}
	out := api.Frontier{URLs: make([]api.Queued, 0, len(top))}
	for _, q := range top {
		out.URLs = append(out.URLs, api.Queued{URL: q.URL, Queue: q.QueueKey, Hops: q.Hops, Via: q.Via, Score: q.Score})
	}
	writeJSON(w, http.StatusOK, out)
}

// log sends the last lines of a crawl's crawl.log.
func (h *Handler) log(w http.ResponseWriter, r *http.Request) {
	n, ok := count(w, r, "lines", 100)
	if !ok {
		return
	}
	lines, err := h.m.LogTail(r.PathValue("id"), n)
	if err != nil {
		fail(w, err)
		return
	}
	if lines == nil {
		lines = []string{}
	}
	writeJSON(w, http.StatusOK, toLog(lines))
}

// warcs lists the WARC files of a crawl.
func (h *Handler) warcs(w http.ResponseWriter, r *http.Request) {
	files, err := h.m.WARCs(r.PathValue("id"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, api.WARCs{Files: files})
}
