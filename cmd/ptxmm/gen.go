package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ptxmm/ptxmm/gen"
	"github.com/ptxmm/ptxmm/internal/cli"
)

func runGen(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int { return genCommand(args, out) })
}

func genCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	var cycles modelList
	fs.Var(&cycles, "cycle", "a cycle of `EDGES`, as diyone7 takes it ('PodWW Rfe PodRR Fre'); a token of comma-separated alternatives makes one test per choice, as diycross7 does (repeatable)")
	family := fs.String("family", "", "comma-separated `NAMES` of families (MP, SB, LB, IRIW, WRC, ISA2, RWC, WWC, 2+2W, Z6.0 to Z6.5, ...) or keys (WW+RR): their prototype cycles")
	po := fs.String("po", "", "comma-separated `CHOICES` for every program-order edge: po, Fenced, a fence (Fence.sc.gpu, Fence.acq_rel.cta, Fence.proxy.alias, Fence.proxy.async, Fence.proxy.surface), DpData, DpCtrl; one test per combination")
	sem := fs.String("sem", "", "comma-separated `ANNOTATIONS` for every access: Weak, Rlx.SCOPE, Rel.SCOPE, Acq.SCOPE, or RelAcq.SCOPE (release writes, acquire reads); one test per combination")
	relax := fs.String("relax", "", "`EDGES` every enumerated cycle uses (diy7 -relax; '*' stands for R and W: PodR*)")
	safe := fs.String("safe", "", "`EDGES` enumerated cycles may use besides (diy7 -safe)")
	size := fs.Int("size", 6, "most edges of an enumerated cycle (diy7 -size)")
	nprocs := fs.Int("nprocs", 4, "most threads of an enumerated cycle (diy7 -nprocs)")
	placement := fs.String("placement", "gpu", "comma-separated `PLACEMENTS`: gpu (each thread a CTA of its own), cta (one CTA), cluster (own CTAs in one cluster), sys (own GPUs), or groups sharing a CTA (01.2); one test per placement")
	dir := fs.String("o", "", "write each test to `DIR`/NAME.litmus and list them in DIR/@all, as diy7 does (default: print the tests)")
	name := fs.String("name", "", "`NAME` of the test, when the request makes one")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: ptxmm gen -cycle 'EDGES' [-o DIR]
       ptxmm gen -family MP,SB [-po ...] [-sem ...] [-placement ...] -o DIR
       ptxmm gen -relax EDGES [-safe EDGES] [-size N] [-nprocs N] -o DIR

Writes litmus tests from cycles of edges, as diy7 does; the condition of
each asks for the outcome in which every edge of its cycle holds. Edges:
Rfe Rfi Coe Coi Fre Fri Rmw, Po(s|d)XY, Fenced(s|d)XY, Fence.SEM.SCOPE(s|d)XY,
Fence.proxy.P(s|d)XY (P alias, async, surface, texture, constant),
DpData(s|d)W, DpCtrl(s|d)X (X, Y: R or W); synchronizations between threads,
which place them: BarSync(s|d)XY (bar.sync), BarCluster(s|d)XY and
BarCluster.rlx(s|d)XY (barrier.cluster), Mbar(s|d)XY and Mbar.A.W(s|d)XY
(mbarrier arrive and wait; A rel or rlx, W acq or rlx), Mbar.remote(s|d)XY
and Mbar.remote.cta(s|d)XY (an arrive from another CTA of the cluster, through
mapa), Tma(s|d)WY and Tma.noexpect(s|d)WY (a bulk copy completing on an
mbarrier), each Mbar or Tma edge also as EDGE.loop (a try_wait loop); between
edges, annotations of the event there: Weak, Rlx.SCOPE, Acq.SCOPE, Rel.SCOPE,
AR.SCOPE, Alias, Surface, Texture, Constant, Bulk and Bulk.read (a bulk
store's read), Tma (a bulk load's write). docs/generate.md has the whole
vocabulary and examples.

Flags:
`)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	if len(pos) > 0 {
		fmt.Fprintf(os.Stderr, "ptxmm gen: unexpected argument %q: give cycles with -cycle 'EDGES'\n", pos[0])
		return cli.ExitError
	}
	req := gen.Request{Cycles: cycles, Families: list(*family), Po: list(*po), Sem: list(*sem)}
	if *relax != "" || *safe != "" {
		r, err := gen.ParseEdges(*relax)
		if err == nil {
			var s []gen.Edge
			s, err = gen.ParseEdges(*safe)
			req.Enumerate = &gen.FamilyOptions{Relax: r, Safe: s, Size: *size, Procs: *nprocs}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "ptxmm gen:", err)
			return cli.ExitError
		}
	}
	for _, p := range list(*placement) {
		pl, err := gen.ParsePlacement(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "ptxmm gen: -placement:", err)
			return cli.ExitError
		}
		req.Placements = append(req.Placements, pl)
	}
	if len(req.Cycles) == 0 && len(req.Families) == 0 && req.Enumerate == nil {
		fmt.Fprintln(os.Stderr, "ptxmm gen: nothing to generate: give -cycle 'EDGES', -family NAMES, or -relax/-safe EDGES")
		return cli.ExitError
	}
	return cli.Gen(cli.GenConfig{Request: req, Dir: *dir, Name: *name}, out, os.Stderr)
}

// list splits a comma-separated flag value, leaving out empty items.
func list(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
