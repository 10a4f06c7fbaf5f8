package control

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/mneme-archive/mneme/control/api"
)

// ClusterView is a crawler node's view of its cluster (control/cluster's
// Node): the live nodes, their figures, the IP registry, which node
// owns a domain, and the pause of the crawl in the whole cluster.
type ClusterView interface {
	Status(ctx context.Context) (api.Cluster, error)
	OwnerOf(host string) (domain, owner string)
	Crawl() string
	PauseCluster(ctx context.Context, paused bool) (api.Pause, error)
	WaitPause(ctx context.Context, v api.Pause) ([]api.Node, error)
	PauseHere(paused bool)
}

// defaultPauseWait bounds how long POST /api/cluster/pause waits for the
// nodes to follow when the request does not say.
const defaultPauseWait = 30 * time.Second

// SetCluster adds the cluster routes of a crawler node to the API:
//
//	GET  /api/cluster                  the live nodes, pending forwarded batches, IP claims, the pause
//	GET  /api/cluster/domains?host=H   the node owning H's pay-level domain
//	POST /api/cluster/pause?wait=D     pause the crawl on every node; wait (default 30s, 0: not)
//	                                   until each has nothing left in flight
//	POST /api/cluster/resume?wait=D    resume it on every node
//
// and makes POST /api/crawls/ID/pause and /resume of the node's crawl act
// on the whole cluster (at once, without waiting); with ?scope=node they
// pause and resume this node only.
func (h *Handler) SetCluster(v ClusterView) {
	h.cluster = v
	h.mux.HandleFunc("GET /api/cluster", h.read(func(w http.ResponseWriter, r *http.Request) {
		st, err := v.Status(r.Context())
		if err != nil {
			writeError(w, http.StatusBadGateway, "reading the cluster: "+err.Error(), nil)
			return
		}
		writeJSON(w, http.StatusOK, st)
	}))
	h.mux.HandleFunc("GET /api/cluster/domains", h.read(func(w http.ResponseWriter, r *http.Request) {
		host := r.URL.Query().Get("host")
		if host == "" {
			writeError(w, http.StatusBadRequest, "give the host: /api/cluster/domains?host=example.org", nil)
			return
		}
		d, o := v.OwnerOf(host)
		writeJSON(w, http.StatusOK, api.Domain{Domain: d, Owner: o})
	}))
	for _, action := range []string{"pause", "resume"} {
		h.mux.HandleFunc("POST /api/cluster/"+action, h.write(func(w http.ResponseWriter, r *http.Request) {
			h.pauseCluster(w, r, v, action == "pause")
		}))
	}
}

// pauseCluster sets the cluster's pause, waits for the nodes to follow
// and answers the cluster as it then is: 504 when some node did not
// follow in time (the pause holds all the same).
func (h *Handler) pauseCluster(w http.ResponseWriter, r *http.Request, v ClusterView, paused bool) {
	wait := defaultPauseWait
	if s := r.URL.Query().Get("wait"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d < 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("wait=%q: give a duration such as 30s, or 0 not to wait", s), nil)
			return
		}
		wait = d
	}
	p, err := v.PauseCluster(r.Context(), paused)
	if err != nil {
		writeError(w, http.StatusBadGateway, err.Error(), nil)
		return
	}
	if wait > 0 {
		ctx, cancel := context.WithTimeout(r.Context(), wait)
		_, err = v.WaitPause(ctx, p)
		cancel()
	}
	st, serr := v.Status(r.Context())
	switch {
	case err != nil:
		writeError(w, http.StatusGatewayTimeout, err.Error(), st)
	case serr != nil:
		writeError(w, http.StatusBadGateway, "reading the cluster: "+serr.Error(), nil)
	default:
		writeJSON(w, http.StatusOK, st)
	}
}

// clusterAction runs pause or resume on the node's own crawl: in the
// whole cluster, or on this node with ?scope=node. It says whether it
// answered (the crawl is the cluster's).
func (h *Handler) clusterAction(w http.ResponseWriter, r *http.Request, id, action string) bool {
	v := h.cluster
	if v == nil || id != v.Crawl() || action != "pause" && action != "resume" {
		return false
	}
	paused := action == "pause"
	switch scope := r.URL.Query().Get("scope"); scope {
	case "", "cluster":
		if _, err := v.PauseCluster(r.Context(), paused); err != nil {
			writeError(w, http.StatusBadGateway, err.Error(), nil)
			return true
		}
	case "node":
		v.PauseHere(paused)
	default:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("scope=%q: use cluster (the default) or node", scope), nil)
		return true
	}
	s, live, err := h.m.Status(id)
	if err != nil {
		h.fail(w, err)
		return true
	}
	writeJSON(w, http.StatusOK, toStatus(s, live))
	return true
}
