//go:build unix

package pebblekv

import (
	"io"
	"os"
	"syscall"
)

// sharedLock takes a POSIX read lock on the whole of f, the kind of lock
// that conflicts with the write lock Pebble's writers hold.
func sharedLock(f *os.File) error {
	return syscall.FcntlFlock(f.Fd(), syscall.F_SETLK, &syscall.Flock_t{Type: syscall.F_RDLCK, Whence: io.SeekStart})
}
