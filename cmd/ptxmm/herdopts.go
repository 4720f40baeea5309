package main

import (
	"fmt"
	"strings"
)

// herdOption is one of herd7's command-line options (herdtools7's
// herd7 -help, and its -conf keys), with what ptxmm check does with it.
type herdOption struct {
	// Name is the option without its dash; Arg its argument as herd7's
	// help writes it ("" for none).
	Name, Arg string
	// Use says what ptxmm does: the option works as herd7's does (with
	// its name, argument and default), or for a refused option
	// (Refused set) why, and what to use instead.
	Use     string
	Refused bool
	// Accept, for a refused option, lists the arguments that are
	// accepted since they ask for what ptxmm does anyway (-initwrites
	// true, -endian little, ...).
	Accept []string
}

// herdOptions are herd7's options, in the order of herd7 -help: the setup,
// run-mode, filter, graph content and graph presentation groups, then
// the test selection options.
var herdOptions = []herdOption{
	// Setup.
	{Name: "version", Use: "prints ptxmm's version and exits"},
	{Name: "libdir", Use: "prints the library folder ptxmm searches last for cat models and their includes (-set-libdir, else $HERDLIB) and exits"},
	{Name: "set-libdir", Arg: "<path>", Use: "the library folder: cat models and the files they include are searched there last (docs/cat.md, \"Includes\")"},
	{Name: "v", Use: "more diagnostics on standard error: the files a cat model reads; repeat it for the tests as they are read"},
	{Name: "q", Use: "no diagnostics: the model's warnings and the progress line are left out"},
	{Name: "I", Arg: "<dir>", Use: "adds a folder searched for cat models and their includes, before $HERDLIB and the library folder; +DIR is DIR in the library folder"},
	{Name: "exit", Arg: "<bool>", Use: "true: the run stops at the first test that cannot be checked (exit status 2, ptxmm's for a test that could not be checked)"},
	{Name: "conf", Arg: "<name>", Use: "reads options from a configuration file, `key value` per line, at its place on the command line; found as herd7 finds it (the name as given, then -I, $HERDLIB, the library folder); `conf FILE` lines nest the same way, `local-conf FILE` next to the including file"},
	{Name: "web", Use: "-conf web.cfg"},
	{Name: "c11", Use: "-conf cpp11.cfg (which sets -macros, refused: C tests)"},
	{Name: "bell", Arg: "<name>", Use: "a bell file, evaluated before the cat model (its enum, let and procedures are the model's; instructions and default draw a warning)"},
	{Name: "macros", Arg: "<name>", Refused: true, Use: "macro files (.def) expand herd7's C and Linux-kernel tests; ptxmm reads PTX tests, which have no macros"},
	{Name: "o", Arg: "<dir>", Use: "writes the pictures -show selects, NAME.dot per test, into the folder; `-o -` (DOT on standard output) is refused: use -o DIR, or ptxmm graph TEST"},
	{Name: "view", Arg: "<tag>", Refused: true, Use: "ptxmm opens no viewer: write the pictures with -show ... -o DIR and render them (dot -Tsvg -O DIR/*.dot), or use ptxmm graph TEST -o FILE.svg"},
	{Name: "gv", Refused: true, Use: "-view gv: ptxmm opens no viewer: write the pictures with -show ... -o DIR and render them (dot -Tsvg -O DIR/*.dot)"},
	{Name: "evince", Refused: true, Use: "-view evince: ptxmm opens no viewer: write the pictures with -show ... -o DIR and render them (dot -Tpdf -O DIR/*.dot)"},
	{Name: "preview", Refused: true, Use: "-view preview: ptxmm opens no viewer: write the pictures with -show ... -o DIR and render them (dot -Tpdf -O DIR/*.dot)"},
	{Name: "dotcom", Arg: "<tag>", Refused: true, Accept: []string{"dot"}, Use: "ptxmm's pictures are laid out for dot (-dotcom dot is accepted); neato and circo place herd7's own layout: render ptxmm's with dot"},
	{Name: "debug", Arg: "<tags>", Refused: true, Use: "herd7's debugging traces of its own parts; use -v, -explain, or ptxmm repl TEST to step through executions"},
	{Name: "kinds", Arg: "<name>", Use: "gives the tests a kinds file names that kind (`NAME Allow|Forbid|Require` per line): their condition becomes exists, ~exists or forall of its proposition; repeatable (-expect-kinds compares with such a file instead)"},
	{Name: "conds", Arg: "<name>", Use: "gives the tests a file names that condition (`NAME \"exists (...)\"` per line); repeatable"},
	{Name: "dotheader", Arg: "<name>", Use: "inserts the contents of the file at the beginning of each picture"},
	{Name: "tikz", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "ptxmm's pictures are plain Graphviz DOT; convert them for TikZ with dot2tex"},
	{Name: "texmacros", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "ptxmm's pictures are plain Graphviz DOT, without LaTeX commands; convert them with dot2tex"},
	{Name: "suffix", Arg: "<suf>", Use: "adds the suffix to the base of each picture's name (NAMEsuf.dot)"},
	{Name: "candidates", Arg: "<bool>", Use: "prints `Candidates NAME n` in the log, the candidate executions checked"},
	{Name: "outcomereads", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "ptxmm's outcomes hold the registers and locations the condition and the locations line name; add the registers of the reads to the test's locations line"},
	{Name: "hexa", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "ptxmm prints values in decimal, as herd7 does by default"},
	// Run mode.
	{Name: "speedcheck", Arg: "<tag>", Use: "false|true|fast: true checks only the executions that may decide the condition, fast also stops at the first that does"},
	{Name: "variant", Arg: "<tags>", Use: "herd7's variants, which cat models test with if variant, and the embedded model's variants (variants/NAME.dl); comma-separated, cumulative"},
	{Name: "machsize", Arg: "<tag>", Refused: true, Use: "PTX accesses say their size themselves (.u32, .b64, ...)"},
	{Name: "endian", Arg: "<tag>", Refused: true, Accept: []string{"little"}, Use: "PTX is little-endian (-endian little is accepted)"},
	{Name: "timeout", Arg: "<float>", Use: "time allowed per test, in seconds as herd7 takes it (10, 2.5) or a Go duration (10s, 1m30s); 0: no limit (ptxmm's default is 5m, where herd7 has none)"},
	{Name: "unroll", Arg: "<int>", Use: "times a thread may take a backward branch before its run is cut (default 2, herd7's for non-ASL tests)"},
	{Name: "optace", Arg: "<tag>", Use: "false|iico (herd7's default for cat models): candidate generation as herd7's; -optace true, with which herd7 drops the candidates that break coherence at a location before the model runs, is refused: write that check in the model (acyclic po-loc | rf | co | fr)"},
	{Name: "maxphantom", Arg: "<int>", Refused: true, Use: "phantom updates are an Arm construct; PTX tests have none"},
	{Name: "archcheck", Arg: "<bool>", Use: "true (the default): a cat model naming another architecture on its first line (X86, AArch64, PPC, ...) is refused on PTX tests; false runs it anyway"},
	{Name: "switch", Refused: true, Use: "an undocumented switch of herd7's developers, with no meaning for ptxmm"},
	{Name: "restrict", Arg: "<tag>", Refused: true, Accept: []string{"none"}, Use: "ptxmm lists every outcome (-restrict none); to keep only some, narrow the condition (-conds) or the locations line"},
	// Filter.
	{Name: "model", Arg: "<tag>", Use: "the model: a .cat file (found as herd7 finds it) or a .dl file; herd7's built-in cav12 models are not ptxmm's"},
	{Name: "cat", Arg: "<tag>", Use: "the same as -model"},
	{Name: "through", Arg: "<tag>", Use: "all|invalid|none: lets executions the model's checks reject through"},
	{Name: "throughflag", Arg: "<string>", Use: "keeps only the executions that raise the flag (the flag's test becomes a check they must fail)"},
	{Name: "skipcheck", Arg: "<name>", Use: "does not apply the check (cumulative; a cat test's name, or a procedure call's label)"},
	{Name: "skipchecks", Arg: "<name,...>", Use: "does not apply the checks (cumulative)"},
	{Name: "strictskip", Arg: "<bool>", Use: "keeps only the executions that fail every skipped check; without -skipchecks it changes nothing, as in herd7"},
	{Name: "show", Arg: "<tag>", Use: "prop|neg|cond|wit|all|none: the executions pictures show, into -o DIR (without -o, as in herd7, no picture is made)"},
	{Name: "showflag", Arg: "<string>", Refused: true, Use: "ptxmm selects pictures by the condition; to draw the executions that raise flag F, use -throughflag F -show all -o DIR"},
	{Name: "badexecs", Arg: "<bool>", Refused: true, Accept: []string{"true"}, Use: "ptxmm checks every execution of a test, and reports a test with an undefined (or -badflag) execution as Undef with all its states (-badexecs true); herd7's false stops at the first"},
	{Name: "badflag", Arg: "<string>", Use: "a test with an execution raising the flag is Undef, as one with an undefined execution is"},
	{Name: "statelessrc11", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "a model checker for C11's RC11; ptxmm checks PTX tests against its model"},
	{Name: "dumpallfaults", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "faults are an Arm construct; PTX tests have none"},
	{Name: "nshow", Arg: "<n>", Use: "draws at most n executions per test (herd7 then stops checking; ptxmm goes on)"},
	{Name: "showone", Arg: "<bool>", Use: "-nshow 1"},
	{Name: "checkfilter", Arg: "<bool>", Use: "herd7 drops the outcomes a test's filter clause rejects; PTX litmus tests have no filter clause, so it changes nothing (a .test file's load filters always apply)"},
	// Graph content.
	{Name: "showinitrf", Arg: "<bool>", Use: "draws the read-from edges from initial writes (default false)"},
	{Name: "showfinalrf", Arg: "<bool>", Use: "draws a final pseudo-event and read-from edges from the final writes to it (default false)"},
	{Name: "doshow", Arg: "<name,...>", Use: "draws these relations too (cumulative)"},
	{Name: "showpo", Arg: "<bool>", Use: "draws program order (default true)"},
	{Name: "unshow", Arg: "<name,...>", Use: "does not draw these relations (cumulative)"},
	{Name: "symetric", Arg: "<name,...>", Use: "draws these relations as symmetric: one undirected edge per pair"},
	{Name: "noid", Arg: "<name,...>", Use: "as -symetric, and without the edges from an event to itself"},
	{Name: "showraw", Arg: "<name,...>", Use: "draws these relations whole; program order is otherwise drawn by its immediate steps"},
	{Name: "oneinit", Arg: "<bool>", Use: "draws one init pseudo-event for all initial writes (default true)"},
	{Name: "showevents", Arg: "<tag>", Use: "all|mem|noregs|memf|nobranches: the events drawn (default noregs; ptxmm has no register or branch events, so all, noregs and nobranches draw every event, mem only the memory events, memf memory events and fences)"},
	{Name: "showinitwrites", Arg: "<bool>", Use: "draws the initial writes (default true)"},
	{Name: "cycles", Arg: "<name,...>", Refused: true, Use: "ptxmm shows why an outcome is forbidden with -explain (each check that rejects it with its cycle), or ptxmm graph TEST -outcome COND (the witness drawn)"},
	{Name: "dumpes", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "use ptxmm repl TEST to list and inspect the candidate executions (:execs, :show)"},
	{Name: "initwrites", Arg: "<bool>", Refused: true, Accept: []string{"true"}, Use: "ptxmm's executions always hold the initial writes as events (-initwrites true)"},
	{Name: "classes", Arg: "<string>", Refused: true, Use: "ptxmm draws relations as edges: -doshow NAME draws an equivalence's edges"},
	// Graph presentation.
	{Name: "showobserved", Arg: "<bool>", Refused: true, Accept: []string{"false"}, Use: "use -show prop|cond|wit to draw the executions whose observed values satisfy the condition"},
	{Name: "edgemerge", Arg: "<bool>", Use: "merges the edges between the same two events into one, with all their labels"},
	{Name: "showlegend", Arg: "<bool>", Use: "labels each picture with the test and the execution (default true)"},
	{Name: "showkind", Arg: "<bool>", Use: "adds the test's kind to the legend"},
	{Name: "shortlegend", Arg: "<bool>", Use: "the legend is the test's name only"},
	{Name: "labelinit", Arg: "<bool>", Use: "labels the init pseudo-event with the initial values (default true)"},
	{Name: "showthread", Arg: "<bool>", Use: "labels each thread (default true)"},
	{Name: "squished", Arg: "<bool>", Use: "short event labels: the kind, location and value of a memory event, the instruction's name otherwise"},
	{Name: "fixedsize", Arg: "<bool>", Use: "gives the event nodes a fixed size"},
	{Name: "extrachars", Arg: "<float>", Refused: true, Use: "sizes herd7's hand-placed nodes; ptxmm lets dot size the nodes: -fixedsize, -fontsize"},
	{Name: "brackets", Arg: "<bool>", Use: "writes locations in brackets in squished labels, [x] (default true)"},
	{Name: "initrfpos", Arg: "<x,y>", Refused: true, Use: "places herd7's pseudo source of initial read-from by hand; ptxmm lets dot place it (-showinitrf draws the edges)"},
	{Name: "finalrfpos", Arg: "<x,y>", Refused: true, Use: "places herd7's pseudo target of final read-from by hand; ptxmm lets dot place it (-showfinalrf draws the edges)"},
	{Name: "initpos", Arg: "<x,y>", Refused: true, Use: "places herd7's init pseudo-event by hand; ptxmm lets dot place it above the threads"},
	{Name: "splines", Arg: "<tag>", Use: "spline|line|polyline|ortho|curved|none: the splines attribute of the graph"},
	{Name: "margin", Arg: "<float>", Use: "the margin attribute of the graph"},
	{Name: "pad", Arg: "<float>", Use: "the pad attribute of the graph"},
	{Name: "sep", Arg: "<string>", Use: "the sep attribute of the graph"},
	{Name: "fontname", Arg: "<string>", Use: "the font of the graph, its events and edges"},
	{Name: "fontsize", Arg: "<int>", Use: "the font size of the events (and, with -edgefontsizedelta, of the edges)"},
	{Name: "edgefontsizedelta", Arg: "<int>", Use: "added to -fontsize for the edges' labels"},
	{Name: "penwidth", Arg: "<float>", Use: "the width of the edges"},
	{Name: "arrowsize", Arg: "<float>", Use: "the size of the arrow heads"},
	{Name: "edgeattr", Arg: "<label,attribute,value>", Use: "a DOT attribute for the edges of a relation (cumulative)"},
	{Name: "overlap", Arg: "<string>", Use: "the overlap attribute of the graph"},
	{Name: "graph", Arg: "<tag>", Use: "cluster|free|columns: threads as boxed clusters (the default), free placement, or columns without boxes"},
	{Name: "dotmode", Arg: "<tag>", Refused: true, Accept: []string{"plain"}, Use: "ptxmm writes plain DOT (-dotmode plain); fig mode formats text for xfig, which Graphviz no longer reads"},
	{Name: "mono", Arg: "<bool>", Use: "draws every edge black"},
	{Name: "scale", Arg: "<float>", Use: "scales the spacing between events (dot's nodesep and ranksep)"},
	{Name: "xscale", Arg: "<float>", Use: "scales the spacing between threads (dot's nodesep)"},
	{Name: "yscale", Arg: "<float>", Use: "scales the spacing between the events of a thread (dot's ranksep)"},
	{Name: "dsiy", Arg: "<float>", Refused: true, Use: "offsets herd7's hand-placed events of one instruction; ptxmm lets dot place them: -yscale"},
	{Name: "siwidth", Arg: "<float>", Refused: true, Use: "sizes herd7's hand-placed events of one instruction; ptxmm lets dot place them: -xscale"},
	{Name: "ptscale", Arg: "<float>", Refused: true, Use: "scales herd7's hand-placed points; ptxmm lets dot place them: -scale"},
	{Name: "boxscale", Arg: "<float>", Refused: true, Use: "scales herd7's hand-placed boxes; ptxmm lets dot place them: -scale"},
	{Name: "shift", Arg: "<float,...>", Refused: true, Use: "shifts herd7's hand-placed threads; ptxmm lets dot place them: -yscale"},
	{Name: "threadposy", Arg: "<float>", Refused: true, Use: "places herd7's thread labels by hand; ptxmm labels the thread clusters (-showthread)"},
	{Name: "relabel", Arg: "<bool>", Use: "merges Power and Arm fence labels (sync -> sync/dmb); PTX has no such fences, so it changes nothing"},
	{Name: "withbox", Arg: "<bool>", Use: "boxes together the events of one instruction (the read and write of an atom)"},
	{Name: "labelbox", Arg: "<bool>", Use: "labels those boxes with the instruction"},
	{Name: "movelabel", Arg: "<bool>", Use: "lets dot move edge labels off their edges (labelfloat)"},
	// Help.
	{Name: "help", Use: "prints ptxmm check's options"},
	{Name: "-help", Use: "the same as -help"},
	// Test selection.
	{Name: "names", Arg: "<name>", Use: "checks only the tests a file names (the first word of each line); repeatable"},
	{Name: "oknames", Arg: "<name,...,name>", Use: "checks only these tests (with -names, those too)"},
	{Name: "excl", Arg: "<name>", Use: "leaves out the tests a file names; repeatable"},
	{Name: "nonames", Arg: "<name,...,name>", Use: "leaves out these tests"},
	{Name: "rename", Arg: "<name>", Use: "renames the tests a file maps (`OLD NEW` per line) before they are selected"},
	// Older herd7s.
	{Name: "morefences", Arg: "<bool>", Use: "does nothing, in herd7 too (deprecated)"},
}

