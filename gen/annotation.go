package gen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// Annotation qualifies one event of a cycle, as diy7's annotations do: it
// is written between the two edges the event joins ("PodWW Rel.gpu Rfe
// Acq.gpu PodRR Fre"). An event may have several (a memory order and
// Alias).
type Annotation struct {
	// Sem and Scope are a memory order and its scope, when HasSem.
	Sem    program.Sem
	Scope  program.Scope
	HasSem bool
	// Alias makes the event access its location through a second generic
	// virtual address of it.
	Alias bool
	// Proxy, when not generic, makes the event access its location
	// through its reference in that proxy (Surface, Texture, Constant).
	Proxy program.Proxy
	// Copy, when not NoCopy, makes the event a bulk copy's access
	// (Bulk, Bulk.read, Tma).
	Copy Copy
	Text string
}

// Copy says which bulk copy performs an event.
type Copy int

const (
	// NoCopy: the event is a thread's own access.
	NoCopy Copy = iota
	// BulkStoreRead: the event, a read of shared memory, is the source
	// read of a bulk store (cp.async.bulk.global.shared::cta.bulk_group)
	// into a global location of its own, whose final value the
	// condition pins; the thread commits the bulk group and waits for it
	// (wait_group 0) before its next instruction (Bulk).
	BulkStoreRead
	// BulkStoreWaitRead is BulkStoreRead waiting with
	// cp.async.bulk.wait_group.read 0, only until the source is read
	// (Bulk.read).
	BulkStoreWaitRead
	// TmaWrite: the event, a write of shared memory, is a bulk load's
	// (TMA) write, armed by mbarrier.arrive.expect_tx on an mbarrier of
	// its own that no thread waits on (Tma).
	TmaWrite
)

// copyNotes are the annotations of bulk copies.
var copyNotes = map[string]Copy{"Bulk": BulkStoreRead, "Bulk.read": BulkStoreWaitRead, "Tma": TmaWrite}

// annotationExamples is what an unknown annotation's error suggests.
const annotationExamples = "Weak, Rlx.gpu, Acq.cta, Rel.sys, AR.cluster, Alias, Surface, Texture, Constant, Bulk, Bulk.read, Tma"

// proxyNotes are the annotations that send an access through a proxy.
var proxyNotes = map[string]program.Proxy{"Surface": program.Surface, "Texture": program.Texture, "Constant": program.Constant}

// proxyNote spells the annotation of a proxy.
func proxyNote(p program.Proxy) string {
	for name, q := range proxyNotes {
		if q == p {
			return name
		}
	}
	return p.String()
}

// ParseAnnotation reads an annotation:
//
//	Weak          a plain access (the default)
//	Rlx.SCOPE     relaxed
//	Acq.SCOPE     acquire (reads)
//	Rel.SCOPE     release (writes)
//	AR.SCOPE      acquire and release (read-modify-writes)
//	Alias         through a second virtual address of the location
//	Surface       through the location's surface reference (suld, sust)
//	Texture       through its texture reference (tld; reads only)
//	Constant      through its constant reference (cold; reads only)
//	Bulk          a read of shared memory by a bulk store to global
//	              memory, waited for by cp.async.bulk.wait_group 0
//	Bulk.read     the same, waited for by wait_group.read 0
//	Tma           a write of shared memory by a bulk load (TMA)
//
// SCOPE is cta, cluster, gpu or sys. ok is false when s is not an
// annotation at all (an edge, perhaps); err says what is wrong with one.
func ParseAnnotation(s string) (a Annotation, ok bool, err error) {
	switch s {
	case "Weak":
		return Annotation{Sem: program.Weak, HasSem: true, Text: s}, true, nil
	case "Alias":
		return Annotation{Alias: true, Text: s}, true, nil
	}
	if p, ok := proxyNotes[s]; ok {
		return Annotation{Proxy: p, Text: s}, true, nil
	}
	if c, ok := copyNotes[s]; ok {
		return Annotation{Copy: c, Text: s}, true, nil
	}
	name, scope, found := strings.Cut(s, ".")
	sems := map[string]program.Sem{"Rlx": program.Relaxed, "Acq": program.Acquire, "Rel": program.Release, "AR": program.AcqRel}
	sem, known := sems[name]
	if !known {
		return Annotation{}, false, nil
	}
	if !found {
		return Annotation{}, true, fmt.Errorf("annotation %q needs a scope: %s.cta, %s.cluster, %s.gpu or %s.sys", s, name, name, name, name)
	}
	sc, err := program.ParseScope(scope)
	if err != nil {
		return Annotation{}, true, fmt.Errorf("annotation %q: %v", s, err)
	}
	return Annotation{Sem: sem, Scope: sc, HasSem: true, Text: s}, true, nil
}

// name spells the annotations of one event in a test's name, as diy7
// appends atoms: lower case, "p" for a plain access.
func annotationName(as []Annotation) string {
	if len(as) == 0 {
		return "p"
	}
	var parts []string
	for _, a := range as {
		parts = append(parts, strings.ToLower(a.Text))
	}
	return strings.Join(parts, "")
}
