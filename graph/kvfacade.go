package graph

import "github.com/mneme-archive/mneme/graph/kv"

// ErrNotFound is what a Get of an absent key fails with, from the store
// or a view (the key-value layer's error, so that errors.Is matches
// either name).
var ErrNotFound = kv.ErrNotFound

// PrefixEnd returns the smallest key greater than every key that starts
// with p, or nil when there is none: the exclusive upper bound of a
// prefix scan.
func PrefixEnd(p []byte) []byte { return kv.PrefixEnd(p) }