// refusal returns the refusal of a refused option given arg ("" when it
// takes none), or nil when the option is not refused or arg asks for what
// ptxmm does anyway.
func refusal(name, arg string) error {
	for _, o := range herdOptions {
		if o.Name != name || !o.Refused {
			continue
		}
		for _, a := range o.Accept {
			if strings.EqualFold(a, arg) {
				return nil
			}
		}
		if arg != "" && o.Arg != "" {
			return fmt.Errorf("-%s %s: %s", name, arg, o.Use)
		}
		return fmt.Errorf("-%s: %s", name, o.Use)
	}
	return nil
}

// lookupHerdOption finds one of herd7's options by name.
func lookupHerdOption(name string) (herdOption, bool) {
	for _, o := range herdOptions {
		if o.Name == name {
			return o, true
		}
	}
	return herdOption{}, false
}

// herdOptionsMarkdown renders the table of docs/herd.md.
func herdOptionsMarkdown() string {
	var b strings.Builder
	b.WriteString("| herd7's option | ptxmm check |\n| --- | --- |\n")
	esc := strings.NewReplacer("|", `\|`)
	for _, o := range herdOptions {
		opt := "`-" + o.Name
		if o.Arg != "" {
			opt += " " + o.Arg
		}
		opt += "`"
		use := esc.Replace(o.Use)
		if o.Refused {
			use = "refused: " + use
			if len(o.Accept) > 0 {
				use += " (accepted: `-" + o.Name + " " + strings.Join(o.Accept, "`, `") + "`)"
			}
		}
		fmt.Fprintf(&b, "| %s | %s |\n", esc.Replace(opt), use)
	}
	return b.String()
}
