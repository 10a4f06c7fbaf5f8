package control

import (
	"context"
	"net/http"

	"github.com/mneme-archive/mneme/control/api"
)

// ClusterView is a crawler node's view of its cluster (control/cluster's
// Node): the live nodes, their figures, the IP registry, and which node
// owns a domain.
type ClusterView interface {
	Status(ctx context.Context) (api.Cluster, error)
	OwnerOf(host string) (domain, owner string)
}

// SetCluster adds the cluster routes of a crawler node to the API:
//
//	GET /api/cluster                  the live nodes, pending forwarded batches, IP claims
//	GET /api/cluster/domains?host=H   the node owning H's pay-level domain
func (h *Handler) SetCluster(v ClusterView) {
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
}
