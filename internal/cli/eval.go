package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
	"github.com/ptxmm/ptxmm/source"
)

// EvalConfig is what ptxmm eval was asked to do.
type EvalConfig struct {
	Program  string // the .dl file
	FactsDir string // -F: where .input relations' NAME.facts files are ("" = none)
	OutDir   string // -D: where .output relations go ("-" = stdout, "" = current directory)
	Naive    bool   // -naive: naive evaluation, for testing
	// MaxMemory (-max-memory) bounds the estimated memory of the
	// evaluation and Timeout (-timeout) its time; 0 means no bound.
	MaxMemory int64
	Timeout   time.Duration
}

// Eval runs ptxmm eval and returns the exit status: 0 when every check
// holds, 1 when a check is violated, 2 on errors.
func Eval(cfg EvalConfig, stdout, stderr io.Writer) int {
	ctx, cancel := evalDeadline(cfg.Timeout)
	defer cancel()
	prog, errs := datalog.Load(cfg.Program)
	if errs.HasErrors() {
		fmt.Fprintln(stderr, errs.Quoted())
		return ExitError
	}
	m, errs := datalog.Analyze(prog)
	if errs.HasErrors() {
		fmt.Fprintln(stderr, errs.Quoted())
		return ExitError
	}
	for _, w := range m.Warnings {
		fmt.Fprintln(stderr, w.Quoted())
	}
	var copts []rules.CompileOption
	if cfg.Naive {
		copts = append(copts, rules.WithNaive(true))
	}
	p, errs := rules.Compile(m, copts...)
	if errs.HasErrors() {
		fmt.Fprintln(stderr, errs.Quoted())
		return ExitError
	}
	facts, err := readFacts(m, cfg.FactsDir)
	if err != nil {
		fmt.Fprintln(stderr, Quoted(err))
		return ExitError
	}
	dom := rules.NewDomain()
	for _, f := range facts {
		for _, t := range f.tuples {
			for _, v := range t {
				dom.Intern(v)
			}
		}
	}
	inst, err := p.NewLimitedInstance(dom, rules.Limits{MaxBytes: cfg.MaxMemory})
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm eval:", err)
		return ExitError
	}
	n := dom.Len()
	for _, f := range facts {
		tu := relations.NewTuples(f.arity)
		for _, t := range f.tuples {
			atoms := make([]int, len(t))
			for i, v := range t {
				atoms[i], _ = dom.Lookup(v)
			}
			tu.Add(atoms)
		}
		if err := setTuples(inst, f.name, f.arity, tu, n); err != nil {
			fmt.Fprintln(stderr, "ptxmm eval:", err)
			return ExitError
		}
	}
	sol := inst.Solve(rules.WithContext(ctx))
	if sol.Err != nil {
		fmt.Fprintln(stderr, "ptxmm eval:", evalStopReason(ctx, sol.Err))
		return ExitError
	}
	if err := writeOutputs(inst, m, cfg.OutDir, stdout); err != nil {
		fmt.Fprintln(stderr, "ptxmm eval:", err)
		return ExitError
	}
	status := ExitOK
	if sol.Consistent {
		if len(p.Checks()) > 0 {
			fmt.Fprintf(stdout, "all %d checks hold\n", len(p.Checks()))
		}
		// Flags are read after the outputs: finding a choice of the orders
		// that raises one may move the instance off the solution printed.
		for _, f := range inst.RaisedFlags() {
			mode := datalog.ModeFlag
			for _, c := range p.Flags() {
				if c.Name == f.Name {
					mode = c.Mode
				}
			}
			fmt.Fprintf(stdout, "%s %s raised: %s\n", mode, f.Name, explainFailure(inst, p, f))
			if mode == datalog.ModeUndefined {
				status = ExitMismatch
			}
		}
	} else {
		status = ExitMismatch
		for _, f := range sol.Failures {
			fmt.Fprintf(stdout, "check %s violated: %s\n", f.Name, explainFailure(inst, p, f))
		}
		if len(m.Orders) > 0 {
			fmt.Fprintf(stdout, "(every choice of the orders %s was tried; each failed at least one check)\n", orderList(m))
		}
	}
	return status
}

func orderList(m *datalog.Model) string {
	var names []string
	for _, o := range m.Orders {
		names = append(names, o.Name)
	}
	return strings.Join(names, ", ")
}

// witnessText prints a check's witness in atom values.
func witnessText(f rules.CheckResult, dom *rules.Domain) string {
	var parts []string
	for _, a := range f.Witness {
		parts = append(parts, dom.Value(a).String())
	}
	switch f.Kind {
	case datalog.CheckAcyclic:
		return "cycle " + strings.Join(append(parts, parts[0]), " -> ") + " in " + f.Rel
	case datalog.CheckIrreflexive:
		return parts[0] + " is related to itself in " + f.Rel
	}
	return "(" + strings.Join(parts, ", ") + ") is in " + f.Rel
}

func setTuples(inst *rules.Instance, name string, arity int, tu *relations.Tuples, n int) error {
	switch arity {
	case 1:
		s := relations.NewSet(n)
		for t := range tu.All() {
			s.Add(t[0])
		}
		return inst.SetSet(name, s)
	case 2:
		r := relations.NewRel(n)
		for t := range tu.All() {
			r.Add(t[0], t[1])
		}
		return inst.SetRel(name, r)
	}
	return inst.SetTuples(name, tu)
}

