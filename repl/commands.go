package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/explore"
	"github.com/ptxmm/ptxmm/litmus"
)

// command is one REPL command.
type command struct {
	name, args, help string
	run              func(s *Session, arg string, w io.Writer) error
}

func commands() []command {
	return []command{
		{":help", "", "this list", (*Session).cmdHelp},
		{":test", "FILE [K]", "load a litmus test (instance K of a .test template)", (*Session).cmdTest},
		{":execs", "[ok|bad]", "list the candidate executions: number, verdict, final state", (*Session).cmdExecs},
		{":exec", "N", "select candidate execution N", (*Session).cmdExec},
		{":next", "", "select the next candidate", (*Session).cmdNext},
		{":prev", "", "select the previous candidate", (*Session).cmdPrev},
		{":find", "CONDITION", "select the first candidate whose final state satisfies CONDITION", (*Session).cmdFind},
		{":events", "", "list the events of the selected candidate", (*Session).cmdEvents},
		{":checks", "", "each check's verdict on the selected candidate, with the witness as a chain of edges", (*Session).cmdChecks},
		{":show", "REL", "print the tuples of a relation in the selected candidate", (*Session).cmdShow},
		{":why", "REL(eA, eB)", "print a derivation of a tuple, down to base relations", (*Session).cmdWhy},
		{":relations", "", "list the model's relations with their documentation", (*Session).cmdRelations},
		{":reload", "", "re-read the model file and re-run the test, showing which outcomes changed", (*Session).cmdReload},
		{":quit", "", "leave", nil},
	}
}

// Exec runs one line: a command, a query (?- ...), or model text (rules,
// definitions, checks, declarations), which is added to the model.
func (s *Session) Exec(line string, w io.Writer) error {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "//") {
		return nil
	}
	if strings.HasPrefix(line, ":") {
		name, arg, _ := strings.Cut(line, " ")
		for _, c := range commands() {
			if c.name == name && c.run != nil {
				return c.run(s, strings.TrimSpace(arg), w)
			}
		}
		return fmt.Errorf("unknown command %s (type :help)", name)
	}
	if strings.HasPrefix(line, "?-") {
		return s.query(line, w)
	}
	return s.addModelText(line, w)
}

func (s *Session) cmdHelp(_ string, w io.Writer) error {
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %-18s %s\n", c.name, c.args, c.help)
	}
	fmt.Fprintln(w, "  ?- BODY.                      query the selected candidate, e.g. ?- cause(X, Y), W(X).")
	fmt.Fprintln(w, "  RULE | let | .check | .decl   add to the model and re-run, e.g. late(X) :- W(X), !IW(X).")
	fmt.Fprintln(w, "Events are written eN (see :events); queries print them by instruction.")
	return nil
}

func (s *Session) cmdTest(arg string, w io.Writer) error {
	fields := strings.Fields(arg)
	if len(fields) == 0 || len(fields) > 2 {
		return fmt.Errorf("usage: :test FILE [K]")
	}
	k := 0
	if len(fields) == 2 {
		n, err := strconv.Atoi(fields[1])
		if err != nil || n < 1 {
			return fmt.Errorf(":test: instance must be a number from 1, not %q", fields[1])
		}
		k = n
	}
	if err := s.LoadTest(fields[0], k); err != nil {
		return err
	}
	s.summary(w)
	return nil
}

// summary prints what a freshly loaded test found.
func (s *Session) summary(w io.Writer) {
	r := s.result
	fmt.Fprintf(w, "%s: %d candidate(s), %d consistent, %d final state(s)", s.test.Name, len(s.cands), r.Consistent, len(r.States))
	if r.Verdict != "" {
		fmt.Fprintf(w, ", condition %s", r.Verdict)
	}
	fmt.Fprintln(w)
	if s.cur >= 0 {
		fmt.Fprintf(w, "selected execution %d\n", s.cur+1)
	}
}

func (s *Session) needTest() error {
	if s.test == nil {
		return fmt.Errorf("no test loaded: use :test FILE")
	}
	return nil
}

