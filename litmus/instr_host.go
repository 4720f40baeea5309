package litmus

import (
	"slices"
	"strings"
)

// This file parses what host threads run: the CUDA runtime calls of PTX
// ISA 8.9.4 "API synchronization", and the memory accesses of the host
// (8.1.1), which are ld, st, atom, red and fence at system scope. The forms
// are listed in docs/litmus.md, section 8.

// apiForms lists the supported calls for diagnostics.
const apiForms = "cudaLaunchKernel, cudaStreamCreate, cudaStreamCreateWithFlags, cudaStreamSynchronize, cudaStreamQuery, " +
	"cudaEventCreate, cudaEventCreateWithFlags, cudaEventRecord, cudaStreamWaitEvent, cudaEventSynchronize, cudaEventQuery, " +
	"cudaDeviceSynchronize, cudaSetDevice, cudaGraphCreate, cudaGraphAddKernelNode, cudaGraphAddEmptyNode, " +
	"cudaGraphAddDependencies, cudaGraphInstantiate or cudaGraphLaunch"

// apiByName maps the call names to their functions; cudaStreamCreate and
// cudaStreamCreateWithFlags are both APIStreamCreate, and the two
// cudaEventCreate forms APIEventCreate.
var apiByName = map[string]APIFn{
	"cudaLaunchKernel": APILaunchKernel, "cudaStreamCreate": APIStreamCreate, "cudaStreamCreateWithFlags": APIStreamCreate,
	"cudaStreamSynchronize": APIStreamSynchronize, "cudaStreamQuery": APIStreamQuery, "cudaEventRecord": APIEventRecord,
	"cudaStreamWaitEvent": APIStreamWaitEvent, "cudaEventSynchronize": APIEventSynchronize, "cudaEventQuery": APIEventQuery,
	"cudaDeviceSynchronize": APIDeviceSynchronize, "cudaSetDevice": APISetDevice,
	"cudaGraphAddKernelNode": APIGraphAddKernelNode, "cudaGraphAddEmptyNode": APIGraphAddEmptyNode,
	"cudaGraphAddDependencies": APIGraphAddDependencies, "cudaGraphLaunch": APIGraphLaunch,
	"cudaEventCreate": APIEventCreate, "cudaEventCreateWithFlags": APIEventCreate,
	"cudaGraphCreate": APIGraphCreate, "cudaGraphInstantiate": APIGraphInstantiate,
}

// isAPIMnemonic reports whether a mnemonic names a CUDA runtime call.
func isAPIMnemonic(op string) bool { return strings.HasPrefix(op, "cuda") }

// hostMnemonics are the instructions a host thread may run besides the
// CUDA calls.
var hostMnemonics = []string{"ld", "st", "atom", "red", "fence", "membar", "mov", "add", "sub", "mul", "and", "or", "xor", "setp", "beq", "bne", "goto", "bra"}

// threadAllows reports, with a diagnostic when not, whether thread tb may
// run the instruction m: CUDA calls are for host threads, and host threads
// run only hostMnemonics and CUDA calls. A host thread's fence, and its
// atomic ld or st (one with a memory order), without a scope get the
// host's only scope, .sys: the host program's atomics are C++ atomics,
// which name no scope, so PTX's rule that a strong ld or st needs one does
// not apply to them.
func (p *parser) threadAllows(tb *threadBuild, m *mnemonic) bool {
	api := isAPIMnemonic(m.op)
	if tb.th.Host && hostSysDefault(m) {
		m.qs = append(slices.Clone(m.qs), qual{name: "sys", off: m.off + len(m.text)})
	}
	switch {
	case api && !tb.th.Host:
		p.errorf(m.off, "%s is a CUDA runtime call: only host threads (%s) make them", m.op, hostThreadExample(p.format))
		return false
	case tb.th.Host && !api && !slices.Contains(hostMnemonics, m.op):
		p.errorf(m.off, "%s is a device instruction: host thread %s runs ld, st, atom, red, fence, register operations, branches and CUDA runtime calls (%s)", m.op, tb.th.Name, apiForms)
		return false
	}
	return true
}

// hostSysDefault reports whether a host thread's instruction m takes .sys
// as its scope because it names none: a fence (other than a proxy fence),
// or an ld or st with an atomic memory order (weak ones take no scope;
// .volatile and .mmio are device-only, checkHostInstr says so).
func hostSysDefault(m *mnemonic) bool {
	scoped, ordered := false, false
	for _, q := range m.qs {
		_, isScope := scopeOf(q.name)
		scoped = scoped || isScope || q.name == "proxy"
		sem, isSem := semOf(q.name)
		ordered = ordered || isSem && sem != SemWeak && sem != SemVolatile && sem != SemMMIO
	}
	switch m.op {
	case "fence":
		return !scoped
	case "ld", "st":
		return !scoped && ordered
	}
	return false
}

