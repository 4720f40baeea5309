package ptxgen

import (
	"fmt"
	"strings"
)

// RoleEntry is the name of role k's kernel in the optcheck module.
func RoleEntry(k int) string { return fmt.Sprintf("role%d", k) }

// OptcheckModule returns a module with one kernel per role, RoleEntry(k),
// holding the role's code as the test's kernel has it (its address
// computations, its instructions, its loop bounds, then a fence and the
// stores of its registers and status, with the evict-first hint that
// marks them) without the harness around it: no placement, no pre-stress
// and no start barrier, so that the memory operations in its machine code
// are the role's own and the result stores. The -sass check compiles and
// disassembles it.
func (p *Plan) OptcheckModule(arch string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "//\n// ptxmm run -sass: the threads of test %s, one kernel each\n//\n.version %s\n.target %s\n.address_size 64\n\n", p.Test.Name, p.Version, arch)
	if p.SharedBytes > 0 {
		fmt.Fprintf(&b, ".shared .align 16 .b8 smem[%d];\n\n", p.SharedBytes)
	}
	for i := range p.Roles {
		e := newEmitter()
		var body strings.Builder
		e.to(&body)
		e.ins("ld.param.u64 %%k_inst, [prm+%d]", prmRows)
		e.ins("ld.param.u64 %%k_res, [prm+%d]", prmResults)
		e.ins("cvta.to.global.u64 %%k_res, %%k_res")
		e.ins("mov.u64 %%k_lane, 0")
		e.ins("mov.u32 %%k_g32, 32")
		if p.SharedBytes > 0 {
			e.ins("mov.u64 %%k_sm, smem")
		}
		rg := newRoleGen(p, i, e)
		rg.bare = true
		if err := rg.emit(); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, ".visible .entry %s(.param .align 8 .b8 prm[%d])\n{\n", RoleEntry(i), paramBytes)
		b.WriteString(e.declarations())
		b.WriteString("\t.reg .b64 %k_inst, %k_sm, %k_res, %k_st, %k_bnd, %k_mstate, %k_lane;\n\t.reg .b32 %k_g32;\n")
		b.WriteString(rg.declarations())
		b.WriteString(body.String())
		b.WriteString("}\n\n")
	}
	return b.String(), nil
}
