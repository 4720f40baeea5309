package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// herdFlags are herd7's command-line options that ptxmm check takes, with
// herd's meaning (herdopts.go lists all of herd7's, refused ones too).
type herdFlags struct {
	show, outDir       string
	nshow              int
	showone            bool
	through, throughFl string
	skip               modelList
	strict             bool
	speedcheck         string
	candidates         bool
	kinds, conds       modelList
	expectKinds        string
	names, excl        modelList
	oknames, nonames   modelList
	rename             modelList
	verbose            counter
	quiet              bool
	exit               bool
	bell               string
	badflag            string
	archcheck          bool
	optace             string
	noEffect           bool // -checkfilter, -relabel, -morefences
	version, libdir    bool

	// Pictures.
	style                         graph.Style
	graphLayout, events, splines  string
	suffix, dotheader             string
	doshow, unshow                modelList
	edgeattrs                     modelList
	symmetric, noid, raw          modelList
	fontsize                      int
	penwidth, arrowsize, mar, pad float64
}

// counter is a flag counted each time it is given (herd7's -v).
type counter int

func (c *counter) String() string   { return strconv.Itoa(int(*c)) }
func (c *counter) IsBoolFlag() bool { return true }
func (c *counter) Set(s string) error {
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("expected true or false")
	}
	if b {
		*c++
	}
	return nil
}

func addHerdFlags(fs *flag.FlagSet) *herdFlags {
	h := &herdFlags{style: graph.HerdStyle()}
	use := func(name string) string {
		o, _ := lookupHerdOption(name)
		return o.Use + " (herd7's -" + name + ")"
	}
	fs.StringVar(&h.show, "show", "none", "executions to draw with -o, herd7's `prop|neg|cond|wit|all|none`")
	fs.StringVar(&h.outDir, "o", "", "write one DOT file per test, NAME.dot, into `DIR` (herd7's -o)")
	fs.IntVar(&h.nshow, "nshow", 0, "draw at most `N` executions per test (herd7's -nshow; 0: all)")
	fs.BoolVar(&h.showone, "showone", false, use("showone"))
	fs.StringVar(&h.through, "through", "none", "let executions the checks reject through: herd7's `all|invalid|none`")
	fs.StringVar(&h.throughFl, "throughflag", "", use("throughflag"))
	fs.Var(&h.skip, "skipchecks", "do not apply the checks `NAME,...` (herd7's -skipchecks; repeatable)")
	fs.Var(&h.skip, "skipcheck", "do not apply the check `NAME` (herd7's -skipcheck; repeatable)")
	fs.BoolVar(&h.strict, "strictskip", false, "keep only the executions that fail every -skipchecks check (herd7's -strictskip)")
	fs.StringVar(&h.speedcheck, "speedcheck", "false", "herd7's `false|true|fast`: true checks only the executions that may decide the condition, fast also stops at the first that does")
	fs.BoolVar(&h.candidates, "candidates", false, "print Candidates NAME n, the candidate executions checked (herd7's -candidates)")
	fs.Var(&h.kinds, "kinds", "give the tests the kinds `FILE` names (NAME Allow|Forbid|Require per line: exists, ~exists, forall), as herd7's -kinds; repeatable")
	fs.Var(&h.conds, "conds", "give the tests the conditions `FILE` names (NAME \"exists (...)\" per line), as herd7's -conds; repeatable")
	fs.StringVar(&h.expectKinds, "expect-kinds", "", "compare with the expected kinds of `FILE` (NAME Allowed|Forbidden|Required per line)")
	fs.Var(&h.names, "names", "check only the tests `FILE` names (herd7's -names; repeatable)")
	fs.Var(&h.excl, "excl", "leave out the tests `FILE` names (herd7's -excl; repeatable)")
	fs.Var(&h.oknames, "oknames", "check only the tests `NAME,...` (herd7's -oknames)")
	fs.Var(&h.nonames, "nonames", "leave out the tests `NAME,...` (herd7's -nonames)")
	fs.Var(&h.rename, "rename", "rename the tests `FILE` maps (OLD NEW per line; herd7's -rename)")
	fs.Var(&h.verbose, "v", use("v"))
	fs.BoolVar(&h.quiet, "q", false, use("q"))
	fs.BoolVar(&h.exit, "exit", false, use("exit"))
	fs.StringVar(&h.bell, "bell", "", "a bell `FILE` run before the cat model (herd7's -bell)")
	fs.StringVar(&h.badflag, "badflag", "", "a test raising the flag `NAME` is Undef (herd7's -badflag)")
	fs.BoolVar(&h.archcheck, "archcheck", true, use("archcheck"))
	fs.StringVar(&h.optace, "optace", "iico", use("optace"))
	for _, name := range []string{"checkfilter", "relabel", "morefences"} {
		fs.BoolVar(&h.noEffect, name, name == "checkfilter", use(name))
	}
	fs.BoolVar(&h.version, "version", false, use("version"))
	fs.BoolVar(&h.libdir, "libdir", false, use("libdir"))
	h.addPictureFlags(fs, use)
	return h
}