// hostThreadExample shows how a format writes a host thread.
func hostThreadExample(f Format) string {
	if f == FormatNV {
		return "h0 { ... }"
	}
	return "H0@host"
}

// checkHostInstr applies the rules of host memory accesses to a parsed
// instruction of a host thread: the host's only scope is the system
// (Table 21: .sys includes the threads of the host program), so .sys is
// the only scope and the default one; accesses are plain or atomic, so
// .volatile, .mmio and the proxy fences are device-only.
func (p *parser) checkHostInstr(in *Instr, m mnemonic) bool {
	switch in.Op {
	case OpProxyFence, OpMBarInitFence:
		p.errorf(m.off, "%s is a device instruction: a host thread's fences are fence.sc, fence.acq_rel, fence.acquire and fence.release at .sys scope", m.text)
		return false
	case OpLoad, OpStore, OpAtom, OpRed, OpFence:
	default:
		return true
	}
	if in.Sem == SemVolatile || in.Sem == SemMMIO {
		p.errorf(m.off, "%s: host accesses are plain (ld, st) or atomic (.relaxed, .acquire, .release, .acq_rel at .sys scope); .%s is device-only", m.text, in.Sem)
		return false
	}
	for _, q := range m.qs {
		if s, ok := scopeOf(q.name); ok && s != ScopeSys {
			p.errorf(q.off, "%s cannot be .%s on a host thread: the host's only scope is .sys (Table 21: .sys includes the threads of the host program)", m.op, q.name)
			return false
		}
		if sq, ok := spaceQualOf(q.name); ok && sq != SpaceQGlobal {
			p.errorf(q.off, "%s cannot use .%s on a host thread: the host reaches global memory only", m.op, q.name)
			return false
		}
	}
	// atom and red default to .gpu on the device; the host has only .sys.
	if in.Scope != ScopeNone {
		in.Scope = ScopeSys
	}
	return true
}

// parseAPI parses a CUDA runtime call of a host thread.
func (p *parser) parseAPI(c *cursor, in *Instr, m mnemonic) bool {
	fn, ok := apiByName[m.op]
	if !ok {
		p.errorf(m.off, "unknown CUDA runtime call %s: expected %s", m.op, apiForms)
		return false
	}
	if len(m.qs) > 0 {
		p.errorf(m.qs[0].off, "%s takes no qualifier, found .%s", m.op, m.qs[0].name)
		return false
	}
	call := &APICall{Fn: fn}
	in.Op, in.API = OpAPI, call
	mn := m.op
	switch m.op {
	case "cudaLaunchKernel":
		ok = p.apiName(c, &call.Kernel, mn, "kernel") && p.optStream(c, call, mn, "kernel")
	case "cudaStreamCreate":
		ok = p.apiStream(c, call, mn) && p.namedStream(call, mn, c)
	case "cudaStreamCreateWithFlags":
		ok = p.apiStream(c, call, mn) && p.namedStream(call, mn, c) && p.expectComma(c, mn, "stream") && p.streamFlags(c, call)
	case "cudaStreamSynchronize":
		ok = p.apiStream(c, call, mn)
	case "cudaStreamQuery", "cudaEventQuery":
		ok = p.destination(c, in, mn)
		if ok && fn == APIStreamQuery {
			ok = p.apiStream(c, call, mn)
		} else if ok {
			ok = p.apiName(c, &call.Event, mn, "event")
		}
	case "cudaEventRecord":
		ok = p.apiName(c, &call.Event, mn, "event") && p.optStream(c, call, mn, "event")
	case "cudaStreamWaitEvent":
		ok = p.apiStream(c, call, mn) && p.expectComma(c, mn, "stream") && p.apiName(c, &call.Event, mn, "event") &&
			p.optFlags(c, mn, "event", "cudaEventWaitDefault")
	case "cudaEventCreate":
		ok = p.apiName(c, &call.Event, mn, "event")
	case "cudaEventCreateWithFlags":
		ok = p.apiName(c, &call.Event, mn, "event") && p.expectComma(c, mn, "event") &&
			p.flags(c, mn, "cudaEventDefault", "cudaEventBlockingSync", "cudaEventDisableTiming")
	case "cudaGraphCreate":
		ok = p.apiName(c, &call.Graph, mn, "graph") && p.optFlags(c, mn, "graph")
	case "cudaGraphInstantiate":
		ok = p.apiName(c, &call.Exec, mn, "executable graph") && p.expectComma(c, mn, "executable graph") &&
			p.apiName(c, &call.Graph, mn, "graph") && p.optFlags(c, mn, "graph")
	case "cudaEventSynchronize":
		ok = p.apiName(c, &call.Event, mn, "event")
	case "cudaDeviceSynchronize":
	case "cudaSetDevice":
		off := c.peek().off
		var v int64
		if v, _, ok = p.intLit(c); ok && (v < 0 || v > 1<<20) {
			p.errorf(off, "device number %d is out of range", v)
			ok = false
		}
		call.Device = int(v)
	case "cudaGraphAddKernelNode", "cudaGraphAddEmptyNode":
		ok = p.apiName(c, &call.Graph, mn, "graph") && p.expectComma(c, mn, "graph")
		if ok && fn == APIGraphAddKernelNode {
			ok = p.apiName(c, &call.Kernel, mn, "kernel")
			call.Node = call.Kernel
		} else if ok {
			ok = p.apiName(c, &call.Node, mn, "node")
		}
		for ok && !c.done() {
			var dep string
			ok = p.expectComma(c, mn, "node") && p.apiName(c, &dep, mn, "dependency")
			call.Deps = append(call.Deps, dep)
		}
	case "cudaGraphAddDependencies":
		ok = p.apiName(c, &call.Graph, mn, "graph") && p.expectComma(c, mn, "graph") &&
			p.apiName(c, &call.Node, mn, "node") && p.expectComma(c, mn, "first node") && p.apiName(c, &call.To, mn, "dependent node")
	case "cudaGraphLaunch":
		ok = p.apiName(c, &call.Graph, mn, "graph") && p.optStream(c, call, mn, "graph")
	}
	if !ok {
		return false
	}
	return p.endOperands(c, mn)
}

