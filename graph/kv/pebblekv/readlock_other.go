//go:build !unix

package pebblekv

import "os"

// sharedLock takes no lock where POSIX locks do not exist.
func sharedLock(*os.File) error { return nil }
