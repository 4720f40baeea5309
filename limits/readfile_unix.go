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
// grow. A file that grows is read on, up to one byte past the bound.
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
	// The buffer is made the size the file was looked at with; the call
	// that finds its end reads into probe, whose bytes (a file that grew)
	// are appended.
	buf := make([]byte, 0, min(size, f.MaxBytes+1))
	var probe [512]byte
	for {
		room := buf[len(buf):cap(buf)]
		if len(room) == 0 {
			room = probe[:]
		}
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
		if len(buf) == cap(buf) {
			buf = append(buf, probe[:n]...)
		} else {
			buf = buf[:len(buf)+n]
		}
		// A file that grew past the bound while read is refused, as
		// read refuses a stream.
		if int64(len(buf)) > f.MaxBytes {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &FileError{File: f}}
		}
	}
	return buf, nil
}
