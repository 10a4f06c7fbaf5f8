package algebra

// Patterns counts the triple patterns and property paths of op and its
// operands (patterns inside EXISTS expressions are not counted): the
// measure a server limits a query's size by, since planning grows with
// it.
func Patterns(op Op) int {
	n := 0
	switch x := op.(type) {
	case *BGP:
		n = len(x.Triples)
	case *Path:
		n = 1
	}
	for _, c := range Children(op) {
		n += Patterns(c)
	}
	return n
}
