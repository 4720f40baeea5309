package litmus

import "github.com/ptxmm/ptxmm/source"

// Format names the file format a test was read from.
type Format int

const (
	// FormatHerd is the herd7 / Dartagnan .litmus format.
	FormatHerd Format = iota
	// FormatNV is NVIDIA's mixed-proxy .test format.
	FormatNV
)

func (f Format) String() string {
	if f == FormatNV {
		return "nv-test"
	}
	return "herd"
}

// Test is one litmus test: memory, threads, and what to check about the
// final states. A .test template yields one Test per table row.
type Test struct {
	File     string // the path as given by the user
	Name     string // "MP" for herd files; the file's base name for .test files
	Format   Format
	Instance int // the template row (1-based) of a .test template; 0 otherwise
	Pos      source.Pos

	Addresses []*Address // every address name, in declaration order
	RegInits  []*RegInit // initial register values (herd init block)
	// TensorMaps are the declared tensor maps (tensormap.go), which
	// cp.async.bulk.tensor names; nil in most tests.
	TensorMaps []*TensorMap
	Threads    []*Thread
	// HostNativeAtomics is set when the test declares that the link
	// between the devices and the host supports native atomics
	// (cudaDevAttrHostNativeAtomicSupported = 1; PTX ISA 8.1.1): host
	// atomics and .sys atomics of device threads are then atomic with
	// respect to each other (docs/model.md, section 24).
	HostNativeAtomics bool

	// Condition is the final condition of a herd test; nil for .test files.
	Condition *Condition
	// Locations are the registers and locations of a herd test's
	// "locations [x; 1:r0;]" clause: they join those the condition
	// mentions in the observed final state.
	Locations []Term
	// Assertions are the assert/permit/check commands of a .test file.
	Assertions []*Assertion

	// Warnings are the diagnostics about names whose meaning ptxmm had to
	// guess (lint.go), with their source lines; for a .test template,
	// every instance carries the file's.
	Warnings source.List
}

// Space is a PTX state space.
type Space int

const (
	// SpaceGlobal is device (global) memory, shared by every thread.
	SpaceGlobal Space = iota
	// SpaceShared is CTA-shared memory: each CTA has its own copy.
	SpaceShared
	// SpaceTensor is tensor memory (tcgen05): each CTA has its own copy.
	SpaceTensor
)

var spaceNames = [...]string{"global", "shared", "tmem"}

func (s Space) String() string { return spaceNames[s] }

// PerCTA reports whether each CTA has its own copy of the space.
func (s Space) PerCTA() bool { return s != SpaceGlobal }

// Proxy is a method of memory access (8.6).
type Proxy int

const (
	// ProxyGeneric is the generic proxy of ordinary ld/st/atom/red.
	ProxyGeneric Proxy = iota
	// ProxySurface is the surface proxy (sust, suld).
	ProxySurface
	// ProxyTexture is the texture proxy (tld).
	ProxyTexture
	// ProxyConstant is the constant proxy (cold).
	ProxyConstant
	// ProxyAsync is the asynchronous proxy of bulk copies and wgmma.
	ProxyAsync
)

var proxyNames = [...]string{"generic", "surface", "texture", "constant", "async"}

func (p Proxy) String() string { return proxyNames[p] }

// Address is a named virtual address. A plain declaration names a fresh
// memory location. An alias names a second virtual address for the memory
// location of AliasOf:
//
//   - a generic (physical) alias, herd "y @ generic aliases x" or .test
//     ".global y physically aliases x", is a distinct generic virtual address;
//   - a surface, texture or constant reference, herd "s @ surface aliases x"
//     or .test ".surfref s virtually aliases x", is the handle through which
//     that proxy reaches the generic address AliasOf.
type Address struct {
	Name    string
	Space   Space
	Kind    Proxy  // ProxyGeneric for plain addresses and generic aliases
	AliasOf string // "" for a plain declaration
	Init    int64  // initial value; meaningful for plain declarations only
	// Type is the declared data type of a plain declaration (.test
	// ".global .u16 x"): how its final value reads, and with Elems (the
	// N of an array ".global .u16 x[N]", 0 for a scalar) its size.
	// Type.Name is "" when the test declares none.
	Type    DataType
	Elems   int
	HasInit bool // whether the test gave an initial value explicitly
	// Implicit marks a location a herd test uses without declaring it
	// (Pos is then its first use).
	Implicit bool
	// MBarrier is the expected arrival count of an mbarrier object
	// declared in the init block (herd "b @ mbarrier N", .test
	// ".mbarrier b N"); 0 for other addresses. mbarriers live in shared
	// memory.
	MBarrier int64
	// Multimem lists the locations a multimem address points to (herd
	// "m @ multimem x, y", .test ".multimem m x, y;"), in the order
	// written; empty for other addresses. A multimem address is a virtual
	// address in global memory with no location of its own (8.2.3).
	Multimem []string
	Pos      source.Pos
}

