package program

import (
	"fmt"
	"strings"
)

// Text returns the instructions op stands for in thread th: the
// instruction itself, preceded by what its dependency needs (a branch on
// the read to the next instruction, or the computation of the value
// written from the read).
func (t *Test) Text(th, op int) []string {
	o := t.Threads[th].Ops[op]
	var pre []string
	value := fmt.Sprint(o.Value)
	switch o.Dep {
	case Ctrl:
		label := fmt.Sprintf("LC%d%d", th, op)
		pre = append(pre, fmt.Sprintf("bne %s, 0, %s", t.Reg(th, o.From), label), label+":")
	case Data:
		tmp := fmt.Sprintf("t%d", op)
		src := t.Reg(th, o.From)
		pre = append(pre, fmt.Sprintf("xor %s, %s, %s", tmp, src, src), fmt.Sprintf("add %s, %s, %d", tmp, tmp, o.Value))
		value = tmp
	}
	if o.Kind == ClusterBarrier {
		arrive := "barrier.cluster.arrive"
		if o.Sem == Relaxed {
			arrive += ".relaxed"
		}
		return []string{arrive, "barrier.cluster.wait"}
	}
	if lines, ok := t.asyncText(th, op, o); ok {
		return lines
	}
	return append(pre, t.instr(th, op, o, value))
}

// instr spells one operation.
func (t *Test) instr(th, op int, o Op, value string) string {
	addr := ""
	if o.Kind.Memory() {
		addr = t.Addrs[o.Addr].Name
	}
	ld, st := "ld", "st"
	if o.Kind.Memory() {
		switch t.Addrs[o.Addr].Proxy {
		case Surface:
			ld, st = "suld", "sust"
		case Texture:
			ld = "tld"
		case Constant:
			ld = "cold"
		}
	}
	switch o.Kind {
	case Load:
		return fmt.Sprintf("%s%s %s, %s", ld, order(o), t.Reg(th, op), addr)
	case Store:
		return fmt.Sprintf("%s%s %s, %s", st, order(o), addr, value)
	case RMW:
		return fmt.Sprintf("atom%s.exch %s, %s, %s", order(o), t.Reg(th, op), addr, value)
	case Fence:
		return "fence" + order(o)
	case AliasFence:
		return "fence.proxy.alias"
	case Barrier:
		return "bar.sync 0"
	case ProxyFence:
		return "fence.proxy." + o.Proxy.String()
	case MbarArrive, MbarWait, BulkLoad, BulkStore:
		return t.asyncInstr(th, op, o)
	}
	panic(fmt.Sprintf("program: unknown operation kind %d", o.Kind))
}

// order spells an operation's memory order and scope: ".weak",
// ".acquire.gpu", ".sc.cta".
func order(o Op) string {
	var b strings.Builder
	b.WriteString("." + o.Sem.String())
	if o.Scope != NoScope {
		b.WriteString("." + o.Scope.String())
	}
	return b.String()
}

// Mnemonic spells an operation without its operands, for people and
// names: "st.release.gpu", "fence.sc.cta", "atom.relaxed.gpu.exch".
func (o Op) Mnemonic() string {
	switch o.Kind {
	case Load:
		return "ld" + order(o)
	case Store:
		return "st" + order(o)
	case RMW:
		return "atom" + order(o) + ".exch"
	case Fence:
		return "fence" + order(o)
	case Barrier:
		return "bar.sync"
	case ProxyFence:
		return "fence.proxy." + o.Proxy.String()
	case ClusterBarrier:
		if o.Sem == Relaxed {
			return "barrier.cluster.relaxed"
		}
		return "barrier.cluster"
	case MbarArrive, MbarWait, BulkLoad, BulkStore:
		return asyncMnemonic(o)
	}
	return "fence.proxy.alias"
}
