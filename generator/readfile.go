package generator

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Byte limits of one load (README "Limits"): any one input file (the spec,
// a file a $ref names, an overlay, the config file) and all the files of
// one load together. The largest real spec we generate (GitHub's REST API,
// JSON) is about 12 MB.
const (
	// MaxInputFileBytes is the size limit of one input file: 64 MiB.
	MaxInputFileBytes = 64 << 20
	// MaxInputTotalBytes is the limit of all input files of one load
	// together: 256 MiB.
	MaxInputTotalBytes = 256 << 20
)

// ReadInputFile reads path, which must be a regular file (a FIFO, a device
// such as /dev/zero, a directory or a socket is refused before it is
// opened, so nothing blocks) of at most MaxInputFileBytes. The error names
// path and the limit.
func ReadInputFile(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &inputFileError{fmt.Sprintf("%s: not a regular file (%s); retrygen reads only regular files", path, fileKind(fi.Mode()))}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(path, f, fi.Size())
}

// readFSFile is ReadInputFile for a file of the spec's directory.
func readFSFile(fsys fs.FS, name, shown string) ([]byte, error) {
	fi, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &inputFileError{fmt.Sprintf("%s: not a regular file (%s); retrygen reads only regular files", shown, fileKind(fi.Mode()))}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(shown, f, fi.Size())
}

// readLimited reads r to its end, refusing more than MaxInputFileBytes.
// size is what the file's Stat said: the buffer starts at that (plus one
// byte, to see the end), so an 8 MB spec is one allocation, not the dozen
// of io.ReadAll's doubling (issue 24); a file that grew meanwhile still
// reads whole up to the limit.
func readLimited(shown string, r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, min(max(size, 0), MaxInputFileBytes)+1)
	r = io.LimitReader(r, MaxInputFileBytes+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // grow
		}
	}
	if len(b) > MaxInputFileBytes {
		return nil, &inputFileError{fmt.Sprintf("%s: larger than the limit of %d bytes (64 MiB) for one input file", shown, MaxInputFileBytes)}
	}
	return b, nil
}

// fileKind names a non-regular file's type.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0, m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// chargeBytes takes n bytes read from the load's byte budget
// (MaxInputTotalBytes), or returns the error naming the file.
func (nb *nodeBudget) chargeBytes(shown string, n int) error {
	nb.bytesRead += n
	if nb.bytesRead > MaxInputTotalBytes {
		return fmt.Errorf("%s: reading it takes the spec's files past the limit of %d bytes (256 MiB) for all input files together", shown, MaxInputTotalBytes)
	}
	return nil
}

// inputFileError is a file refused by ReadInputFile: its message names the
// file already.
type inputFileError struct{ msg string }

func (e *inputFileError) Error() string { return e.msg }