// apiName reads the name of a kernel, event, graph or graph node: a plain
// name.
func (p *parser) apiName(c *cursor, dst *string, mn, what string) bool {
	t := c.peek()
	if c.done() || t.kind != tokIdent || !isAddrName(t.text) {
		p.errorf(t.off, "expected the %s of %s (a plain name), found %s", what, mn, t.describe())
		return false
	}
	c.next()
	*dst = t.text
	return true
}

// apiStream reads a stream: a plain name, 0 or cudaStreamLegacy (the legacy
// default stream), or cudaStreamPerThread.
func (p *parser) apiStream(c *cursor, call *APICall, mn string) bool {
	t := c.peek()
	switch {
	case !c.done() && t.kind == tokInt && t.text == "0", t.is("cudaStreamLegacy") && !c.done():
		call.Stream = LegacyStream
	case !c.done() && t.kind == tokIdent && isAddrName(t.text):
		call.Stream = t.text
	default:
		p.errorf(t.off, "expected the stream of %s: a name, 0 or cudaStreamLegacy (the legacy default stream), or cudaStreamPerThread, found %s", mn, t.describe())
		return false
	}
	c.next()
	return true
}

// optStream reads ", STREAM" when present; without it the call uses the
// legacy default stream, as CUDA's default stream argument 0 does.
func (p *parser) optStream(c *cursor, call *APICall, mn, after string) bool {
	call.Stream = LegacyStream
	if c.done() {
		return true
	}
	return p.expectComma(c, mn, after) && p.apiStream(c, call, mn)
}

// optFlags reads ", FLAGS" when present: 0 or one of the names given,
// flags that change nothing ptxmm models.
func (p *parser) optFlags(c *cursor, mn, after string, names ...string) bool {
	if c.done() {
		return true
	}
	return p.expectComma(c, mn, after) && p.flags(c, mn, names...)
}

// flags reads a call's flags: 0 or one of the names given.
func (p *parser) flags(c *cursor, mn string, names ...string) bool {
	t := c.peek()
	if !c.done() && (t.kind == tokInt && t.text == "0" || t.kind == tokIdent && slices.Contains(names, t.text)) {
		c.next()
		return true
	}
	p.errorf(t.off, "expected the flags of %s: %s, found %s", mn, orList(append([]string{"0"}, names...)), t.describe())
	return false
}

// namedStream rejects creating the predefined streams.
func (p *parser) namedStream(call *APICall, mn string, c *cursor) bool {
	if call.Stream == LegacyStream || call.Stream == PerThreadStream {
		p.errorf(c.toks[c.i-1].off, "%s creates a stream: the legacy default stream and cudaStreamPerThread exist without it", mn)
		return false
	}
	return true
}

// streamFlags reads cudaStreamCreateWithFlags's flags: cudaStreamDefault
// or cudaStreamNonBlocking.
func (p *parser) streamFlags(c *cursor, call *APICall) bool {
	t := c.peek()
	switch {
	case !c.done() && (t.is("cudaStreamDefault") || t.kind == tokInt && t.text == "0"):
	case !c.done() && (t.is("cudaStreamNonBlocking") || t.kind == tokInt && t.text == "1"):
		call.NonBlocking = true
	default:
		p.errorf(t.off, "expected the flags of cudaStreamCreateWithFlags: cudaStreamDefault or cudaStreamNonBlocking, found %s", t.describe())
		return false
	}
	c.next()
	return true
}
