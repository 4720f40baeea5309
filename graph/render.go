package graph

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoDot reports that Graphviz is not installed.
var ErrNoDot = errors.New("Graphviz's dot is not installed, so only .dot output is possible (install the Debian package graphviz, or write -o FILE.dot)")

// Write saves DOT text to path: as is for .dot, and through Graphviz's dot
// for .svg and .png.
func Write(path, dot string) error {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".dot", ".gv":
		return os.WriteFile(path, []byte(dot), 0o644)
	case ".svg", ".png":
		bin, err := exec.LookPath("dot")
		if err != nil {
			return ErrNoDot
		}
		cmd := exec.Command(bin, "-T"+ext[1:], "-o", path)
		cmd.Stdin = strings.NewReader(dot)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("dot failed: %v: %s", err, strings.TrimSpace(stderr.String()))
		}
		return nil
	default:
		return fmt.Errorf("-o %s: the output must end in .dot, .svg or .png", path)
	}
}
