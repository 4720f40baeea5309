package rules

import (
	"context"
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
)

// Query answers a query ("?- body.") over the instance's current relations:
// it returns the body's variables in order of appearance and one row of
// atoms per answer, in ascending order. A query without variables has one
// empty row when its body holds and none otherwise. A variable spelled like
// the name of a host atom (an event "e3") stands for that atom, so a query
// can name events directly.
func (in *Instance) Query(q *datalog.Query) ([]string, [][]int, error) {
	in.Run()
	return in.query(q)
}

// QueryContext is Query under a context and a memory bound: evaluation
// stops soon after ctx is done, with ctx's error, and an answer of three or
// more variables stops at maxBytes (0: no bound) with a *MemoryError, as a
// relation of a limited instance does (NewLimitedInstance). A query over
// many variables can otherwise join without end: nine atoms over the
// events of a litmus test took a server to 9 GB.
func (in *Instance) QueryContext(ctx context.Context, q *datalog.Query, maxBytes int64) (vars []string, rows [][]int, err error) {
	saved := in.mem
	defer func() { in.mem.limits = saved.limits }()
	if maxBytes > 0 && (!in.mem.bounded() || maxBytes < in.mem.limits.MaxBytes) {
		in.mem.limits.MaxBytes = maxBytes
	}
	var qerr error
	if err := in.guarded(ctx, func() {
		in.run()
		vars, rows, qerr = in.query(q)
	}); err != nil {
		return nil, nil, err
	}
	return vars, rows, qerr
}

// query answers q over relations already up to date.
func (in *Instance) query(q *datalog.Query) ([]string, [][]int, error) {
	q, hostConsts := in.bindHostNames(q)
	var vars []string
	seen := map[string]bool{}
	bound := map[string]bool{}
	head := &datalog.Atom{Pred: "?-", Pos: q.Pos}
	for _, l := range q.Body {
		var args []datalog.Term
		switch l := l.(type) {
		case *datalog.Atom:
			id, ok := in.p.byName[l.Pred]
			if !ok {
				return nil, nil, fmt.Errorf("%s: unknown relation %s", l.Pos, l.Pred)
			}
			if ar := in.p.rels[id].arity; ar != len(l.Args) {
				return nil, nil, fmt.Errorf("%s: %s has %d column(s) but the query gives %d", l.Pos, l.Pred, ar, len(l.Args))
			}
			args = l.Args
			if !l.Negated {
				for _, t := range l.Args {
					if t.Kind == datalog.TermVar {
						bound[t.Name] = true
					}
				}
			}
		case *datalog.Compare:
			args = []datalog.Term{l.L, l.R}
		}
		for _, t := range args {
			if t.Kind == datalog.TermVar && !seen[t.Name] {
				seen[t.Name] = true
				vars = append(vars, t.Name)
				head.Args = append(head.Args, t)
			}
		}
	}
	for _, v := range vars {
		if !bound[v] {
			return nil, nil, fmt.Errorf("%s: variable %s is not bound by a positive atom of the query", q.Pos, v)
		}
	}
	rule := &datalog.Rule{Head: head, Body: q.Body, Pos: q.Pos}
	rp := &rulePlan{rule: rule, head: -1, litRel: make([]relID, len(q.Body))}
	for i, l := range q.Body {
		rp.litRel[i] = -1
		if a, ok := l.(*datalog.Atom); ok {
			rp.litRel[i] = in.p.byName[a.Pred]
		}
	}
	rp.join = compileJoin(in.p, rp)
	atoms := make([]int, len(rp.consts))
	for i, c := range rp.consts {
		a, ok := in.dom.Lookup(c)
		if h, isHost := hostConsts[c]; isHost {
			a, ok = h, true
		}
		if !ok {
			return nil, nil, fmt.Errorf("%s: the constant %s is not in the domain", q.Pos, c)
		}
		atoms[i] = a
	}
	in.ruleConsts[rp] = atoms
	defer delete(in.ruleConsts, rp)
	dst := newStore(len(vars), in.n)
	saved := in.prov.recording
	in.prov.recording = false
	in.evalJoin(rp, -1, dst)
	in.prov.recording = saved
	var rows [][]int
	dst.each(func(t []int) bool {
		rows = append(rows, append([]int(nil), t...))
		return true
	})
	return vars, rows, nil
}

// hostMarker prefixes the string constants that stand for host atoms in a
// rewritten query; no string the lexer reads can contain it.
const hostMarker = "\x00host:"

// bindHostNames rewrites the variables of a query that name host atoms into
// constants denoting those atoms.
func (in *Instance) bindHostNames(q *datalog.Query) (*datalog.Query, map[Value]int) {
	consts := map[Value]int{}
	rewrite := func(t datalog.Term) datalog.Term {
		if t.Kind != datalog.TermVar {
			return t
		}
		a, ok := in.dom.Lookup(Value{Kind: KindHost, Str: t.Name})
		if !ok {
			return t
		}
		c := datalog.Term{Kind: datalog.TermString, Name: hostMarker + t.Name, Pos: t.Pos}
		consts[termValue(c)] = a
		return c
	}
	out := &datalog.Query{Pos: q.Pos}
	for _, l := range q.Body {
		switch l := l.(type) {
		case *datalog.Atom:
			a := *l
			a.Args = make([]datalog.Term, len(l.Args))
			for i, t := range l.Args {
				a.Args[i] = rewrite(t)
			}
			out.Body = append(out.Body, &a)
		case *datalog.Compare:
			c := *l
			c.L, c.R = rewrite(l.L), rewrite(l.R)
			out.Body = append(out.Body, &c)
		}
	}
	return out, consts
}
