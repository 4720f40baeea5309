package litmus

import (
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/source"
)

// FormatForPath tells the format of a file by its extension: .litmus is the
// herd format and .test NVIDIA's. Any other extension is an error.
func FormatForPath(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".litmus":
		return FormatHerd, nil
	case ".test":
		return FormatNV, nil
	}
	var errs source.List
	errs.Add(source.Pos{File: path}, "unsupported file extension %q: expected .litmus (herd) or .test (NVIDIA mixed-proxy)", filepath.Ext(path))
	return 0, errs
}

// ParseFile reads path and parses it in the format its extension names.
func ParseFile(path string) ([]*Test, error) {
	f, err := FormatForPath(path)
	if err != nil {
		return nil, err
	}
	src, err := limits.TestFile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src, f)
}

// Parse parses src, the contents of file, as format f. A .test template
// yields one Test per table row (Instance K for row K, from 1); every other
// file yields one Test with Instance 0.
func Parse(file string, src []byte, f Format) ([]*Test, error) {
	if f == FormatNV {
		return ParseNV(file, src)
	}
	t, err := ParseHerd(file, src)
	if err != nil {
		return nil, err
	}
	return []*Test{t}, nil
}

// testName is a .test file's test name: its base name without extension.
func testName(file string) string {
	base := filepath.Base(file)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// AddressByName returns the address called name, or nil.
func (t *Test) AddressByName(name string) *Address {
	for _, a := range t.Addresses {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// ThreadByName returns the thread called name, or nil.
func (t *Test) ThreadByName(name string) *Thread {
	for _, th := range t.Threads {
		if th.Name == name {
			return th
		}
	}
	return nil
}
