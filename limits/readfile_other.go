//go:build !unix

package limits

import "os"

// readRegular reads the regular file name up to f.MaxBytes.
func (f File) readRegular(name string, _ int64) ([]byte, error) {
	file, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return f.read(name, file)
}