func (s *Session) cmdExecs(arg string, w io.Writer) error {
	if err := s.needTest(); err != nil {
		return err
	}
	for i, c := range s.cands {
		if (arg == "ok" && !c.Consistent) || (arg == "bad" && c.Consistent) {
			continue
		}
		mark := " "
		if i == s.cur {
			mark = "*"
		}
		fmt.Fprintf(w, "%s%4d  %-28s %s\n", mark, i+1, verdictText(c), s.stateText(c))
	}
	return nil
}

func verdictText(c checker.Candidate) string {
	if c.Consistent {
		if c.NoFinalState() != "" {
			// The checks hold, but the execution is no outcome.
			return "consistent, no final state"
		}
		return "consistent"
	}
	var names []string
	for _, f := range c.Failures {
		names = append(names, f.Name)
	}
	if len(names) == 0 {
		return "forbidden"
	}
	return "forbidden: " + strings.Join(names, ", ")
}

func (s *Session) selectCand(i int, w io.Writer) error {
	if err := s.needTest(); err != nil {
		return err
	}
	if i < 0 || i >= len(s.cands) {
		return fmt.Errorf("there are %d candidate executions (1 to %d)", len(s.cands), len(s.cands))
	}
	s.cur = i
	c := s.cands[i]
	fmt.Fprintf(w, "execution %d: %s  %s\n", i+1, verdictText(c), s.stateText(c))
	return nil
}

func (s *Session) cmdExec(arg string, w io.Writer) error {
	n, err := strconv.Atoi(arg)
	if err != nil {
		return fmt.Errorf("usage: :exec N")
	}
	return s.selectCand(n-1, w)
}

func (s *Session) cmdNext(_ string, w io.Writer) error { return s.selectCand(s.cur+1, w) }
func (s *Session) cmdPrev(_ string, w io.Writer) error { return s.selectCand(s.cur-1, w) }

func (s *Session) cmdFind(arg string, w io.Writer) error {
	if err := s.needTest(); err != nil {
		return err
	}
	e, err := litmus.ParseCondition(s.test, ":find", arg)
	if err != nil {
		return err
	}
	for i, c := range s.cands {
		if checker.Satisfies(e, s.result.Observables, c.State) {
			return s.selectCand(i, w)
		}
	}
	return fmt.Errorf("no candidate execution reaches %s", litmus.ExprString(s.test, e))
}

func (s *Session) cmdEvents(_ string, w io.Writer) error {
	v, err := s.view()
	if err != nil {
		return err
	}
	for _, e := range v.Events() {
		fmt.Fprintf(w, "  e%-3d %s\n", e.ID, e.Label)
	}
	return nil
}

func (s *Session) cmdChecks(_ string, w io.Writer) error {
	v, err := s.view()
	if err != nil {
		return err
	}
	for _, c := range v.Checks() {
		if c.Holds {
			fmt.Fprintf(w, "  %-18s holds\n", c.Name)
		} else {
			fmt.Fprintf(w, "  %-18s fails: %s\n", c.Name, c.Chain)
		}
	}
	if !v.Cand.Consistent && v.ChoseOrder() {
		fmt.Fprintf(w, "  (%s)\n", explore.OrderNote)
	}
	return nil
}

func (s *Session) cmdShow(arg string, w io.Writer) error {
	v, err := s.view()
	if err != nil {
		return err
	}
	if arg == "" {
		return fmt.Errorf("usage: :show REL")
	}
	a, err := v.ShowRelation(arg, 0)
	if err != nil {
		return err
	}
	fmt.Fprint(w, v.Text(a))
	return nil
}

// parseAtomArgs reads "rel(eA, eB)" with events written eN or N.
func parseAtomArgs(arg string) (string, []int, error) {
	open := strings.IndexByte(arg, '(')
	if open < 0 || !strings.HasSuffix(arg, ")") {
		return "", nil, fmt.Errorf("usage: :why REL(eA, eB)")
	}
	rel := strings.TrimSpace(arg[:open])
	var atoms []int
	for _, f := range strings.Split(arg[open+1:len(arg)-1], ",") {
		f = strings.TrimPrefix(strings.TrimSpace(f), "e")
		n, err := strconv.Atoi(f)
		if err != nil {
			return "", nil, fmt.Errorf("%q is not an event: write eN as :events lists them", f)
		}
		atoms = append(atoms, n)
	}
	return rel, atoms, nil
}

