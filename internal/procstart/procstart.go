// Package procstart sets up a ptxmm check process while the packages are
// still being initialized, before most of them allocate: imported by
// cmd/ptxmm, it holds the Go runtime to the processors a plainly given -j
// asks for, and for a run of tests prepares the heap for huge pages
// (internal/heappages).
//
// Why so early. Lowering GOMAXPROCS destroys the processors above the new
// count, and a destroyed processor hands every span its cache holds back
// to the heap's central lists, whose per-size-class sets each take a fresh
// page for that (runtime.(*spanSet).push); a processor other than the
// first picks up such spans when a goroutine, back from a system call
// under load, resumes there. The heap's reservation runs garbage
// collection, after which the central lists take a second set of pages
// for every size class then in use, and everything allocated before it
// lies in 4 KiB pages; here, few classes are in use and little is
// allocated. Done in main, ../shared/perf/suite-ptx at -j 1 took 920 to
// 1,330 page faults; done here, 760 to 870 (docs/benchmarks.md,
// "Nineteenth round").
package procstart

import (
	"os"
	"runtime"

	"github.com/ptxmm/ptxmm/internal/heappages"
)

// Only os, runtime and heappages (which imports no more than os, runtime,
// syscall and unsafe) are imported: the runtime initializes the first
// package (by import path) whose imports are all initialized, so this one
// comes right after os, before the cgo binding, the cryptography and the
// rest (GODEBUG=inittrace=1: 22nd of 130, where importing strconv and
// strings made it 61st).

// HugeHeap is the stretch of heap a run of tests prepares for huge pages
// (internal/heappages): the 243-test suite of docs/benchmarks.md touches
// about 11 MiB of heap, examples/ several times that (16 MiB left it 6,400
// of its 11,200 faults, 48 MiB 1,400). The stretch takes address space,
// not memory, until the run touches it; a bigger run continues in 4 KiB
// pages past it.
const HugeHeap = 48 << 20

// pin keeps the padding below the stretch for the life of the process.
var pin heappages.Pin

func init() {
	pin = Start(os.Args[1:])
}

// Start applies a check's plainly given -j and, for a run of more than
// one test, reserves HugeHeap of heap in huge pages, whose padding the
// caller keeps alive (runtime.KeepAlive) while the run lasts. One tiny
// test does not repay the collection and the zeroing of whole huge pages
// it touches only in part: on MP its CPU rose by a tenth where the
// suite's fell by a third (docs/benchmarks.md, seventeenth round).
func Start(args []string) heappages.Pin {
	if len(args) < 2 || args[0] != "check" {
		return heappages.Pin{}
	}
	if j, ok := Plain(args[1:], Decimal); ok {
		Apply(j)
	}
	if !ManyTests(args[1:]) {
		return heappages.Pin{}
	}
	return heappages.Reserve(HugeHeap)
}

// ManyTests reports whether check's arguments name more than one test: a
// directory, a list (@FILE), or two or more .litmus or .test files. It
// looks before the flags are parsed, so a flag's value that names a
// directory counts too; that costs only the reservation.
func ManyTests(args []string) bool {
	files := 0
	for _, a := range args {
		switch {
		case a == "" || a[0] == '-':
		case a[0] == '@':
			return true
		case hasSuffix(a, ".litmus") || hasSuffix(a, ".test"):
			files++
		default:
			if fi, err := os.Stat(a); err == nil && fi.IsDir() {
				return true
			}
		}
	}
	return files > 1
}

// hasSuffix stands in for strings.HasSuffix (see the imports).
func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// Plain returns the last -j that args give as -j N, -j=N, --j N or --j=N
// before any "--", whose N parse reads. A -j that is another flag's
// value, or comes from a file of options, is left to the command's flags,
// which apply it after parsing (only GOMAXPROCS, never a result, differs).
func Plain(args []string, parse func(string) (int, bool)) (int, bool) {
	j, found := 0, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		name := a[1:]
		if name[0] == '-' {
			name = name[1:]
		}
		value, hasValue := "", false
		if len(name) > 1 && name[1] == '=' {
			name, value, hasValue = name[:1], name[2:], true
		}
		if name != "j" {
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				break
			}
			i++
			value = args[i]
		}
		if n, ok := parse(value); ok {
			j, found = n, true
		}
	}
	return j, found
}

// Decimal reads s as a non-negative decimal number of at most six digits,
// the form -j takes in practice; any other form is left to the flags.
func Decimal(s string) (int, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

// Apply holds the Go runtime to j processors (GOMAXPROCS) when -j asks for
// fewer than it has, unless GOMAXPROCS is set in the environment. -j
// bounds the cores checking keeps busy (limits.Cores: with -j 1 not even a
// big test's search splits), but an idle processor's scheduler still spins
// looking for work each time a goroutine wakes: a sixth of the CPU of
// ../shared/perf/suite-ptx at -j 1 (docs/benchmarks.md, "Tenth round").
func Apply(j int) {
	if os.Getenv("GOMAXPROCS") != "" || j < 1 || j >= runtime.GOMAXPROCS(0) {
		return
	}
	runtime.GOMAXPROCS(j)
}