// RegInit sets a register's value before the thread starts. Value is either
// an integer or, when Addr is non-empty, the address of a location.
type RegInit struct {
	Thread int // index into Test.Threads
	Reg    string
	Value  int64
	Addr   string
	Pos    source.Pos
}

// Thread is one thread of the test with its place in the thread hierarchy.
type Thread struct {
	Name    string // "P0", or "d0.b1.t0" in .test files
	Index   int
	GPU     int
	Cluster int // equals CTA unless the test names clusters (see docs/model.md)
	CTA     int
	Instrs  []*Instr
	Pos     source.Pos
	// Host marks a host (CPU) thread: H0, H1, ... in herd files. A host
	// thread is in no CTA, cluster or GPU (they are -1).
	Host bool
	// Kernel is the kernel a device thread belongs to in a test with host
	// threads ("" otherwise): the kernel's launch starts it (8.9.4, API
	// synchronization item 3).
	Kernel string
	// Launch numbers the kernel launch (grid) the thread belongs to: 0 in a
	// test without kernels, otherwise 1 + the index of its kernel in the
	// order kernels first appear among the threads. CTA and cluster
	// numbers are numbers within one launch (Table 21, 8.3: a CTA and a
	// cluster belong to one grid), so two threads are in the same CTA only
	// when their GPU, launch and CTA agree (numberLaunches sets it).
	Launch int
	// Warp and Lane place a device thread in a warp of its CTA and give
	// its lane (0 to 31), which bar.warp.sync's member mask names
	// (PTX ISA 9.7.13.2; docs/litmus.md, "Warps"). Herd files give them
	// in the placement (warp N, lane N), .test files through the thread
	// number (dD.bB.tT: warp T/32, lane T%32). LaneNamed says the
	// placement gave them; a thread without them cannot execute
	// bar.warp.sync.
	Warp, Lane int
	LaneNamed  bool
}

// Op is an instruction kind.
type Op int

const (
	// OpLoad reads memory: ld, suld, tld, cold.
	OpLoad Op = iota
	// OpStore writes memory: st, sust.
	OpStore
	// OpAtom is an atom instruction: read, modify, write.
	OpAtom
	// OpRed is a red (reduction) instruction: an atomic update without a result.
	OpRed
	// OpFence is a memory fence: fence.sc, fence.acq_rel, fence.acquire,
	// fence.release, membar.
	OpFence
	// OpProxyFence is fence.proxy.{alias,surface,texture,constant}.
	OpProxyFence
	// OpBarrier is a CTA barrier: bar{.cta}.sync, .arrive and .red and their
	// barrier{.cta} spellings (BarKind and BarRed say which).
	OpBarrier
	// OpMov sets a register: herd "ld r0, 1" or "mov r0, r1".
	OpMov
	// OpArith is register arithmetic: add, sub, mul, and, or, xor.
	OpArith
	// OpSetp is setp: Dst := 1 when A Cmp B holds, else 0.
	OpSetp
	// OpBranch is a conditional branch: beq, bne.
	OpBranch
	// OpGoto is an unconditional branch: goto, bra (conditional with a
	// Guard).
	OpGoto
	// OpLabel marks a branch target; it executes nothing.
	OpLabel
	// OpMBarrier is an mbarrier instruction (MBarOp says which).
	OpMBarrier
	// OpClusterBarrier is barrier.cluster.arrive (BarArrive) or
	// barrier.cluster.wait (BarSync).
	OpClusterBarrier
	// OpCopy is an asynchronous copy (CopyKind says which): cp.async,
	// cp.async.bulk and cp.reduce.async.bulk.
	OpCopy
	// OpAsyncGroup is a commit_group, wait_group or wait_all of cp.async,
	// bulk copies or wgmma (GroupFamily and GroupOp say which).
	OpAsyncGroup
	// OpCopyArrive is cp.async.mbarrier.arrive{.noinc}.
	OpCopyArrive
	// OpWgmmaFence is wgmma.fence.
	OpWgmmaFence
	// OpWgmma is wgmma.mma_async.
	OpWgmma
	// OpMapa is mapa.shared::cluster: the address of another CTA's copy of
	// a shared variable.
	OpMapa
	// OpMBarInitFence is fence.mbarrier_init.release.cluster.
	OpMBarInitFence
	// OpTcgen05 is a tcgen05 instruction (Tc says which).
	OpTcgen05
	// OpStAsync is st.async (AtomOp "") or red.async (AtomOp the
	// reduction) with its mbarrier completion: an asynchronous store or
	// reduction into a shared-memory location of a CTA of the cluster,
	// then a complete-tx on the mbarrier MBar of that CTA (PTX ISA
	// 9.7.9.12, 9.7.13.7).
	OpStAsync
	// OpAPI is a CUDA runtime API call of a host thread (API says which).
	// It stays the last Op.
	OpAPI
)

