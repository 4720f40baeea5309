package main

import "time"

// clockSeed draws a run's seed from the clock; the log prints it, so the
// run's choices can be made again with -seed.
func clockSeed() uint64 { return uint64(time.Now().UnixNano()) }
