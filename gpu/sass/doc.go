// Package sass checks that the compiler kept a test: it disassembles the
// machine code the driver's linker made of each thread's instructions
// (with cuobjdump or nvdisasm) and compares the memory operations and
// fences there, kind by kind and in order, with the thread's PTX. This is
// the "optcheck" of Alglave et al. (ASPLOS'15): a test whose compiled code
// dropped, merged, added or reordered memory operations is reported, not
// trusted.
package sass