// Sem is the memory-ordering qualifier of an instruction.
type Sem int

const (
	// SemWeak is .weak (and the default of ld/st without a qualifier).
	SemWeak Sem = iota
	// SemRelaxed is .relaxed.
	SemRelaxed
	// SemAcquire is .acquire.
	SemAcquire
	// SemRelease is .release.
	SemRelease
	// SemAcqRel is .acq_rel.
	SemAcqRel
	// SemSC is .sc (fences only).
	SemSC
	// SemVolatile is .volatile: relaxed at system scope (8.4.2).
	SemVolatile
	// SemMMIO is .mmio: strong (8.4.1).
	SemMMIO
)

var semNames = [...]string{"weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio"}

func (s Sem) String() string { return semNames[s] }

// Scope is the scope qualifier of a strong operation (8.5).
type Scope int

const (
	// ScopeNone marks an operation without a scope (weak operations).
	ScopeNone Scope = iota
	// ScopeCTA is .cta.
	ScopeCTA
	// ScopeCluster is .cluster.
	ScopeCluster
	// ScopeGPU is .gpu (membar.gl).
	ScopeGPU
	// ScopeSys is .sys.
	ScopeSys
)

var scopeNames = [...]string{"", "cta", "cluster", "gpu", "sys"}

func (s Scope) String() string { return scopeNames[s] }

// BarrierKind tells bar.sync from bar.arrive.
type BarrierKind int

const (
	// BarSync waits for the barrier to complete.
	BarSync BarrierKind = iota
	// BarArrive signals arrival without waiting.
	BarArrive
)

// BarRedOp is the reduction of a bar.red (barrier{.cta}.red).
type BarRedOp int

const (
	// BarRedNone marks the barriers without a reduction.
	BarRedNone BarRedOp = iota
	// BarRedPopc counts the arriving threads whose predicate is true.
	BarRedPopc
	// BarRedAnd is 1 when every arriving thread's predicate is true.
	BarRedAnd
	// BarRedOr is 1 when some arriving thread's predicate is true.
	BarRedOr
)

var barRedNames = [...]string{"", "popc", "and", "or"}

func (o BarRedOp) String() string { return barRedNames[o] }

// OperandKind tells what an Operand holds.
type OperandKind int

const (
	// OperandNone is an absent operand.
	OperandNone OperandKind = iota
	// OperandReg is a register.
	OperandReg
	// OperandImm is an integer constant.
	OperandImm
	// OperandAddr is an address name, used as a value or as the memory operand.
	OperandAddr
)

// Operand is an instruction argument.
type Operand struct {
	Kind OperandKind
	Reg  string
	Imm  int64
	Addr string
	// At is where the operand is written, in its instruction's file
	// (At.In(in.Pos.File) is its source.Pos).
	At LineCol
}

// LineCol is a line and a column (counting bytes from 1, as source.Pos
// does) in a file that the holder knows: an Instr holds fourteen operands,
// and a whole source.Pos each (its file name repeated) would make an
// instruction a third larger. The zero LineCol means "no position".
type LineCol struct {
	Line, Col int32
}

