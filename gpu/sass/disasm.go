package sass

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// Disassembler runs cuobjdump or nvdisasm on a cubin.
type Disassembler struct {
	// Path is the tool's path; its base name says which it is.
	Path string
}

// FindDisassembler looks for cuobjdump, then nvdisasm, on the PATH.
func FindDisassembler() (Disassembler, error) {
	for _, name := range []string{"cuobjdump", "nvdisasm"} {
		if p, err := exec.LookPath(name); err == nil {
			return Disassembler{Path: p}, nil
		}
	}
	return Disassembler{}, fmt.Errorf("-sass needs cuobjdump or nvdisasm (from the CUDA toolkit) on the PATH; neither was found")
}

// Name is the tool's name.
func (d Disassembler) Name() string { return filepath.Base(d.Path) }

// Disassemble returns the machine code of each function of a cubin: its
// instructions in code order, without their encodings.
func (d Disassembler) Disassemble(cubin []byte) (map[string][]string, error) {
	dir, err := os.MkdirTemp("", "ptxmm-sass")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "litmus.cubin")
	if err := os.WriteFile(file, cubin, 0o644); err != nil {
		return nil, err
	}
	args := []string{file}
	if d.Name() == "cuobjdump" {
		args = []string{"-sass", file}
	}
	out, err := exec.Command(d.Path, args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", d.Name(), err, strings.TrimSpace(string(out)))
	}
	return Parse(string(out)), nil
}

var (
	// cuobjdump: "Function : role0"; nvdisasm: ".text.role0:".
	functionLine = regexp.MustCompile(`^\s*(?:Function\s*:\s*(\S+)|\.text\.([A-Za-z0-9_$]+):)\s*$`)
	// "/*0040*/   LDG.E R2, desc[UR4][R2.64] ;   /* 0x... */"
	instrLine = regexp.MustCompile(`^\s*/\*[0-9a-f]{4,}\*/\s+([^;]*;)`)
)

// Parse reads the output of cuobjdump -sass or nvdisasm: the instructions
// of each function, each without its trailing ';'.
func Parse(text string) map[string][]string {
	out := map[string][]string{}
	fn := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := functionLine.FindStringSubmatch(line); m != nil {
			fn = m[1] + m[2]
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "//---") {
			fn = "" // nvdisasm: another section starts
			continue
		}
		m := instrLine.FindStringSubmatch(line)
		if m == nil || fn == "" || strings.HasPrefix(strings.TrimSpace(m[1]), ".") {
			continue
		}
		out[fn] = append(out[fn], strings.TrimSpace(strings.TrimSuffix(m[1], ";")))
	}
	return out
}
