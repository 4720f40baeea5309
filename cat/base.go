package cat

import (
	"fmt"
	"strings"
)

// baseEntry is a name a cat model may read without binding it, defined in
// terms of ptxmm's catalog. A name that is neither an entry nor a helper
// is read from the catalog under its own name (docs/catalog.md), so every
// catalog relation is available to cat models.
//
// Definitions are written in the expression syntax of ptxmm's modelling
// language. In them a plain name is a catalog relation, and B_x stands for
// the entry or helper x: that keeps apart, say, the catalog's ACQ (events
// of .acquire instructions) and the cat model's ACQ (acquire reads and
// fences, as Dartagnan tags them), which the definition of the latter
// reads.
type baseEntry struct {
	Name  string
	Arity int
	// Def defines the entry; for a chosen relation, Over gives the pairs
	// the checker orients instead (the entry is then an .order).
	Def  string
	Over string
	// Partial lets the checker leave pairs of Over unrelated.
	Partial bool
	// Transitive marks entries that are transitive by construction, so
	// that r+ is r itself (let co = co+ then stays a local relation, which
	// keeps the model event-monotone; see rules.Program.EventMonotone).
	Transitive bool
	// NotPTX marks an entry that a model whose first line names PTX does
	// not get: it reads the catalog's relation of that name instead.
	NotPTX bool
	Doc    string
}

// baseEntries is the mapping, in the order docs/cat.md lists it.
var baseEntries = []baseEntry{
	// Tag sets whose meaning in Dartagnan's PTX models differs from the
	// catalog's set of the same name.
	{Name: "F", Arity: 1, Def: "F | PF",
		Doc: "fences: the memory fences (fence.sc, fence.acq_rel, ...) and the proxy fences (fence.proxy.*), as Dartagnan tags them"},
	{Name: "ACQ", Arity: 1, Def: "(R & (ACQ | ACQ_REL)) | (F & ACQ)",
		Doc: "acquire reads (the read of ld.acquire, atom.acquire, atom.acq_rel) and fence.acquire"},
	{Name: "REL", Arity: 1, Def: "(W & (REL | ACQ_REL)) | (F & REL)",
		Doc: "release writes (the write of st.release, atom.release, atom.acq_rel, red.release, red.acq_rel) and fence.release"},
	{Name: "RLX", Arity: 1, Def: "(M & (RLX | VOL | MMIO)) | (R & REL) | (W & ACQ)",
		Doc: "the other strong memory events: .relaxed, .volatile and .mmio ones, the read of a release atom and the write of an acquire atom"},
	// Relations of Dartagnan's PTX models.
	{Name: "vloc", Arity: 2, Def: "gaddr",
		Doc: "memory events whose virtual addresses map to the same generic address (the catalog's gaddr)"},
	{Name: "sr", Arity: 2, Def: "B_incl & B_incl^-1",
		Doc: "same scope: each event's scope includes the other's thread (8.5, 8.7 item 1)"},
	{Name: "syncbar", Arity: 2, Def: "[BAR] ; bar ; [BAR_SYNC]",
		Doc: "a barrier arrival and a bar.sync of the same barrier instance that completed together (8.9.4 item 2)"},
	{Name: "sync_fence", Arity: 2, Over: "B_sync_fence_pairs",
		Doc: "chosen by the checker: the Fence-SC order, orienting each pair of morally strong fence.sc one way (8.9.3)"},
	{Name: "co", Arity: 2, Def: "B_co_order | B_co_init", Transitive: true,
		Doc: "chosen by the checker: a strict partial order of the writes to each location, initial write first; racing writes may stay unordered"},
	// herd's conventional relations.
	{Name: "fr", Arity: 2, Def: "rf^-1 ; B_co", Doc: "from-reads: rf^-1 ; co"},
	{Name: "id", Arity: 2, Def: "[E]", Doc: "the identity on events"},
	{Name: "int", Arity: 2, Def: "sthd", Doc: "events of the same thread"},
	{Name: "ext", Arity: 2, Def: `(E * E) \ sthd`, Doc: "events of different threads (initial writes belong to no thread)"},
	{Name: "po", Arity: 2, Def: `po \ same_instr`, NotPTX: true,
		Doc: "herd7's program order, between events of different instructions: the read and the write of an atom are not ordered by it (a model whose first line names PTX reads the catalog's po, which orders them, as Dartagnan's models do; see docs/cat.md)"},
	{Name: "po-loc", Arity: 2, Def: "B_po & loc", Doc: "program order between events on the same location"},
	{Name: "rfe", Arity: 2, Def: "rf & B_ext", Doc: "external reads-from"},
	{Name: "rfi", Arity: 2, Def: "rf & sthd", Doc: "internal reads-from"},
	{Name: "coe", Arity: 2, Def: "B_co & B_ext", Doc: "external coherence"},
	{Name: "coi", Arity: 2, Def: "B_co & sthd", Doc: "internal coherence"},
	{Name: "fre", Arity: 2, Def: "B_fr & B_ext", Doc: "external from-reads"},
	{Name: "fri", Arity: 2, Def: "B_fr & sthd", Doc: "internal from-reads"},
	// The other names herd7 gives every model (its predefined sets and
	// relations, and the relations of its standard library), for PTX.
	{Name: "amo", Arity: 2, Def: "rmw", Doc: "the read and write of an atomic read-modify-write instruction (every PTX rmw is one: atom, red)"},
	{Name: "RMW", Arity: 1, Def: "domain(rmw) | range(rmw)", Doc: "the events of read-modify-write instructions"},
	{Name: "X", Arity: 1, Def: "domain(rmw) | range(rmw)", Doc: "exclusive accesses (herd's load-reserve and store-conditional): in PTX, the accesses of atomic read-modify-write instructions"},
	{Name: "FW", Arity: 1, Def: `(W \ IW \ domain(B_fw_order)) | (IW \ domain(B_co_init))`,
		Doc: "herd's final writes: one write of each location chosen by the checker (the last of an order it chooses), the initial write when there is no other; the model's coherence must end with them when it includes co0"},
	{Name: "Exp", Arity: 1, Def: "M", Doc: "explicit memory events: all of them in PTX"},
	{Name: "EXEC", Arity: 1, Def: "E", Doc: "events that are not speculative: all of them"},
	{Name: "sm", Arity: 2, Def: "[M]", Doc: "herd's same single-copy-atomic access: each PTX memory event is one access of its own"},
	{Name: "si", Arity: 2, Def: "[M]", Doc: "the same as sm"},
	{Name: "same-instr", Arity: 2, Def: "same_instr", Doc: "events of the same instruction (the read and write of an atom)"},
	{Name: "pco", Arity: 2, Def: "B_co0",
		Doc: "herd's pco, the coherence herd7 fixes before the model runs: co0 (with -optace true herd7 adds what program order and reads-from imply; see docs/cat.md)"},
	{Name: "co0", Arity: 2, Def: `loc & ((IW * (W \ IW)) | ((W \ B_FW) * B_FW))`,
		Doc: "herd's co0: each initial write before the other writes to its location, and the final write (FW) after them"},
}

