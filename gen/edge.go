package gen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// Dir is the direction of an event: a read or a write.
type Dir byte

const (
	R Dir = 'R'
	W Dir = 'W'
)

func (d Dir) String() string { return string(d) }

// EdgeKind says what relates the two events of an edge.
type EdgeKind int

const (
	// Po is program order (diy7's Pos and Pod).
	Po EdgeKind = iota
	// Fenced is program order with a fence between the events.
	Fenced
	// Dp is program order with a dependency of the second event on the
	// first, a read.
	Dp
	// Rf is reads-from (Rfe, Rfi).
	Rf
	// Co is coherence order (Coe, Coi; diy7's older Wse, Wsi).
	Co
	// Fr is from-read (Fre, Fri).
	Fr
	// Rmw relates the read and the write of one read-modify-write.
	Rmw
	// Synced relates an event of one thread to an event of another
	// through a synchronization: a barrier both threads meet, or an
	// mbarrier the first arrives on (or a bulk copy completes on) and
	// the second waits on (sync.go).
	Synced
)

// Edge is one edge of a cycle.
type Edge struct {
	Kind EdgeKind
	// Src and Dst are the directions of the edge's events.
	Src, Dst Dir
	// Same says that both events access the same location (diy7's s, and
	// every communication edge); otherwise they access different ones (d).
	Same bool
	// Ext says that a communication edge relates events of different
	// threads (Rfe, Coe, Fre); every other edge is internal.
	Ext bool
	// Fence is the fence of a Fenced edge (its Kind, Sem and Scope).
	Fence program.Op
	// Dep is the dependency of a Dp edge.
	Dep program.Dep
	// Sync is the synchronization of a Synced edge.
	Sync Sync
	// Text is the edge as written, in its canonical spelling.
	Text string
}

// Internal reports whether the edge stays in one thread.
func (e Edge) Internal() bool { return !e.Ext }

// String is the edge's canonical spelling.
func (e Edge) String() string { return e.Text }

// dirs reads the two directions at the end of an edge name: "WR".
func dirs(s string) (Dir, Dir, bool) {
	if len(s) != 2 {
		return 0, 0, false
	}
	d := func(c byte) (Dir, bool) {
		switch c {
		case 'R':
			return R, true
		case 'W':
			return W, true
		}
		return 0, false
	}
	a, ok1 := d(s[0])
	b, ok2 := d(s[1])
	return a, b, ok1 && ok2
}

// sameDiff reads the s or d that says whether a program-order edge stays
// on one location.
func sameDiff(c byte) (same, ok bool) {
	switch c {
	case 's':
		return true, true
	case 'd':
		return false, true
	}
	return false, false
}

// communication are the communication edges by name.
var communication = map[string]Edge{
	"Rfe": {Kind: Rf, Src: W, Dst: R, Same: true, Ext: true},
	"Rfi": {Kind: Rf, Src: W, Dst: R, Same: true},
	"Coe": {Kind: Co, Src: W, Dst: W, Same: true, Ext: true},
	"Coi": {Kind: Co, Src: W, Dst: W, Same: true},
	"Wse": {Kind: Co, Src: W, Dst: W, Same: true, Ext: true},
	"Wsi": {Kind: Co, Src: W, Dst: W, Same: true},
	"Fre": {Kind: Fr, Src: R, Dst: W, Same: true, Ext: true},
	"Fri": {Kind: Fr, Src: R, Dst: W, Same: true},
	"Rmw": {Kind: Rmw, Src: R, Dst: W, Same: true},
}

// edgeExamples is what an unknown edge's error suggests.
const edgeExamples = "Rfe, Rfi, Coe, Coi, Fre, Fri, Rmw, PodWR, PosRR, Fence.sc.gpudWR, Fence.acq_rel.ctasWW, Fence.proxy.aliassWR, Fence.proxy.asyncsWW, FenceddRR, DpDatadW, DpCtrldR, BarSyncdWR, BarClusterdWR, MbardWR, TmasWR"