// addPictureFlags registers herd7's picture options, with herd7's
// defaults.
func (h *herdFlags) addPictureFlags(fs *flag.FlagSet, use func(string) string) {
	st := &h.style
	fs.StringVar(&h.graphLayout, "graph", "cluster", "herd7's `cluster|free|columns`: "+use("graph"))
	fs.StringVar(&h.events, "showevents", "noregs", "herd7's `all|mem|noregs|memf|nobranches`: "+use("showevents"))
	for _, b := range []struct {
		name string
		v    *bool
	}{{"showpo", &st.ShowPo}, {"showinitwrites", &st.ShowInitWrites}, {"oneinit", &st.OneInit}, {"labelinit", &st.LabelInit},
		{"showinitrf", &st.ShowInitRF}, {"showfinalrf", &st.ShowFinalRF}, {"squished", &st.Squished}, {"brackets", &st.Brackets},
		{"showthread", &st.ShowThread}, {"showlegend", &st.ShowLegend}, {"showkind", &st.ShowKind}, {"shortlegend", &st.ShortLegend},
		{"mono", &st.Mono}, {"edgemerge", &st.EdgeMerge}, {"movelabel", &st.MoveLabel}, {"withbox", &st.WithBox},
		{"labelbox", &st.LabelBox}, {"fixedsize", &st.FixedSize}} {
		fs.BoolVar(b.v, b.name, *b.v, use(b.name))
	}
	fs.Var(&h.doshow, "doshow", "draw the relations `NAME,...` too (herd7's -doshow)")
	fs.Var(&h.unshow, "unshow", "do not draw the relations `NAME,...` (herd7's -unshow)")
	fs.Var(&h.symmetric, "symetric", "draw the relations `NAME,...` as symmetric (herd7's -symetric)")
	fs.Var(&h.noid, "noid", "as -symetric, without reflexive pairs (herd7's -noid)")
	fs.Var(&h.raw, "showraw", "draw the relations `NAME,...` whole (herd7's -showraw)")
	fs.Var(&h.edgeattrs, "edgeattr", "a DOT attribute for the edges of a relation, `LABEL,ATTRIBUTE,VALUE` (herd7's -edgeattr)")
	fs.StringVar(&h.splines, "splines", "", "herd7's `spline|line|polyline|ortho|curved|none`: the splines attribute of the pictures")
	fs.StringVar(&st.Overlap, "overlap", "", "the overlap `ATTRIBUTE` of the pictures (herd7's -overlap)")
	fs.StringVar(&st.Sep, "sep", "", "the sep `ATTRIBUTE` of the pictures (herd7's -sep)")
	fs.StringVar(&st.FontName, "fontname", "", "the `FONT` of the pictures (herd7's -fontname)")
	fs.IntVar(&h.fontsize, "fontsize", 0, "the font `SIZE` of the events (herd7's -fontsize; 0: dot's)")
	fs.IntVar(&st.EdgeFontDelta, "edgefontsizedelta", 0, "added to -fontsize for the edges' labels (herd7's -edgefontsizedelta)")
	fs.Float64Var(&h.penwidth, "penwidth", 0, "the width of the edges (herd7's -penwidth)")
	fs.Float64Var(&h.arrowsize, "arrowsize", 0, "the size of the arrow heads (herd7's -arrowsize)")
	fs.Float64Var(&h.mar, "margin", 0, "the margin attribute of the pictures (herd7's -margin)")
	fs.Float64Var(&h.pad, "pad", 0, "the pad attribute of the pictures (herd7's -pad)")
	fs.Float64Var(&st.Scale, "scale", 1, use("scale"))
	fs.Float64Var(&st.XScale, "xscale", 1, use("xscale"))
	fs.Float64Var(&st.YScale, "yscale", 1, use("yscale"))
	fs.StringVar(&h.suffix, "suffix", "", "add `SUF` to the base of each picture's name (herd7's -suffix)")
	fs.StringVar(&h.dotheader, "dotheader", "", "insert the contents of `FILE` at the beginning of each picture (herd7's -dotheader)")
}

