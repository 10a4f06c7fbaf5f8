package pebblekv

import (
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// unwritable reports whether opening a store failed because its
// directory cannot be written: the lock file could not be created or
// opened for writing.
func unwritable(err error) bool {
	var pe *os.PathError
	return errors.As(err, &pe) &&
		(errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM))
}

// readLockFS is a file system whose Lock takes a shared (read) lock on
// an existing lock file opened read-only, for a store on read-only
// media: a writer holding the store (its exclusive lock) makes it fail,
// as the ordinary lock would, and nothing is created. A store without a
// lock file, which no writer ever opened there, needs none.
type readLockFS struct{ vfs.FS }

func (readLockFS) Lock(name string) (io.Closer, error) {
	f, err := os.Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return io.NopCloser(nil), nil
	}
	if err != nil {
		return nil, err
	}
	if err := sharedLock(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
