// Command herdcompare holds ptxmm's cat support against herd7 itself
// (docs/cat.md, "Compared with herd7"): it ports PTX litmus tests to
// herd's LISA syntax, so that herd7, which has no PTX front end, runs a
// model on the ports while ptxmm runs it on the originals, and compares
// the two logs' state sets and verdicts.
//
//	go run ./cat/testdata/herdcompare port [-scopes] OUT PTX-FILES-OR-FOLDERS...
//	go run ./cat/testdata/herdcompare compare OUT/ports.tsv HERD.log PTXMM.log
//	go run ./cat/testdata/herdcompare record OUT/ports.tsv cat/testdata/herd7 examples/,../shared/conformance/ OUT/*.herd.log
//
// It lives under testdata because it is a tool for that comparison, not
// part of ptxmm.
package main

import (
	"fmt"
	"os"
	"strings"
)

func main() {
	usage := "usage: herdcompare port [-scopes] OUT PATH... | herdcompare compare PORTS.tsv HERD.log PTXMM.log | herdcompare record PORTS.tsv OUT PREFIX,... MODEL.herd.log..."
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	switch {
	case os.Args[1] == "port" && len(os.Args) >= 5 && os.Args[2] == "-scopes":
		if err := portAll(os.Args[3], os.Args[4:], true); err != nil {
			fmt.Fprintln(os.Stderr, "herdcompare:", err)
			os.Exit(1)
		}
	case os.Args[1] == "port" && len(os.Args) >= 4 && os.Args[2] != "-scopes":
		if err := portAll(os.Args[2], os.Args[3:], false); err != nil {
			fmt.Fprintln(os.Stderr, "herdcompare:", err)
			os.Exit(1)
		}
	case os.Args[1] == "compare" && len(os.Args) == 5:
		same, err := compare(os.Args[2], os.Args[3], os.Args[4])
		if err != nil {
			fmt.Fprintln(os.Stderr, "herdcompare:", err)
			os.Exit(1)
		}
		if !same {
			os.Exit(1)
		}
	case os.Args[1] == "record" && len(os.Args) >= 6:
		if err := record(os.Args[2], os.Args[3], strings.Split(os.Args[4], ","), os.Args[5:]); err != nil {
			fmt.Fprintln(os.Stderr, "herdcompare:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
}
