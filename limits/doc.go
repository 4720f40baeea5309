// Package limits holds what the resource limits of ptxmm share across
// packages: memory sizes as people write and read them, the default memory
// limit taken from the machine, and a memory budget that tests checked in
// parallel draw from, so that together they stay under one limit.
package limits
