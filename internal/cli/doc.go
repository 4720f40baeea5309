// Package cli owns the work behind ptxmm's subcommands: gathering input
// files, running checks on every core, printing results in order, and the
// exit status. cmd/ptxmm only parses flags and calls in here.
package cli
