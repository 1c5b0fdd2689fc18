// Package atomicfile writes a file whole or not at all: through a
// temporary file beside it, renamed over it once written. A reader sees
// the old file or the new one, never half of one; an interrupted write
// leaves the old file as it was; and a symlink at the path is replaced,
// never written through.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// WriteFile writes data to path, with permissions perm, atomically. Its
// errors are *os.PathError naming path.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	return WriteFileIf(path, data, perm, nil)
}

// WriteFileIf is [WriteFile] that asks commit, once the data is on disk
// and just before the rename, whether to put it in place: an error from
// commit removes the temporary file, leaves path as it was and is
// returned as it is. A nil commit always commits.
func WriteFileIf(path string, data []byte, perm os.FileMode, commit func() error) error {
	if err := refuseDir(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return pathError(path, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return pathError(path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return pathError(path, err)
	}
	if err := f.Sync(); err != nil {
		return pathError(path, err)
	}
	if err := f.Close(); err != nil {
		return pathError(path, err)
	}
	if commit != nil {
		if err := commit(); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, path); err != nil {
		return pathError(path, err)
	}
	ok = true
	return nil
}

// CheckWritable reports whether WriteFile could write path, before the
// work that makes its data: it creates and removes a temporary file
// beside path, and leaves path itself untouched.
func CheckWritable(path string) error {
	if err := refuseDir(path); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return pathError(path, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// RemoveStale removes the file or symlink at path, if there is one, so
// that a report an earlier command left there cannot pass for the one
// about to be written; a folder at path is refused, as WriteFile refuses
// it.
func RemoveStale(path string) error {
	if err := refuseDir(path); err != nil {
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return pathError(path, err)
	}
	return nil
}

func refuseDir(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		return &os.PathError{Op: "write", Path: path, Err: syscall.EISDIR}
	}
	return nil
}

// pathError names path, not the temporary file, in err.
func pathError(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &os.PathError{Op: "write", Path: path, Err: err}
}
