// Package ptxgen turns a litmus test into a PTX module that runs many
// instances of it at once on a GPU: the test threads' instructions, one
// by one in PTX, inside a harness that places each instance's threads in
// CTAs, warps and clusters as the test says, gives each instance its own
// copy of the test's memory, stresses memory from CTAs that run no test,
// starts the instances together, and writes what each instance observed
// to a results buffer.
//
// The plan (plan.go) decides the layout: which warp of which CTA runs
// which test thread of which instance, where each location lives and
// where each result goes. The kernel computes that layout from its
// parameters (params.go), and Geometry is the same computation in Go,
// which the harness uses to initialise memory and read the results back.
// Tests that use what the device cannot run, or what the harness cannot
// replicate across instances, are refused by Support with a message that
// names the instruction (support.go).
package ptxgen