// factFile is the content of one NAME.facts file.
type factFile struct {
	name   string
	arity  int
	tuples [][]rules.Value
}

// readFacts reads DIR/NAME.facts for every .input relation. A missing file
// means an empty relation only when no -F was given; with -F, it is an error
// so that a misspelt directory is not silently an empty input.
func readFacts(m *datalog.Model, dir string) ([]factFile, error) {
	var out []factFile
	for _, name := range m.Inputs() {
		r := m.Relations[name]
		if dir == "" {
			continue
		}
		path := filepath.Join(dir, name+".facts")
		data, err := limits.FactsFile.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("input relation %s: no file %s (each .input relation reads DIR/NAME.facts)", name, path)
		}
		if err != nil {
			return nil, fmt.Errorf("input relation %s: %w", name, err)
		}
		f := factFile{name: name, arity: r.Arity}
		var errs source.List
		sc := bufio.NewScanner(strings.NewReader(string(data)))
		// A line as long as the file (bounded by limits.FactsFile): past
		// bufio's 64 KiB default the scan stopped there, and the facts
		// after it were silently left out.
		sc.Buffer(nil, len(data)+1)
		line := 0
		for sc.Scan() {
			line++
			text := strings.TrimRight(sc.Text(), "\r")
			if text == "" {
				continue
			}
			cells := strings.Split(text, "\t")
			if len(cells) != r.Arity {
				errs.Add(source.Pos{File: path, Line: line, Col: 1}, "%s has %d column(s), but this line has %d tab-separated field(s)", name, r.Arity, len(cells))
				continue
			}
			var t []rules.Value
			for i, c := range cells {
				v, err := factValue(c, columnType(m, name, i))
				if err != nil {
					errs.Add(source.Pos{File: path, Line: line, Col: colOf(text, i)}, "%v", err)
				}
				t = append(t, v)
			}
			f.tuples = append(f.tuples, t)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("input relation %s: %s:%d: %w", name, path, line+1, err)
		}
		if len(errs) > 0 {
			errs.AttachLines(path, string(data))
			return nil, errs
		}
		out = append(out, f)
	}
	return out, nil
}

func columnType(m *datalog.Model, name string, i int) string {
	for _, d := range m.Program.Decls {
		if d.Name == name && i < len(d.Params) {
			return d.Params[i].Type
		}
	}
	return ""
}

// factValue reads one field: number columns hold integers, symbol columns
// strings, and untyped or event columns integers when the field is one.
func factValue(field, typ string) (rules.Value, error) {
	n, err := strconv.ParseInt(field, 10, 64)
	switch typ {
	case "number":
		if err != nil {
			return rules.Value{}, fmt.Errorf("expected an integer in a number column, found %q", field)
		}
		return rules.Value{Kind: rules.KindInt, Int: n}, nil
	case "symbol":
		return rules.Value{Kind: rules.KindString, Str: field}, nil
	}
	if err == nil {
		return rules.Value{Kind: rules.KindInt, Int: n}, nil
	}
	return rules.Value{Kind: rules.KindString, Str: field}, nil
}

func colOf(line string, field int) int {
	col := 1
	for i := 0; i < field; i++ {
		j := strings.IndexByte(line[col-1:], '\t')
		if j < 0 {
			break
		}
		col += j + 1
	}
	return col
}

// writeOutputs writes .output relations (to DIR/NAME.csv, or stdout for
// "-") and prints .printsize relations.
func writeOutputs(inst *rules.Instance, m *datalog.Model, dir string, stdout io.Writer) error {
	dom := inst.Domain()
	for _, io := range m.IO {
		switch io.Kind {
		case datalog.IOPrintSize:
			n, err := inst.Size(io.Name)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s\t%d\n", io.Name, n)
		case datalog.IOOutput:
			tu, err := inst.Tuples(io.Name)
			if err != nil {
				return err
			}
			var b strings.Builder
			for t := range tu.All() {
				for i, a := range t {
					if i > 0 {
						b.WriteByte('\t')
					}
					v := dom.Value(a)
					if v.Kind == rules.KindString {
						b.WriteString(v.Str)
					} else {
						b.WriteString(v.String())
					}
				}
				b.WriteByte('\n')
			}
			if dir == "-" {
				fmt.Fprintf(stdout, "---------------\n%s\n===============\n%s===============\n", io.Name, b.String())
				continue
			}
			path := filepath.Join(dir, io.Name+".csv")
			if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
				return fmt.Errorf("cannot write output %s: %w", io.Name, err)
			}
		}
	}
	return nil
}

// explainFailure prints a failed check's witness as a chain of edges (the
// program's .edges relations and base relations), replaying the order
// choice it failed under; it falls back to the bare witness.
func explainFailure(inst *rules.Instance, p *rules.Program, f rules.CheckResult) string {
	for name, r := range f.Orders {
		if err := inst.SetRel(name, r); err != nil {
			return witnessText(f, inst.Domain())
		}
	}
	inst.RecordProvenance()
	edges, err := inst.ExplainCheck(f, p.StopAtEdges())
	if err != nil || len(edges) == 0 {
		return witnessText(f, inst.Domain())
	}
	dom := inst.Domain()
	var b strings.Builder
	b.WriteString(dom.Value(edges[0].From).String())
	for _, e := range edges {
		if e.Inverse {
			b.WriteString(" <-" + e.Rel + "- ")
		} else {
			b.WriteString(" -" + e.Rel + "-> ")
		}
		b.WriteString(dom.Value(e.To).String())
	}
	return b.String()
}
