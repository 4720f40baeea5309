package litmus

// ncLoad is the mnemonic ptxmm gives ld.global.nc once its .nc qualifier
// is taken out: the PTX ISA's "non-coherent" load, which reads global
// memory through the texture cache. Chapter 8 (8.1) says the memory
// consistency model "does not apply to texture (including ld.global.nc)"
// accesses; ptxmm models texture accesses as the texture proxy (tld), so
// ld.global.nc is a tld of the global location: weak, with no scope, and
// seeing another thread's writes only through fence.proxy.texture
// (docs/litmus.md, section 4.2).
const ncLoad = "ld.global.nc"

// takeNC removes the .nc qualifier from an ld mnemonic and renames it
// ncLoad. It reports false (m unchanged) when there is none, and an error
// when .nc comes twice or without .global, the only state space PTX
// defines the non-coherent load on.
func (p *parser) takeNC(m *mnemonic) (found, ok bool) {
	at := -1
	global := false
	for i, x := range m.qs {
		switch x.name {
		case "nc":
			if at >= 0 {
				p.errorf(x.off, "ld has two .nc qualifiers")
				return true, false
			}
			at = i
		case "global":
			global = true
		}
	}
	if at < 0 {
		return false, true
	}
	if !global {
		p.errorf(m.qs[at].off, "ld.nc needs .global: PTX defines the non-coherent load on global memory only (write ld.global.nc)")
		return true, false
	}
	qs := make([]qual, 0, len(m.qs)-1)
	qs = append(qs, m.qs[:at]...)
	m.qs = append(qs, m.qs[at+1:]...)
	m.op = ncLoad
	return true, true
}
