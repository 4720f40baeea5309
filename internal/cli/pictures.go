package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// ShowMode says which executions pictures show (herd7's -show).
type ShowMode int

const (
	// ShowNone draws nothing.
	ShowNone ShowMode = iota
	// ShowProp draws the executions satisfying the condition's proposition.
	ShowProp
	// ShowNeg draws those not satisfying it.
	ShowNeg
	// ShowCond draws those that make the condition true: satisfying the
	// proposition of exists and forall, not satisfying that of ~exists.
	ShowCond
	// ShowWit draws the witnesses: executions satisfying the proposition of
	// exists and ~exists, contradicting that of forall.
	ShowWit
	// ShowAll draws every consistent execution.
	ShowAll
)

// ParseShow reads herd7's -show values.
func ParseShow(s string) (ShowMode, error) {
	m, ok := map[string]ShowMode{"none": ShowNone, "prop": ShowProp, "neg": ShowNeg, "cond": ShowCond,
		"wit": ShowWit, "all": ShowAll}[strings.ToLower(s)]
	if !ok {
		return ShowNone, fmt.Errorf("-show %s: expected prop, neg, cond, wit, all or none", s)
	}
	return m, nil
}

// Pictures asks for one DOT file per test, herd-style: DIR/NAME.dot with
// one graph per selected consistent execution (a test with none gets no
// file).
type Pictures struct {
	Mode ShowMode
	Dir  string
	// Max bounds the executions drawn per test (herd7's -nshow); 0: no
	// bound. Unlike herd7, checking goes on after the last picture.
	Max int
	// Style is how the pictures look (herd7's picture options); nil is
	// herd7's defaults.
	Style *graph.Style
	// Suffix is added to each picture's base name (herd7's -suffix).
	Suffix string
	// DoShow and UnShow add relations to the pictures and take them away
	// (herd7's -doshow and -unshow).
	DoShow, UnShow []string
	// files names each test's picture in Dir (assignFiles).
	files map[*litmus.Test]string
}

// maxPictureName bounds the length of a picture's file name.
const maxPictureName = 200

// assignFiles names the picture of each test of the run, before any is
// checked: the test's name as herd's logs write it, with every character
// that is not a letter, a digit or one of _.+-[] written _, no leading
// dot, at most maxPictureName bytes; a name another test of the run
// already has (letter case aside, for file systems that ignore it) gets
// -2, -3, ... So a test named "../../x" cannot write outside Dir, and two
// tests of one name do not overwrite each other's picture. Each renamed
// picture is named on stderr.
func (p *Pictures) assignFiles(tests []*litmus.Test, files []string, stderr io.Writer) {
	p.files = map[*litmus.Test]string{}
	taken := map[string]bool{}
	for i, t := range tests {
		if t == nil {
			continue
		}
		name := report.LogName(t)
		base := pictureBase(name)
		file := base
		for k := 2; taken[strings.ToLower(file)]; k++ {
			file = fmt.Sprintf("%s-%d", base, k)
		}
		taken[strings.ToLower(file)] = true
		p.files[t] = file + p.Suffix + ".dot"
		if file != name {
			fmt.Fprintf(stderr, "ptxmm: the picture of test %s (%s) is %s\n", name, files[i], filepath.Join(p.Dir, file+".dot"))
		}
	}
}

// pictureBase makes a test's name a file name that stays in its folder.
func pictureBase(name string) string {
	b := []byte(name)
	for i, c := range b {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.+-[]", c) >= 0
		if !ok {
			b[i] = '_'
		}
	}
	out := string(b)
	if len(out) > maxPictureName {
		out = out[:maxPictureName]
	}
	if out == "" || out[0] == '.' {
		out = "_" + out
	}
	return out
}

// selects reports whether a picture shows a consistent candidate. A .test
// file whose commands give no single condition shows its executions only
// under -show all.
func (p Pictures) selects(t *litmus.Test, c checker.Candidate, obs []checker.Observable) bool {
	if !c.Consistent || p.Mode == ShowNone {
		return false
	}
	if c.NoFinalState() != "" {
		// Not an outcome: no condition is judged on it.
		return p.Mode == ShowAll
	}
	if p.Mode == ShowAll {
		return true
	}
	kind, prop, ok := report.Condition(t)
	if !ok {
		return false
	}
	holds := checker.Satisfies(prop, obs, c.State)
	switch p.Mode {
	case ShowProp:
		return holds
	case ShowNeg:
		return !holds
	case ShowCond:
		return holds == (kind != litmus.CondNotExists)
	case ShowWit:
		return holds == (kind != litmus.CondForall)
	}
	return false
}

// checkWithPictures checks a test and writes its picture.
func checkWithPictures(ctx context.Context, m *checker.Model, t *litmus.Test, opts checker.Options, p Pictures) (*checker.Result, error) {
	cands, res := m.CheckKeepContext(ctx, t, opts, func(c checker.Candidate, obs []checker.Observable) bool { return p.selects(t, c, obs) }, p.Max)
	if res.Err != nil {
		return res, nil
	}
	var b strings.Builder
	for i, c := range cands {
		inst, err := m.Instance(c)
		if err != nil {
			return res, fmt.Errorf("%s: %w", t.Name, err)
		}
		title := fmt.Sprintf("%s, execution %d of %d shown: %s", report.LogName(t), i+1, len(cands),
			checker.FormatState(t, res.Layout, res.Observables, c.State))
		st := p.Style
		if st == nil {
			herd := graph.HerdStyle()
			st = &herd
		}
		dot, err := graph.DOT(c.Execution, inst, graph.Options{Title: title, Show: p.relations(m), Style: st, Finals: c.Finals})
		if err != nil {
			return res, fmt.Errorf("%s: %w", t.Name, err)
		}
		b.WriteString(dot)
	}
	if len(cands) == 0 {
		return res, nil
	}
	file, ok := p.files[t]
	if !ok {
		file = pictureBase(report.LogName(t)) + p.Suffix + ".dot"
	}
	path := filepath.Join(p.Dir, file)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return res, fmt.Errorf("-o %s: %w", p.Dir, err)
	}
	return res, nil
}

// relations are the relations pictures draw: those the model shows
// (checker.Model.Show: spec.dl's .show) and those -doshow adds, less
// those -unshow removes; each only when the model has it as a binary
// relation.
func (p Pictures) relations(m *checker.Model) []string {
	var out []string
	for _, r := range append(slices.Clone(m.Show), p.DoShow...) {
		if contains(p.UnShow, r) {
			continue
		}
		if ar, err := m.Program.Arity(r); err == nil && ar == 2 && !contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