func (s *Session) cmdWhy(arg string, w io.Writer) error {
	v, err := s.view()
	if err != nil {
		return err
	}
	rel, atoms, err := parseAtomArgs(arg)
	if err != nil {
		return err
	}
	n, err := v.Why(rel, atoms, 0)
	var notEvent *explore.NotEventError
	if errors.As(err, &notEvent) {
		return fmt.Errorf("e%d is not an event of this execution (see :events)", notEvent.Atom)
	}
	if err != nil {
		return err
	}
	text, _ := v.DerivationText(n)
	fmt.Fprint(w, text)
	return nil
}

func (s *Session) cmdRelations(_ string, w io.Writer) error {
	names := s.relationNames()
	sort.Strings(names)
	for _, n := range names {
		r := s.model.Syntax.Relations[n]
		doc := strings.ReplaceAll(r.Doc, "\n", " ")
		kind := map[datalog.RelKind]string{datalog.RelInput: "input", datalog.RelOrder: "order", datalog.RelDerived: "derived", datalog.RelUniverse: "built-in"}[r.Kind]
		fmt.Fprintf(w, "  %-16s %d %-8s %s\n", n, r.Arity, kind, doc)
	}
	return nil
}

func (s *Session) cmdReload(_ string, w io.Writer) error {
	before := s.outcomes()
	if err := s.loadModel(); err != nil {
		return err
	}
	fmt.Fprintf(w, "reloaded %s\n", s.modelName())
	return s.rerunAndCompare(before, w)
}

// outcomes returns the allowed final states by their text.
func (s *Session) outcomes() map[string]bool {
	out := map[string]bool{}
	if s.test == nil || s.result == nil {
		return out
	}
	for _, st := range s.result.States {
		out[checker.FormatState(s.test, s.result.Layout, s.result.Observables, st)] = true
	}
	return out
}

// reportChanges prints the outcomes that became allowed or forbidden.
func (s *Session) reportChanges(before map[string]bool, w io.Writer) {
	after := s.outcomes()
	changed := false
	for _, k := range sortedSet(after) {
		if !before[k] {
			fmt.Fprintf(w, "  now allowed:   %s\n", k)
			changed = true
		}
	}
	for _, k := range sortedSet(before) {
		if !after[k] {
			fmt.Fprintf(w, "  now forbidden: %s\n", k)
			changed = true
		}
	}
	if !changed {
		fmt.Fprintln(w, "  no outcome changed")
	}
	s.summary(w)
}

func sortedSet(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// query answers "?- body." over the selected candidate.
func (s *Session) query(line string, w io.Writer) error {
	v, err := s.view()
	if err != nil {
		return err
	}
	q, err := explore.ParseQuery(line)
	if err != nil {
		return err
	}
	ctx, cancel := s.limited("the query")
	defer cancel()
	a, err := v.Query(ctx, q, s.opts.MaxMemory, 0)
	if err != nil {
		if ctx.Err() != nil {
			return context.Cause(ctx)
		}
		return err
	}
	fmt.Fprint(w, v.Text(a))
	return nil
}

// addModelText adds rules, definitions, checks or declarations to the
// model and re-runs the test, reporting which outcomes changed.
func (s *Session) addModelText(text string, w io.Writer) error {
	before := s.outcomes()
	s.extra = append(s.extra, text)
	// The new model is built aside: when the text does not fit, the
	// session keeps the model it had, with no second load.
	m, err := s.buildModel()
	if err != nil {
		s.extra = s.extra[:len(s.extra)-1]
		return err
	}
	s.useModel(m)
	fmt.Fprintln(w, "added to the model")
	return s.rerunAndCompare(before, w)
}

// rerunAndCompare re-runs the loaded test, if any, under the current model
// and prints which outcomes changed from before.
func (s *Session) rerunAndCompare(before map[string]bool, w io.Writer) error {
	if s.test == nil {
		return nil
	}
	if err := s.run(); err != nil {
		return err
	}
	s.reportChanges(before, w)
	return nil
}
