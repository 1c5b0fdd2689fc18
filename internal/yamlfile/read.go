package yamlfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is the cause when ReadFile refuses a path that is not a
// regular file (or a symbolic link to one).
var ErrNotRegular = errors.New("not a regular file")

// ReadFile reads the regular file at path (following symbolic links), at
// most MaxBytes of it. A FIFO, a device, a socket or a folder is refused
// with ErrNotRegular, naming what it is; a larger file is refused with
// ErrTooLarge. The file is opened without blocking, so a FIFO with no
// writer does not hang.
func ReadFile(path string) ([]byte, error) {
	f, info, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > MaxBytes {
		return nil, tooLarge(info.Size())
	}
	// A file's size can lie (/proc reports 0) or grow while it is read:
	// read one byte past the ceiling to know.
	data, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxBytes {
		return nil, tooLarge(-1)
	}
	return data, nil
}

// OpenRegular opens the regular file at path (following symbolic links)
// for reading, without blocking on a FIFO, and refuses anything else with
// ErrNotRegular, naming what it is. The command line opens its JSON
// reports (merge, --baseline) with it too.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		_ = f.Close()
		return nil, nil, fmt.Errorf("%w (%s): only regular files are read", ErrNotRegular, modeName(info.Mode()))
	}
	return f, info, nil
}

// modeName says what kind of file a mode is, in words.
func modeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeIrregular != 0:
		return "an irregular file"
	}
	return "not a regular file"
}