// ParseEdge reads one edge in diy7's spelling, extended for PTX:
//
//	Rfe Rfi Coe Coi Fre Fri (Wse, Wsi: old names of Coe, Coi)
//	Rmw                      the read and the write of one atom
//	Po(s|d)(R|W)(R|W)        program order, same or different location
//	Fenced(s|d)XY            the strongest fence, fence.sc.sys
//	Fence.SEM.SCOPE(s|d)XY   a fence: SEM sc, acq_rel, acquire, release;
//	                         SCOPE cta, cluster, gpu, sys
//	Fence.proxy.alias(s|d)XY the alias proxy fence
//	DpData(s|d)W             a data dependency from a read to a write
//	DpCtrl(s|d)(R|W)         a control dependency from a read
//	Fence.proxy.P(s|d)XY     a proxy fence: P async, surface, texture,
//	                         constant
//	BarSync(s|d)XY ...       synchronizations between threads (sync.go):
//	                         BarSync, BarCluster, BarCluster.rlx, Mbar,
//	                         Mbar.ARRIVE.WAIT, Tma, Tma.noexpect
func ParseEdge(s string) (Edge, error) {
	if e, ok, err := parseSync(s); ok {
		return e, err
	}
	if e, ok := communication[s]; ok {
		canon := s
		switch s {
		case "Wse":
			canon = "Coe"
		case "Wsi":
			canon = "Coi"
		}
		e.Text = canon
		return e, nil
	}
	bad := func(why string) (Edge, error) {
		return Edge{}, fmt.Errorf("%q is not an edge: %s (edges: %s)", s, why, edgeExamples)
	}
	tail := func(prefix string) (same bool, src, dst Dir, err error) {
		rest := s[len(prefix):]
		if len(rest) != 3 {
			return false, 0, 0, fmt.Errorf("expected s or d and two directions after %s, as in %sdWR", prefix, prefix)
		}
		same, ok := sameDiff(rest[0])
		if !ok {
			return false, 0, 0, fmt.Errorf("expected s (same location) or d (different locations) after %s, found %q", prefix, rest[:1])
		}
		src, dst, ok = dirs(rest[1:])
		if !ok {
			return false, 0, 0, fmt.Errorf("expected two directions, R or W, at the end, found %q", rest[1:])
		}
		return same, src, dst, nil
	}
	switch {
	case strings.HasPrefix(s, "Po"):
		same, src, dst, err := tail("Po")
		if err != nil {
			return bad(err.Error())
		}
		return Edge{Kind: Po, Src: src, Dst: dst, Same: same, Text: s}, nil
	case strings.HasPrefix(s, "Fenced"):
		same, src, dst, err := tail("Fenced")
		if err != nil {
			return bad(err.Error())
		}
		return Edge{Kind: Fenced, Src: src, Dst: dst, Same: same, Fence: program.Op{Kind: program.Fence, Sem: program.SC, Scope: program.Sys}, Text: s}, nil
	case strings.HasPrefix(s, "Fence."):
		return parseFence(s)
	case strings.HasPrefix(s, "DpAddr"):
		return bad("ptxmm's litmus dialect computes no addresses from values, so an address dependency cannot be written; use DpData or DpCtrl")
	case strings.HasPrefix(s, "DpData"), strings.HasPrefix(s, "DpCtrl"):
		return parseDep(s)
	}
	return bad("unknown name")
}