// lineColOf drops the file of a position.
func lineColOf(p source.Pos) LineCol { return LineCol{Line: int32(p.Line), Col: int32(p.Col)} }

// In returns the position in file; no position stays none.
func (lc LineCol) In(file string) source.Pos {
	if lc.Line <= 0 {
		return source.Pos{}
	}
	return source.Pos{File: file, Line: int(lc.Line), Col: int(lc.Col)}
}

// Instr is one instruction. Which fields are meaningful depends on Op; the
// parsers fill exactly those.
type Instr struct {
	Op    Op
	Pos   source.Pos
	Text  string // the instruction as written, whitespace-normalised, for display
	Sem   Sem
	Scope Scope
	Proxy Proxy // memory ops: the proxy of the access; proxy fences: the proxy named (see Alias)
	Alias bool  // fence.proxy.alias

	// Memory operations.
	Dst    string  // destination register of loads and atoms; "" if none
	Addr   Operand // the memory operand: an address name or a register holding an address
	Src    Operand // the value stored, or the first operand of an atom/red
	Src2   Operand // the second operand of atom.cas (the new value)
	AtomOp string  // add, sub, inc, dec, exch, cas, and, or, xor, min, max
	Filter *int64  // .test "ld r0, [x] == 1": only executions where the load returns this value
	// Type is the data type of ld, st, atom, red, mov and the arithmetic
	// (Type.Name is "" when the instruction names none); Vec the element count of .v2 and .v4
	// (0 for scalars); Offset the byte offset of "[x+4]". Vector loads
	// write VecDst and vector stores write VecSrc, in element order
	// (Dst and Src stay empty). See Elements.
	Type   DataType
	Vec    int
	Offset int64
	VecDst []string
	VecSrc []Operand

	// Barriers.
	BarKind  BarrierKind
	Instance Operand // which barrier instance (herd format: first argument)
	BarID    Operand // the logical barrier (herd format: second argument; default 0)
	Count    Operand // the number of threads expected; OperandNone when absent
	// BarWarp marks bar.warp.sync (PTX ISA 9.7.13.2): a barrier of the
	// threads of the executing thread's warp whose lanes the member mask
	// names. Instance holds the mask and BarID 0; it has no Count (the
	// threads it waits for are the mask's that have not exited); BarKind
	// is BarSync.
	BarWarp bool
	// bar.red: the reduction (BarRedNone for other barriers), its
	// predicate operand c and whether it is written !c; the result goes to
	// Dst.
	BarRed  BarRedOp
	Pred    Operand
	PredNeg bool

	// Asynchronous operations and mbarriers (see ast_async.go).
	MBarOp  MBarOp
	Copy    CopyKind
	Family  GroupFamily
	GroupOp GroupOp
	Mem2    Operand // a copy's source, wgmma's B operand, tcgen05.mma's a
	Mem3    Operand // tcgen05.mma's b
	MBar    Operand // the mbarrier a bulk copy, st.async or red.async completes on
	// CtaMask is the ctaMask operand of a .multicast::cluster bulk or
	// tensor load (OperandNone for every other instruction): bit K names
	// CTA K of the executing thread's cluster, whose copies of the
	// destination and of MBar the load writes and signals.
	CtaMask Operand
	// CtaMaskBits is the width of CtaMask, 16 or 32 (.multicast::cluster::32b).
	CtaMaskBits int
	Size        Operand // a copy's size in bytes (OperandNone when absent)
	// Tensor is the tensor operand of cp.async.bulk.tensor and
	// cp.reduce.async.bulk.tensor (nil for other instructions); the copy's
	// global operand and Size come from its tensor map.
	Tensor *TensorCopy
	Parity bool // mbarrier.test_wait.parity / try_wait.parity
	NoInc  bool // cp.async.mbarrier.arrive.noinc
	// NoComplete is mbarrier.arrive.noComplete and
	// mbarrier.arrive_drop.noComplete: the arrive must not complete the
	// phase (undefined otherwise).
	NoComplete bool
	ReadOnly   bool // cp.async.bulk.wait_group.read
	// SpaceQ is the state space the instruction names for its memory
	// operand (".global", ".shared::cta", ...), SpaceQNone when it names
	// none.
	SpaceQ SpaceQual
	// Multimem marks multimem.ld_reduce (Op OpLoad, the reduction in
	// AtomOp), multimem.st (OpStore) and multimem.red (OpRed): one
	// operation on every location of a multimem address (8.2.3).
	Multimem bool

	// tcgen05 (see ast_tcgen05.go).
	Tc       TcOp
	CtaGroup int    // cta_group::N, 1 by default
	Shape    string // the shape or kind qualifiers that pipelining compares
	Acc      bool   // tcgen05.mma with enable-input-d: d := d + a + b

	// API is the call of an OpAPI instruction (see ast_host.go).
	API *APICall

	// Register operations and control flow.
	ArithOp string  // add, sub, mul, and, or, xor
	A, B    Operand // operands of OpArith / OpBranch / OpMov (A only)
	Cmp     string  // "eq" or "ne" for OpBranch; "CMP.TYPE" for OpSetp (e.g. "lt.u32")
	Label   string  // OpLabel's name, or the target of OpBranch / OpGoto

	// Guard is the guard predicate of "@p INSTR" (OperandNone when the
	// instruction has none): the instruction executes only when register
	// p is not 0, or, with GuardNeg ("@!p"), when it is 0.
	Guard    Operand
	GuardNeg bool
}

