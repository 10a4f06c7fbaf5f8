package control

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/mneme-archive/mneme/analysis/focus"
	"github.com/mneme-archive/mneme/control/api"
)

// focusRoutes serve the focus analysis of open focused crawls.
func (h *Handler) focusRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/crawls/{id}/focus", h.read(h.focusState))
	mux.HandleFunc("GET /api/crawls/{id}/focus/explain", h.read(h.focusExplain))
	mux.HandleFunc("PATCH /api/crawls/{id}/focus/weights", h.write(h.focusWeights))
	mux.HandleFunc("POST /api/crawls/{id}/focus/terms", h.write(h.focusTerms))
}

// Focus returns the focus analysis of an open crawl.
func (m *Manager) Focus(id string) (*focus.Crawl, error) {
	m.mu.Lock()
	e := m.open[id]
	m.mu.Unlock()
	if e == nil {
		if _, _, err := m.Status(id); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("crawl %s is not open here (start it): %w", id, ErrConflict)
	}
	fc, ok := e.c.Focuser().(*focus.Crawl)
	if !ok {
		return nil, &InputError{fmt.Errorf("crawl %s is not focused (its spec has no focus section)", id)}
	}
	return fc, nil
}

func focusState(fc *focus.Crawl) api.Focus {
	out := api.Focus{Weights: fc.Weights().Map(), Update: fc.Update().String(), Threshold: fc.Threshold(), PerPageNS: fc.Costs().PerPage}
	for _, t := range fc.Topic().Terms(30) {
		out.Terms = append(out.Terms, api.FocusTerm{Term: t.Term, Weight: t.Weight})
	}
	hv := fc.Harvest()
	out.Harvest = api.Harvest{Pages: hv.Pages, Relevant: hv.Relevant, Ratio: hv.Ratio, Step: hv.Step, Series: hv.Series}
	if out.Harvest.Series == nil {
		out.Harvest.Series = []float64{}
	}
	if ref, ok := fc.Reference(); ok {
		r := &api.FocusReference{Pages: ref.Pages, Done: ref.Done, Proposed: []api.FocusTerm{}}
		for _, t := range ref.Proposed {
			r.Proposed = append(r.Proposed, api.FocusTerm{Term: t.Term, Weight: t.Weight})
		}
		out.Reference = r
	}
	return out
}

func (h *Handler) focusState(w http.ResponseWriter, r *http.Request) {
	fc, err := h.m.Focus(r.PathValue("id"))
	if err != nil {
		h.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, focusState(fc))
}

func (h *Handler) focusExplain(w http.ResponseWriter, r *http.Request) {
	fc, err := h.m.Focus(r.PathValue("id"))
	if err != nil {
		h.fail(w, err)
		return
	}
	u := r.URL.Query().Get("url")
	if u == "" {
		writeError(w, http.StatusBadRequest, "url: give the URL to explain (?url=…)", nil)
		return
	}
	e, ok, err := fc.Explain(u)
	if err != nil {
		h.fail(w, err)
		return
	}
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("url %s: no analysed link leads to it (seeds and injected URLs have no explanation)", u), nil)
		return
	}
	writeJSON(w, http.StatusOK, api.Explanation{URL: e.URL, Sightings: e.Sightings, Score: e.Score, Current: e.Current,
		Modules: e.Modules, Contributions: e.Contributions, Weights: e.Weights, Update: e.Update})
}

func (h *Handler) focusWeights(w http.ResponseWriter, r *http.Request) {
	fc, err := h.m.Focus(r.PathValue("id"))
	if err != nil {
		h.fail(w, err)
		return
	}
	b, ok := body(w, r)
	if !ok {
		return
	}
	var weights map[string]float64
	if err := json.Unmarshal(b, &weights); err != nil {
		writeError(w, http.StatusBadRequest, "weights: want a JSON object of module → weight: "+err.Error(), nil)
		return
	}
	if _, err := fc.SetWeights(weights); err != nil {
		h.fail(w, &InputError{err})
		return
	}
	writeJSON(w, http.StatusOK, focusState(fc))
}

func (h *Handler) focusTerms(w http.ResponseWriter, r *http.Request) {
	fc, err := h.m.Focus(r.PathValue("id"))
	if err != nil {
		h.fail(w, err)
		return
	}
	b, ok := body(w, r)
	if !ok {
		return
	}
	var d api.FocusTerms
	if err := json.Unmarshal(b, &d); err != nil {
		writeError(w, http.StatusBadRequest, "want {\"accept\": [terms], \"drop\": [terms]}: "+err.Error(), nil)
		return
	}
	if err := fc.Decide(d.Accept, d.Drop); err != nil {
		h.fail(w, &InputError{err})
		return
	}
	writeJSON(w, http.StatusOK, focusState(fc))
}