// parseDep reads DpData(s|d)W and DpCtrl(s|d)(R|W): a dependency from a
// read, so only the target's direction is written.
func parseDep(s string) (Edge, error) {
	bad := func(why string) (Edge, error) {
		return Edge{}, fmt.Errorf("%q is not an edge: %s (dependencies: DpDatadW, DpDatasW, DpCtrldR, DpCtrldW, DpCtrlsR, DpCtrlsW)", s, why)
	}
	prefix, dep := "DpData", program.Data
	if strings.HasPrefix(s, "DpCtrl") {
		prefix, dep = "DpCtrl", program.Ctrl
	}
	rest := s[len(prefix):]
	if len(rest) != 2 {
		return bad("expected s or d and the target's direction after " + prefix)
	}
	same, ok := sameDiff(rest[0])
	if !ok {
		return bad(fmt.Sprintf("expected s (same location) or d (different locations) after %s, found %q", prefix, rest[:1]))
	}
	var dst Dir
	switch rest[1] {
	case 'R':
		dst = R
	case 'W':
		dst = W
	default:
		return bad(fmt.Sprintf("expected the target's direction, R or W, found %q", rest[1:]))
	}
	if dep == program.Data && dst != W {
		return bad("a data dependency goes to a write: DpDatadW or DpDatasW")
	}
	return Edge{Kind: Dp, Src: R, Dst: dst, Same: same, Dep: dep, Text: s}, nil
}

// parseFence reads Fence.SEM.SCOPE(s|d)XY and Fence.proxy.alias(s|d)XY.
func parseFence(s string) (Edge, error) {
	bad := func(why string) (Edge, error) {
		return Edge{}, fmt.Errorf("%q is not an edge: %s (fences: Fence.sc.gpudWR, Fence.acq_rel.ctasWW, Fence.acquire.gpudRR, Fence.release.sysdWW, Fence.proxy.aliassWR, Fence.proxy.asyncsWW, Fence.proxy.surfacesWR)", s, why)
	}
	if len(s) < len("Fence.")+3 {
		return bad("expected the fence, s or d, and two directions")
	}
	body, end := s[len("Fence."):len(s)-3], s[len(s)-3:]
	same, ok := sameDiff(end[0])
	if !ok {
		return bad(fmt.Sprintf("expected s or d before the directions, found %q", end[:1]))
	}
	src, dst, ok := dirs(end[1:])
	if !ok {
		return bad(fmt.Sprintf("expected two directions, R or W, at the end, found %q", end[1:]))
	}
	e := Edge{Kind: Fenced, Src: src, Dst: dst, Same: same, Text: s}
	if body == "proxy.alias" {
		e.Fence = program.Op{Kind: program.AliasFence}
		return e, nil
	}
	for _, p := range []program.Proxy{program.Async, program.Surface, program.Texture, program.Constant} {
		if body == "proxy."+p.String() {
			e.Fence = program.Op{Kind: program.ProxyFence, Proxy: p}
			return e, nil
		}
	}
	sem, scope, found := strings.Cut(body, ".")
	if !found {
		return bad("expected the fence's memory order and scope, as in Fence.sc.gpudWR")
	}
	sems := map[string]program.Sem{"sc": program.SC, "acq_rel": program.AcqRel, "acquire": program.Acquire, "release": program.Release}
	sm, ok := sems[sem]
	if !ok {
		return bad(fmt.Sprintf("unknown fence order %q: expected sc, acq_rel, acquire or release", sem))
	}
	sc, err := program.ParseScope(scope)
	if err != nil {
		return bad(err.Error())
	}
	e.Fence = program.Op{Kind: program.Fence, Sem: sm, Scope: sc}
	return e, nil
}

// tag names the edge in a test's name, as diy7 does: po, pos, rfi,
// fence.sc.gpu, fence.sc.gpus, data, ctrls, rmw.
func (e Edge) tag() string {
	s := ""
	if e.Same {
		s = "s"
	}
	switch e.Kind {
	case Po:
		return "po" + s
	case Fenced:
		return strings.ToLower(e.Fence.Mnemonic()) + s
	case Dp:
		return e.Dep.String() + s
	case Rmw:
		return "rmw"
	case Synced:
		return e.Text
	}
	return strings.ToLower(e.Text)
}
