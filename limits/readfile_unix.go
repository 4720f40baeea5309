//go:build unix

package limits

import (
	"io/fs"
	"syscall"
)

// readRegular reads the regular file name, of size bytes when it was
// looked at, up to f.MaxBytes, with the system's calls alone: an os.File
// would also set the descriptor's flags and try to register it with the
// runtime's poller (which refuses regular files), five calls more per
// file, which a suite of small tests pays on every file. The errors are
// os.Open's and os.File.Read's, and the file is read to its end as
// io.ReadAll does: one call more finds the end of a file that did not
// grow.
func (f File) readRegular(name string, size int64) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	// Room for the whole file and a little more, so that the call that
	// finds its end needs no larger buffer.
	buf := make([]byte, 0, min(size, f.MaxBytes)+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		// Never more than one byte past the bound: a file that grew
		// past it while read is refused, as read refuses a stream.
		room := buf[len(buf):min(int64(cap(buf)), f.MaxBytes+1)]
		n, err := syscall.Read(fd, room)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n <= 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > f.MaxBytes {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &FileError{File: f}}
		}
	}
	return buf, nil
}
