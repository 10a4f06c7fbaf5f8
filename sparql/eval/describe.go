package eval

import (
	"github.com/mneme-archive/mneme/graph"
)

// Describe calls emit for the concise bounded description of each
// resource in the default graph: its outgoing triples, and recursively
// those of the blank nodes they reach. Each resource is described once.
func (ex *Exec) Describe(ids []ID, emit func(s, p, o ID) error) error {
	sel := ex.Data.defaultGraph()
	done := map[ID]bool{}
	queue := append([]ID(nil), ids...)
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if id == graph.Any || done[id] || ex.Dict.isLocal(id) {
			continue
		}
		done[id] = true
		q := ex.scan(graph.Pattern{S: id}, sel)
		for q.next() {
			c := q.quad
			if err := emit(c.S, c.P, c.O); err != nil {
				q.close()
				return err
			}
			t, err := ex.Dict.Term(c.O)
			if err != nil {
				q.close()
				return err
			}
			if t.IsBlank() {
				queue = append(queue, c.O)
			}
		}
		q.close()
		if q.err != nil {
			return q.err
		}
	}
	return nil
}
