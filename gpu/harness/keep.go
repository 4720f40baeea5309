package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/sass"
)

// Keeper writes the code of each test it runs to a folder (ptxmm run
// -keep): the PTX module that ran (NAME.ptx), the cubin the driver's JIT
// compiler makes of it through the driver's linker (NAME.cubin), and,
// with a disassembler, its machine code with the control bits
// (NAME.sass, sass.Annotate). With -sass, the optcheck module of the
// threads is kept too (NAME.optcheck.*).
type Keeper struct {
	Dir string
	// Disassembler, when set, writes the .sass listings.
	Disassembler *sass.Disassembler
}

// keep writes the outcome's modules and their machine code.
func (k *Keeper) keep(drv gpu.Driver, o *Outcome, optcheck bool) error {
	if err := os.MkdirAll(k.Dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(k.Dir, keepName(o))
	if err := k.module(drv, base, o.Module); err != nil {
		return err
	}
	if !optcheck {
		return nil
	}
	m, err := o.Plan.OptcheckModule(o.Device.Arch())
	if err != nil {
		return err
	}
	return k.module(drv, base+".optcheck", m)
}

// module writes one module, its cubin and its listing under base.
func (k *Keeper) module(drv gpu.Driver, base, ptx string) error {
	if err := os.WriteFile(base+".ptx", []byte(ptx), 0o644); err != nil {
		return err
	}
	cubin, err := drv.Cubin(ptx)
	if err != nil {
		return fmt.Errorf("compiling %s.ptx to machine code: %w", filepath.Base(base), err)
	}
	if err := os.WriteFile(base+".cubin", cubin, 0o644); err != nil {
		return err
	}
	if k.Disassembler == nil {
		return nil
	}
	code, err := k.Disassembler.Disassemble(cubin)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := sass.Annotate(&b, code); err != nil {
		return err
	}
	return os.WriteFile(base+".sass", b.Bytes(), 0o644)
}

// keepName is the file name of a test's code: its name, with the
// instance of a .test file's later tests, in characters that need no
// quoting.
func keepName(o *Outcome) string {
	name := o.Test.Name
	if o.Test.Instance > 0 {
		name = fmt.Sprintf("%s.%d", name, o.Test.Instance)
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', strings.ContainsRune("+-_.", r):
			return r
		}
		return '_'
	}, name)
}