// PosOf returns the file:line:col of one of the instruction's operands.
func (in *Instr) PosOf(o Operand) source.Pos { return o.At.In(in.Pos.File) }

// CondKind is the quantifier of a herd condition.
type CondKind int

const (
	// CondExists holds when some consistent execution satisfies the expression.
	CondExists CondKind = iota
	// CondNotExists holds when no consistent execution does.
	CondNotExists
	// CondForall holds when every consistent execution does.
	CondForall
)

func (k CondKind) String() string {
	switch k {
	case CondNotExists:
		return "~exists"
	case CondForall:
		return "forall"
	default:
		return "exists"
	}
}

// Condition is the final condition of a herd test.
type Condition struct {
	Kind CondKind
	Expr Expr
	Pos  source.Pos
	// threadNames names the test's threads, for printing (H0 in a column
	// other than 0 is not "P" and its index).
	threadNames []string
}

// AssertKind is the command of a .test assertion.
type AssertKind int

const (
	// AssertAlways (assert) holds when every consistent execution satisfies it.
	AssertAlways AssertKind = iota
	// AssertSometimes (permit) holds when at least one does.
	AssertSometimes
	// AssertCheck (check) reports which of the two it is.
	AssertCheck
)

func (k AssertKind) String() string {
	switch k {
	case AssertSometimes:
		return "permit"
	case AssertCheck:
		return "check"
	default:
		return "assert"
	}
}

// Assertion is one assert/permit/check command of a .test file.
type Assertion struct {
	Kind AssertKind
	Expr Expr
	Name string
	Pos  source.Pos
}

// Expr is a boolean condition over final register and memory values.
type Expr interface {
	exprNode()
	Position() source.Pos
}

// And is a conjunction (herd /\, .test &&).
type And struct {
	L, R Expr
	Pos  source.Pos
}

// Or is a disjunction (herd \/, .test ||).
type Or struct {
	L, R Expr
	Pos  source.Pos
}

// Not is a negation (herd ~, .test !).
type Not struct {
	X   Expr
	Pos source.Pos
}

// BoolLit is true or false.
type BoolLit struct {
	Value bool
	Pos   source.Pos
}

// Cmp compares two terms with "==" or "!=".
type Cmp struct {
	Op   string
	L, R Term
	Pos  source.Pos
}

func (*And) exprNode()     {}
func (*Or) exprNode()      {}
func (*Not) exprNode()     {}
func (*BoolLit) exprNode() {}
func (*Cmp) exprNode()     {}

// Position returns where the expression starts.
func (e *And) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Or) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Not) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *BoolLit) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Cmp) Position() source.Pos { return e.Pos }

// TermKind tells what a Term denotes.
type TermKind int

const (
	// TermReg is a thread's register: herd P1:r0 or 1:r0, .test r0.
	TermReg TermKind = iota
	// TermLoc is the final value of a memory location.
	TermLoc
	// TermConst is an integer constant.
	TermConst
)

// Term is one side of a comparison.
type Term struct {
	Kind   TermKind
	Thread int // TermReg: index into Test.Threads
	Reg    string
	Loc    string // TermLoc: an address name
	Value  int64
	Pos    source.Pos
}