// apply turns the herd flags into the check's configuration and the model
// adjustments they ask for.
func (h *herdFlags) apply(cfg *cli.CheckConfig, mf *modelFlags) (checker.Adjustments, error) {
	var adj checker.Adjustments
	mode, err := cli.ParseShow(h.show)
	if err != nil {
		return adj, err
	}
	if h.showone && h.nshow == 0 {
		h.nshow = 1
	}
	if h.nshow < 0 {
		return adj, fmt.Errorf("-nshow %d: expected a number of pictures from 0", h.nshow)
	}
	if h.outDir == "" {
		// As in herd7: without -o, -show makes no picture.
		mode = cli.ShowNone
	}
	st, err := h.pictureStyle()
	if err != nil {
		return adj, err
	}
	cfg.Pictures = cli.Pictures{Mode: mode, Dir: h.outDir, Max: h.nshow, Style: st, Suffix: h.suffix,
		DoShow: commaList(h.doshow), UnShow: commaList(h.unshow)}
	if adj.Through, err = checker.ParseThrough(h.through); err != nil {
		return adj, err
	}
	adj.Skip = commaList(h.skip)
	// herd7's -strictskip without -skipchecks skips nothing, so it
	// changes nothing.
	adj.Strict = h.strict
	adj.ThroughFlag = h.throughFl
	switch strings.ToLower(h.speedcheck) {
	case "false":
	case "true":
		cfg.Options.OnlyDeciding = true
	case "fast":
		cfg.Options.OnlyDeciding, cfg.Options.StopAtWitness = true, true
	default:
		return adj, fmt.Errorf("-speedcheck %s: expected false, true or fast", h.speedcheck)
	}
	switch strings.ToLower(h.optace) {
	case "false", "iico":
	case "true":
		return adj, fmt.Errorf("-optace true: herd7 then drops, before the model runs, the candidates whose program order and reads-from break coherence at a location and the final writes program order puts before another write, which changes what a model without a uniproc check allows (minimal.cat); ptxmm does not: add acyclic po-loc | rf | co | fr to the model, or use -optace iico, herd7's default for cat models")
	default:
		return adj, fmt.Errorf("-optace %s: expected false, true or iico", h.optace)
	}
	cfg.Log.Candidates = h.candidates
	cfg.Kinds = h.expectKinds
	cfg.BadFlag = h.badflag
	cfg.StopOnError = h.exit
	if cfg.Select, err = h.selection(); err != nil {
		return adj, err
	}
	mf.bell, mf.archcheck, mf.quiet, mf.verbose = h.bell, h.archcheck, h.quiet, int(h.verbose)
	return adj, nil
}

