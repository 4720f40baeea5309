package main

import (
	"os"
	"strings"

	"github.com/ptxmm/ptxmm/internal/heappages"
)

// hugeHeap is the stretch of heap a run of tests prepares for huge pages
// (internal/heappages): the 243-test suite of docs/benchmarks.md touches
// about 11 MiB of heap, examples/ several times that (16 MiB left it 6,400
// of its 11,200 faults, 48 MiB 1,400). The stretch takes address space,
// not memory, until the run touches it; a bigger run continues in 4 KiB
// pages past it.
const hugeHeap = 48 << 20

// reserveHeap prepares the heap for huge pages when the command checks
// more than one test. It runs before applyGCPercent, whose first target
// holds until the first collection, because heappages.Reserve runs one.
// One tiny test does not repay that collection and the zeroing of whole
// huge pages it touches only in part: on MP its CPU rose by a tenth where
// the suite's fell by a third (docs/benchmarks.md, seventeenth round). A
// plainly given -j is applied first (applyPlainWorkers, as check does
// later): the collection then starts a mark worker for each of the run's
// processors only, about 100 of the suite's page faults fewer at -j 1.
func reserveHeap(args []string) heappages.Pin {
	if len(args) < 2 || args[0] != "check" || !manyTests(args[1:]) {
		return heappages.Pin{}
	}
	applyPlainWorkers(args[1:])
	return heappages.Reserve(hugeHeap)
}

// manyTests reports whether check's arguments name more than one test: a
// directory, a list (@FILE), or two or more .litmus or .test files. It
// looks before the flags are parsed, so a flag's value that names a
// directory counts too; that costs only the reservation.
func manyTests(args []string) bool {
	files := 0
	for _, a := range args {
		switch {
		case a == "" || a[0] == '-':
		case a[0] == '@':
			return true
		case strings.HasSuffix(a, ".litmus") || strings.HasSuffix(a, ".test"):
			files++
		default:
			if fi, err := os.Stat(a); err == nil && fi.IsDir() {
				return true
			}
		}
	}
	return files > 1
}
