package campaign

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-archive/mneme/ontology"
	"github.com/mneme-archive/mneme/social/socialrdf"
)

// SharedLink is a URL shared in a campaign's posts, scored for the
// linked crawl's frontier.
type SharedLink struct {
	URL    string
	Shares int64     // posts of the campaign sharing it
	Latest time.Time // the creation of the latest of them
	// Score is in (0, 1]: half from how often it was shared,
	// 1 - 1/(1+shares) (one share 0.25, three 0.375, nine 0.45), half
	// from how recently, 2^(-age/half-life) (just shared 0.5, one
	// half-life ago 0.25).
	Score float64
}

// score fills in a link's score at now.
func (l *SharedLink) score(now time.Time, halfLife time.Duration) {
	often := 1 - 1/(1+float64(l.Shares))
	age := max(now.Sub(l.Latest), 0)
	recent := math.Exp2(-float64(age) / float64(halfLife))
	l.Score = often/2 + recent/2
}

// sharedLinks reads the share counts and latest sharing time of urls in
// the campaign's graph, and scores them.
func (r *Runner) sharedLinks(ctx context.Context, urls []string) ([]SharedLink, error) {
	var values strings.Builder
	for _, u := range urls {
		values.WriteString("<" + u + "> ")
	}
	rows, err := selectRows(ctx, r.Store, fmt.Sprintf(`SELECT ?l (COUNT(DISTINCT ?p) AS ?n) (MAX(?c) AS ?latest) WHERE {
  VALUES ?l { %s }
  GRAPH <%s> { ?p <%s> ?l . OPTIONAL { ?p <%s> ?c } } } GROUP BY ?l`, values.String(), socialrdf.CampaignIRI(r.Spec.ID),
		ontology.SIOCLinksTo, ontology.DCTermsCreated))
	if err != nil {
		return nil, err
	}
	half := time.Duration(r.Spec.Options.LinkHalfLife)
	if half <= 0 {
		half = 24 * time.Hour
	}
	now := time.Now()
	out := make([]SharedLink, 0, len(rows))
	for _, row := range rows {
		l := SharedLink{URL: row[0].Value, Latest: now}
		l.Shares, _ = strconv.ParseInt(row[1].Value, 10, 64)
		if t, err := time.Parse(time.RFC3339, row[2].Value); err == nil {
			l.Latest = t
		}
		l.score(now, half)
		out = append(out, l)
	}
	return out, nil
}