// pictureStyle is the style the picture options ask for.
func (h *herdFlags) pictureStyle() (*graph.Style, error) {
	st := h.style
	switch h.graphLayout {
	case "cluster", "free", "columns":
		st.Layout = h.graphLayout
	default:
		return nil, fmt.Errorf("-graph %s: expected cluster, free or columns", h.graphLayout)
	}
	switch strings.ToLower(h.events) {
	case "all", "noregs", "noreg", "nobranches", "nobranch":
		st.Events = "all"
	case "mem", "memory":
		st.Events = "mem"
	case "memf", "memfence", "memfault":
		st.Events = "memf"
	default:
		return nil, fmt.Errorf("-showevents %s: expected all, mem, noregs, memf or nobranches", h.events)
	}
	switch strings.ToLower(h.splines) {
	case "":
	case "spline", "true":
		st.Splines = "spline"
	case "line", "false":
		st.Splines = "line"
	case "polyline", "ortho", "curved", "none":
		st.Splines = strings.ToLower(h.splines)
	default:
		return nil, fmt.Errorf("-splines %s: expected spline, line, polyline, ortho, curved or none", h.splines)
	}
	if h.fontsize < 0 || h.penwidth < 0 || h.arrowsize < 0 || h.mar < 0 || h.pad < 0 || st.Scale <= 0 || st.XScale <= 0 || st.YScale <= 0 {
		return nil, fmt.Errorf("-fontsize, -penwidth, -arrowsize, -margin and -pad are at least 0, -scale, -xscale and -yscale above 0")
	}
	st.FontSize, st.PenWidth, st.ArrowSize, st.Margin, st.Pad = h.fontsize, h.penwidth, h.arrowsize, h.mar, h.pad
	st.Symmetric, st.NoID, st.Raw = setOf(commaList(h.symmetric)), setOf(commaList(h.noid)), setOf(commaList(h.raw))
	st.EdgeAttrs = map[string][][2]string{}
	for _, a := range h.edgeattrs {
		parts := strings.Split(a, ",")
		if len(parts) != 3 {
			return nil, fmt.Errorf("-edgeattr %s: expected LABEL,ATTRIBUTE,VALUE", a)
		}
		st.EdgeAttrs[parts[0]] = append(st.EdgeAttrs[parts[0]], [2]string{parts[1], parts[2]})
	}
	if h.dotheader != "" {
		data, err := limits.ConfFile.ReadFile(h.dotheader)
		if err != nil {
			return nil, fmt.Errorf("-dotheader %s: %w", h.dotheader, err)
		}
		st.Header = string(data)
	}
	return &st, nil
}

// selection reads the test selection and rewriting files.
func (h *herdFlags) selection() (*cli.Selection, error) {
	sel := &cli.Selection{Excl: setOf(commaList(h.nonames))}
	if len(h.names) > 0 || len(h.oknames) > 0 {
		sel.Names = setOf(commaList(h.oknames))
	}
	for _, f := range h.names {
		if err := cli.ReadNames(f, sel.Names); err != nil {
			return nil, fmt.Errorf("-names: %w", err)
		}
	}
	for _, f := range h.excl {
		if err := cli.ReadNames(f, sel.Excl); err != nil {
			return nil, fmt.Errorf("-excl: %w", err)
		}
	}
	if len(h.rename) > 0 {
		sel.Rename = map[string]string{}
		for _, f := range h.rename {
			if err := cli.ReadMap(f, "the renaming", sel.Rename); err != nil {
				return nil, fmt.Errorf("-rename: %w", err)
			}
		}
	}
	if len(h.conds) > 0 {
		sel.Conds = map[string]string{}
		for _, f := range h.conds {
			if err := cli.ReadMap(f, "the conditions", sel.Conds); err != nil {
				return nil, fmt.Errorf("-conds: %w", err)
			}
		}
	}
	if len(h.kinds) > 0 {
		sel.Kinds = map[string]litmus.CondKind{}
		for _, f := range h.kinds {
			k, err := report.ReadKinds(f)
			if err != nil {
				return nil, fmt.Errorf("-kinds: %w", err)
			}
			for name, kind := range k.All() {
				sel.Kinds[name] = kind
			}
		}
	}
	return sel, nil
}

// commaList splits repeated comma-separated values.
func commaList(lists []string) []string {
	var out []string
	for _, list := range lists {
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" {
				out = append(out, name)
			}
		}
	}
	return out
}

func setOf(names []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}
