package graph

// Style says how a picture looks: herd7's picture options (herdtools7's
// -graph, -showevents, -squished, ...). The zero Style is not useful;
// PtxmmStyle is ptxmm graph's look, HerdStyle herd7's defaults, which
// ptxmm check -show ... -o DIR starts from.
type Style struct {
	// Layout is how threads are placed: "cluster" (boxed columns),
	// "columns" (columns without boxes) or "free" (no rows).
	Layout string
	// Events selects the events drawn: "all", "mem" (memory events
	// only) or "memf" (memory events and fences).
	Events string
	// ShowPo draws program order; ShowInitWrites the initial writes, as
	// one init pseudo-event when OneInit (labelled with the initial values
	// when LabelInit); ShowInitRF the read-from edges from initial writes;
	// ShowFinalRF a final pseudo-event fed by the final writes.
	ShowPo, ShowInitWrites, OneInit, LabelInit, ShowInitRF, ShowFinalRF bool
	// Squished labels events with their kind, location and value only;
	// Brackets writes locations [x] in such labels.
	Squished, Brackets bool
	// ShowThread labels the threads, ShowLegend the graph (with the
	// test's kind when ShowKind; its name only when ShortLegend).
	ShowThread, ShowLegend, ShowKind, ShortLegend bool
	// Mono draws every edge black; EdgeMerge draws the edges between two
	// events as one; MoveLabel lets dot move labels off their edges.
	Mono, EdgeMerge, MoveLabel bool
	// WithBox boxes the events of one instruction, LabelBox labels such
	// boxes; FixedSize gives nodes a fixed size.
	WithBox, LabelBox, FixedSize bool
	// Symmetric relations are drawn undirected, one edge per pair; NoID
	// ones also without reflexive pairs; Raw ones whole (po is otherwise
	// drawn by its immediate steps).
	Symmetric, NoID, Raw map[string]bool
	// EdgeAttrs are extra DOT attributes per relation.
	EdgeAttrs map[string][][2]string
	// Graph attributes, "" when not set.
	FontName, Splines, Overlap, Sep  string
	FontSize                         int     // 0: not set
	EdgeFontDelta                    int     // added to FontSize for edges
	PenWidth, ArrowSize, Margin, Pad float64 // 0: not set
	// Scale, XScale and YScale scale the spacing of events (1: dot's).
	Scale, XScale, YScale float64
	// Header is inserted at the beginning of the DOT text.
	Header string
}

// PtxmmStyle is the look of ptxmm graph's pictures.
func PtxmmStyle() Style {
	return Style{Layout: "cluster", Events: "all", ShowPo: true, ShowInitWrites: true, LabelInit: true, ShowInitRF: true,
		ShowThread: true, ShowLegend: true, Brackets: true, Scale: 1, XScale: 1, YScale: 1}
}

// HerdStyle is herd7's defaults: one init pseudo-event, no read-from
// edges from it, the other options as ptxmm graph's.
func HerdStyle() Style {
	s := PtxmmStyle()
	s.OneInit, s.ShowInitRF = true, false
	return s
}
