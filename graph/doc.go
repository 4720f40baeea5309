// Package graph owns ptxmm's pictures of executions: Graphviz DOT in
// herd7's style — one cluster per thread labelled with its place in the
// hierarchy, events labelled with their instruction, one edge style per
// relation — with the edges of a failed check's witness highlighted. It can
// also run Graphviz's dot to produce SVG or PNG.
package graph
