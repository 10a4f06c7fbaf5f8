package sparql

import (
	"context"

	"github.com/mneme-archive/mneme/graph"
	"github.com/mneme-archive/mneme/rdf"
)

// Each prepares the SELECT query q, runs it on the snapshot v and calls
// fn with every row, in order; it stops at the first error fn returns.
// The row is the result's own: fn copies what it keeps.
func Each(ctx context.Context, v *graph.View, q string, fn func(row []rdf.Term) error) error {
	pq, err := Prepare(q, Options{})
	if err != nil {
		return err
	}
	res, err := pq.Exec(ctx, v)
	if err != nil {
		return err
	}
	defer res.Close()
	for res.Next() {
		if err := fn(res.Row()); err != nil {
			return err
		}
	}
	return res.Err()
}
