package sass

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/internal/lazyregexp"
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
// instructions in code order, with their control bits (nvdisasm is asked
// for the encodings, which cuobjdump -sass always prints).
func (d Disassembler) Disassemble(cubin []byte) (map[string][]Instr, error) {
	text, err := d.Listing(cubin)
	if err != nil {
		return nil, err
	}
	return Parse(text), nil
}

// Listing returns the tool's listing of a cubin.
func (d Disassembler) Listing(cubin []byte) (string, error) {
	dir, err := os.MkdirTemp("", "ptxmm-sass")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "litmus.cubin")
	if err := os.WriteFile(file, cubin, 0o644); err != nil {
		return "", err
	}
	args := []string{"-hex", file}
	if d.Name() == "cuobjdump" {
		args = []string{"-sass", file}
	}
	out, err := exec.Command(d.Path, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s: %v\n%s", d.Name(), err, strings.TrimSpace(string(out)))
	}
	return string(out), nil
}

// Instr is one machine instruction.
type Instr struct {
	// Addr is its offset in the function.
	Addr uint64
	// Text is the instruction without its trailing ';'.
	Text string
	// Control holds its control bits when HasControl: the listing showed
	// its encoding (two 64-bit words, the second on the next line).
	Control    Control
	HasControl bool
}

var (
	// cuobjdump: "Function : role0"; nvdisasm: ".text.role0:".
	functionLine = lazyregexp.New(`^\s*(?:Function\s*:\s*(\S+)|\.text\.([A-Za-z0-9_$]+):)\s*$`)
	// "/*0040*/   LDG.E R2, desc[UR4][R2.64] ;   /* 0x000000040202...*/"
	instrLine = lazyregexp.New(`^\s*/\*([0-9a-f]{4,})\*/\s+([^;]*;)\s*(?:/\*\s*0x([0-9a-f]{16})\s*\*/)?`)
	// the second word of an encoding, alone on the next line
	encodingLine = lazyregexp.New(`^\s*/\*\s*0x([0-9a-f]{16})\s*\*/\s*$`)
)

// Parse reads the output of cuobjdump -sass or nvdisasm (with or without
// -hex): the instructions of each function.
func Parse(text string) map[string][]Instr {
	out := map[string][]Instr{}
	fn := ""
	// lowWord says the last instruction printed the first word of its
	// encoding, so that the next line's word completes it.
	lowWord := false
	sc := bufio.NewScanner(strings.NewReader(text))
	// A line as long as the text: with a fixed bound, a longer line
	// stopped the scan there and the functions after it were left out.
	sc.Buffer(nil, len(text)+1)
	for sc.Scan() {
		line := sc.Text()
		if m := functionLine().FindStringSubmatch(line); m != nil {
			fn, lowWord = m[1]+m[2], false
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "//---") {
			fn, lowWord = "", false // nvdisasm: another section starts
			continue
		}
		if m := encodingLine().FindStringSubmatch(line); m != nil {
			if lowWord && fn != "" {
				hi, err := strconv.ParseUint(m[1], 16, 64)
				if code := out[fn]; err == nil && len(code) > 0 {
					code[len(code)-1].Control, code[len(code)-1].HasControl = decodeControl(hi), true
				}
			}
			lowWord = false
			continue
		}
		lowWord = false
		m := instrLine().FindStringSubmatch(line)
		if m == nil || fn == "" || strings.HasPrefix(strings.TrimSpace(m[2]), ".") {
			continue
		}
		addr, err := strconv.ParseUint(m[1], 16, 64)
		if err != nil {
			continue
		}
		out[fn] = append(out[fn], Instr{Addr: addr, Text: strings.TrimSpace(strings.TrimSuffix(m[2], ";"))})
		lowWord = m[3] != ""
	}
	return out
}
