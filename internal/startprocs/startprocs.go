// Package startprocs holds the Go runtime to the processors a check's -j
// asks for from the start of the process: imported (for its effect) by
// cmd/ptxmm, it lowers GOMAXPROCS while the packages are still being
// initialized, before most of them allocate.
//
// Why so early: lowering GOMAXPROCS destroys the processors above the new
// count, and a destroyed processor hands every span its cache holds back
// to the heap's central lists, whose per-size-class sets each take a fresh
// page for that (runtime.(*spanSet).push). A processor other than the
// first picks up such spans when a goroutine, back from a system call
// under load, resumes there: package initialization, or the flags' set-up
// that reads files. Lowered in main, ../shared/perf/suite-ptx at -j 1 took
// about 80 of its 900 page faults in that hand-back (perf record -e
// page-faults), 1,150 to 1,270 when the runtime had run a part of the
// initialization there; lowered here, 820 to 870 (docs/benchmarks.md,
// "Nineteenth round").
package startprocs

import (
	"os"
	"runtime"
)

// Only os and runtime are imported: the runtime initializes the first
// package (by import path) whose imports are all initialized, so with
// these two this one comes right after os, before the cgo binding, the
// cryptography and the rest (GODEBUG=inittrace=1: 22nd of 130, where
// importing strconv and strings made it 61st).

func init() {
	if len(os.Args) > 1 && os.Args[1] == "check" {
		if j, ok := Plain(os.Args[2:], Decimal); ok {
			Apply(j)
		}
	}
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