// baseHelpers are definitions the entries share; a model cannot name them.
var baseHelpers = []baseEntry{
	{Name: "incl", Arity: 2, Def: `([CTA] ; scta) | ([CLUSTER] ; sclu) | ([GPU] ; sgpu) | ((SYS | VOL) * (E \ IW))`,
		Doc: "X specifies a scope that includes the thread executing Y (8.5; .volatile is .relaxed.sys)"},
	{Name: "sync_fence_pairs", Arity: 2, Def: `([F & SC] ; (po | po^-1 | B_sr) ; [F & SC]) \ [E]`,
		Doc: "pairs of morally strong fence.sc, which the Fence-SC order relates"},
	{Name: "co_pairs", Arity: 2, Def: `((W * W) & loc) \ [E] \ (IW * E) \ (E * IW)`,
		Doc: "pairs of distinct writes, other than initial writes, to the same location"},
	{Name: "co_order", Arity: 2, Over: "B_co_pairs", Partial: true,
		Doc: "the checker's choice of coherence between the writes of the threads"},
	{Name: "co_init", Arity: 2, Def: `((IW * W) & loc) \ [E]`,
		Doc: "each initial write before the other writes to its location"},
	{Name: "fw_order", Arity: 2, Over: "B_co_pairs",
		Doc: "the checker's choice of an order of each location's writes, whose last is the final write FW"},
	{Name: "co_total_order", Arity: 2, Over: "B_co_pairs",
		Doc: "the checker's choice of a total coherence between the writes of the threads"},
	{Name: "co_total", Arity: 2, Def: "B_co_total_order | B_co_init", Transitive: true,
		Doc: "the coherence order of a model that neither reads nor binds co: a total order of each location's writes, initial write first, so that any write may be the last"},
}

// MappingEntry documents a name the mapping gives cat models.
type MappingEntry struct {
	Name  string
	Arity int
	// Definition is the entry in the modelling language over catalog
	// relations, or "chosen over PAIRS" for the checker's choices.
	Definition string
	Doc        string
}

// Mapping lists the names cat models read that are not the catalog's own
// (or that mean something else than in the catalog), in docs/cat.md's order.
func Mapping() []MappingEntry {
	var out []MappingEntry
	for _, e := range baseEntries {
		def := strings.ReplaceAll(e.Def, "B_", "")
		if e.Over != "" {
			def = "chosen over " + strings.ReplaceAll(e.Over, "B_", "")
		}
		out = append(out, MappingEntry{Name: e.Name, Arity: e.Arity, Definition: def, Doc: e.Doc})
	}
	return out
}

// lookup is lookupBase for the builder's model: a model whose first line
// names PTX does not get the NotPTX entries.
func (b *builder) lookup(name string, helpers bool) (baseEntry, bool) {
	e, ok := lookupBase(name, helpers)
	if ok && e.NotPTX && b.ptx {
		return baseEntry{}, false
	}
	return e, ok
}

// lookupBase finds an entry or, with helpers set, a helper.
func lookupBase(name string, helpers bool) (baseEntry, bool) {
	list := baseEntries
	if helpers {
		list = baseHelpers
	}
	for _, e := range list {
		if e.Name == name {
			return e, true
		}
	}
	return baseEntry{}, false
}

// MappingMarkdown renders the mapping as the table docs/cat.md shows.
func MappingMarkdown() string {
	var b strings.Builder
	b.WriteString("| name | arity | in catalog terms | meaning |\n| --- | --- | --- | --- |\n")
	for _, e := range Mapping() {
		fmt.Fprintf(&b, "| `%s` | %d | `%s` | %s |\n", e.Name, e.Arity, strings.ReplaceAll(e.Definition, "|", `\|`), e.Doc)
	}
	b.WriteString("\nThe definitions share these helpers, which a model cannot name:\n\n")
	b.WriteString("| helper | in catalog terms | meaning |\n| --- | --- | --- |\n")
	for _, e := range baseHelpers {
		def := strings.ReplaceAll(e.Def, "B_", "")
		if e.Over != "" {
			def = "chosen over " + strings.ReplaceAll(e.Over, "B_", "")
			if e.Partial {
				def += ", partial"
			}
		}
		fmt.Fprintf(&b, "| `%s` | `%s` | %s |\n", e.Name, strings.ReplaceAll(def, "|", `\|`), e.Doc)
	}
	return b.String()
}
