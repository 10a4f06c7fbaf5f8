package control

import (
	"fmt"
	"net/http"

	"github.com/mneme-archive/mneme/control/api"
)

// learned lists the learned patterns.
func (h *Handler) learned(w http.ResponseWriter, r *http.Request) {
	ps, file, err := h.m.Learned()
	if err != nil {
		fail(w, err)
		return
	}
	out := api.Learned{File: file, Patterns: make([]api.Proposal, len(ps))}
	for i, p := range ps {
		out.Patterns[i] = toProposal(p)
	}
	writeJSON(w, http.StatusOK, out)
}

// preview extracts a stored page without and with a learned pattern.
func (h *Handler) preview(w http.ResponseWriter, r *http.Request) {
	pv, page, err := h.m.Preview(r.Context(), r.PathValue("id"), r.URL.Query().Get("url"))
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, api.Preview{URL: page, Preview: toExtractions(*pv)})
}

// review accepts or rejects a learned pattern and answers it as now.
func (h *Handler) review(w http.ResponseWriter, r *http.Request) {
	var accept bool
	switch a := r.PathValue("action"); a {
	case "accept":
		accept = true
	case "reject":
	default:
		writeError(w, http.StatusNotFound, fmt.Sprintf("no action %q: use accept or reject", a), nil)
		return
	}
	p, err := h.m.Review(r.PathValue("id"), accept)
	if err != nil {
		fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, toProposal(p))
}
