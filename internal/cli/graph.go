package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// GraphConfig is what ptxmm graph was asked to draw.
type GraphConfig struct {
	Model    *checker.Model
	Options  checker.Options
	Test     string
	Instance int      // template row, 0 for the first test of the file
	Exec     int      // candidate number (from 1), 0 when Outcome picks
	Outcome  string   // condition selecting the candidate, "" when Exec picks
	Show     []string // relations drawn; none: those of pictureRelations
	Out      string   // output file; "" writes DOT to stdout
}

// Graph runs ptxmm graph and returns the exit status.
func Graph(cfg GraphConfig, stdout, stderr io.Writer) int {
	tests, err := litmus.ParseFileLimits(cfg.Test, parseLimits(cfg.Options))
	if err != nil {
		fmt.Fprintln(stderr, Quoted(err))
		return ExitError
	}
	printWarnings(stderr, tests)
	k := 0
	if cfg.Instance > 0 {
		k = cfg.Instance - 1
	}
	if k >= len(tests) {
		fmt.Fprintf(stderr, "ptxmm graph: %s has %d test(s); there is no instance %d\n", cfg.Test, len(tests), cfg.Instance)
		return ExitError
	}
	t := tests[k]
	warnHostModel(stderr, cfg.Model, []*litmus.Test{t})
	cands, res := cfg.Model.Candidates(t, cfg.Options, 0)
	if res.Err != nil {
		fmt.Fprintf(stderr, "ptxmm graph: %s: %v\n", t.Name, res.Err)
		return ExitError
	}
	c, title, err := pick(t, cands, res, cfg)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm graph:", Quoted(err))
		return ExitError
	}
	inst, err := cfg.Model.Instance(c)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm graph:", err)
		return ExitError
	}
	witness := map[string][]rules.Edge{}
	for _, f := range c.Failures {
		if edges, err := cfg.Model.Explain(c.Execution, f); err == nil {
			witness[f.Name] = edges
		}
	}
	show := cfg.Show
	var only []int
	if len(show) == 0 {
		show = Pictures{}.relations(cfg.Model)
		if cfg.Outcome != "" {
			// The picture of an outcome draws what explains it.
			show = []string{"po", "rf"}
			only, witness = outcomeFocus(cfg.Model, c, witness)
		}
	}
	dot, err := graph.DOT(c.Execution, inst, graph.Options{Title: title, Show: show, Witness: witness, Only: only})
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm graph:", err)
		return ExitError
	}
	if cfg.Out == "" {
		fmt.Fprint(stdout, dot)
		return ExitOK
	}
	err = graph.Write(cfg.Out, dot)
	if err != nil && strings.EqualFold(filepath.Ext(cfg.Out), ".svg") {
		// Without Graphviz, or when it fails, ptxmm draws the SVG itself.
		var rels []graph.SVGRelation
		for k, name := range show {
			rels = append(rels, graph.SVGRelation{Name: name, Color: graph.SVGColor(k)})
		}
		svg, serr := graph.SVG(c.Execution, inst, graph.SVGOptions{Title: title, Relations: rels, Witness: witness, Only: only})
		if serr == nil {
			serr = os.WriteFile(cfg.Out, []byte(svg), 0o644)
		}
		if serr == nil {
			fmt.Fprintf(stderr, "ptxmm graph: %s drawn with ptxmm's own layout: %v\n", cfg.Out, graphvizTrouble(err))
			return ExitOK
		}
		err = fmt.Errorf("%v; ptxmm's own SVG failed too: %w", err, serr)
	}
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm graph:", err)
		return ExitError
	}
	return ExitOK
}

// graphvizTrouble says why Graphviz was not used.
func graphvizTrouble(err error) string {
	if errors.Is(err, graph.ErrNoDot) {
		return "Graphviz's dot is not installed"
	}
	return err.Error()
}

// pick selects the candidate to draw: by number, by outcome (a consistent
// candidate when the outcome is allowed, otherwise one the model rejects,
// whose witness is then highlighted), or the first consistent one.
func pick(t *litmus.Test, cands []checker.Candidate, res *checker.Result, cfg GraphConfig) (checker.Candidate, string, error) {
	describe := func(i int) string {
		c := cands[i]
		verdict := "consistent"
		if !c.Consistent {
			verdict = "forbidden"
		}
		if why := c.NoFinalState(); why != "" {
			verdict += "; no final state: " + why
		}
		return fmt.Sprintf("%s, execution %d of %d (%s): %s", t.Name, i+1, len(cands), verdict,
			checker.FormatState(t, res.Layout, res.Observables, c.State))
	}
	if len(cands) == 0 {
		return checker.Candidate{}, "", fmt.Errorf("%s has no candidate execution", t.Name)
	}
	switch {
	case cfg.Exec > 0:
		if cfg.Exec > len(cands) {
			return checker.Candidate{}, "", fmt.Errorf("-exec %d: %s has %d candidate executions", cfg.Exec, t.Name, len(cands))
		}
		return cands[cfg.Exec-1], describe(cfg.Exec - 1), nil
	case cfg.Outcome != "":
		e, err := litmus.ParseCondition(t, "-outcome", cfg.Outcome)
		if err != nil {
			return checker.Candidate{}, "", err
		}
		first := -1
		for i, c := range cands {
			if c.NoFinalState() != "" || !checker.Satisfies(e, res.Observables, c.State) {
				continue
			}
			if c.Consistent {
				return c, describe(i), nil
			}
			if first < 0 {
				first = i
			}
		}
		if first < 0 {
			return checker.Candidate{}, "", fmt.Errorf("-outcome: no candidate execution of %s reaches %s", t.Name, litmus.ExprString(t, e))
		}
		return cands[first], describe(first), nil
	}
	for i, c := range cands {
		if c.Consistent && c.NoFinalState() == "" {
			return c, describe(i), nil
		}
	}
	return cands[0], describe(0), nil
}
