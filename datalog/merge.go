package datalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/internal/scc"
)

// MergePrefix starts the name a relation or check of the second model of a
// merge takes when the first has none like it. The $ keeps it out of the
// names a user can write.
const MergePrefix = "b$"

// Merged is two checked models made into one program: a relation of the
// second model whose definition is the same as one of the first's (the
// same rules over relations that are themselves the same, found by hashing
// the definitions bottom-up, names aside) is the first's relation; the
// other relations of the second model are renamed apart (MergePrefix), so
// that one evaluation computes what the two models have in common once and
// the rest of each.
type Merged struct {
	// Model holds every relation and rule of both models, the first
	// model's orders, and the checks (axioms, flags, .undefined tests) of
	// both: the first model's under their names, and those of the second
	// model that the first has not (OnlyB) renamed apart.
	Model *Model
	// Rename maps each relation of the second model to its name in Model.
	Rename map[string]string
	// Shared, OnlyA and OnlyB are the checks' names in Model: those both
	// models have (the same kind, mode and relation; under the first
	// model's name), those of the first model only and those of the second
	// only (renamed).
	Shared, OnlyA, OnlyB []string
	// Copied counts the relations of the second model renamed apart,
	// which the merged program evaluates on top of the first model's.
	Copied int
	// OrderFree holds the checks of Model (by name) whose relation reads
	// no .order relation: a candidate's verdict on them is the same under
	// every choice of the orders.
	OrderFree map[string]bool
	// OrdersDiffer says why the models' .order relations cannot be chosen
	// once for both (an order of one model that the other has not, the
	// same); empty when every order is shared. Model then holds the first
	// model's orders only, and is evaluated for the first model's orders.
	OrdersDiffer string
}

// WithChecks returns a copy of the merged model that keeps only the checks
// named (of Model's), for a host that searches the orders against some of
// them and evaluates the others itself. The relations and rules are
// shared with m.Model.
func (m *Merged) WithChecks(names []string) *Model {
	out := *m.Model
	out.Checks = nil
	for _, c := range m.Model.Checks {
		if slices.Contains(names, c.Name) {
			out.Checks = append(out.Checks, c)
		}
	}
	return &out
}

// Merge makes one program of two checked models (see Merged). Neither is
// changed. The merge of a model with itself is the model, with every check
// shared and no relation copied.
func Merge(a, b *Model) *Merged {
	ha, hb := definitionHashes(a), definitionHashes(b)
	byHash := map[string]string{}
	for _, n := range a.Names {
		if _, ok := byHash[ha[n]]; !ok {
			byHash[ha[n]] = n
		}
	}
	out := &Model{Relations: map[string]*Relation{}, Program: a.Program, Edges: a.Edges, Show: a.Show}
	for _, n := range a.Names {
		out.Relations[n] = a.Relations[n]
		out.Names = append(out.Names, n)
	}
	taken := func(n string) bool { _, ok := out.Relations[n]; return ok }
	rename := map[string]string{}
	for _, n := range b.Names {
		r := b.Relations[n]
		if an, ok := byHash[hb[n]]; ok {
			rename[n] = an
			continue
		}
		if r.Kind == RelInput && !taken(n) {
			// An input only the second model reads keeps its name: the
			// host fills inputs by name.
			rename[n] = n
			out.Relations[n] = r
			out.Names = append(out.Names, n)
			continue
		}
		name := MergePrefix + n
		for taken(name) {
			name = MergePrefix + name
		}
		rename[n] = name
		c := *r
		c.Name = name
		if c.Owner != "" {
			c.Owner = MergePrefix + c.Owner
		}
		out.Relations[name] = &c
		out.Names = append(out.Names, name)
	}
	m := &Merged{Model: out, Rename: rename}
	out.Rules = append(out.Rules, a.Rules...)
	for _, r := range b.Rules {
		if _, shared := byHash[hb[r.Head.Pred]]; !shared {
			out.Rules = append(out.Rules, renameRule(r, rename))
		}
	}
	for _, n := range b.Names {
		if _, shared := byHash[hb[n]]; !shared && b.Relations[n].Kind != RelInput {
			m.Copied++
		}
	}
	out.Orders = a.Orders
	var differ []string
	for _, o := range b.Orders {
		if rename[o.Name] != o.Name {
			// Chosen apart: the merged program is then the conjunction of
			// the two models, with an order search for each.
			c := *o
			c.Name, c.Over = rename[o.Name], rename[o.Over]
			out.Orders = append(slices.Clip(out.Orders), &c)
			differ = append(differ, fmt.Sprintf("the second model's .order %s over %s is not the first's", o.Name, o.Over))
		}
	}
	for _, o := range a.Orders {
		if !slices.ContainsFunc(b.Orders, func(p *Order) bool { return rename[p.Name] == o.Name }) {
			differ = append(differ, fmt.Sprintf("the first model's .order %s over %s is not the second's", o.Name, o.Over))
		}
	}
	m.OrdersDiffer = strings.Join(differ, "; ")
	bChecks := map[string]*Check{}
	for _, c := range b.Checks {
		bChecks[checkKey(c, rename[c.Rel])] = c
	}
	sharedB := map[*Check]bool{}
	for _, c := range a.Checks {
		out.Checks = append(out.Checks, c)
		if bc, ok := bChecks[checkKey(c, c.Rel)]; ok && bc.Name == c.Name && !sharedB[bc] {
			sharedB[bc] = true
			m.Shared = append(m.Shared, c.Name)
		} else {
			m.OnlyA = append(m.OnlyA, c.Name)
		}
	}
	for _, c := range b.Checks {
		if sharedB[c] {
			continue
		}
		cc := *c
		cc.Name = MergePrefix + c.Name
		cc.Rel = rename[c.Rel]
		out.Checks = append(out.Checks, &cc)
		m.OnlyB = append(m.OnlyB, cc.Name)
	}
	m.OrderFree = orderFree(out)
	return m
}

// orderFree finds the checks of m whose relation reads no .order relation,
// directly or through other relations.
func orderFree(m *Model) map[string]bool {
	ordered := map[string]bool{}
	for _, o := range m.Orders {
		ordered[o.Name] = true
	}
	for changed := true; changed; {
		changed = false
		for _, r := range m.Rules {
			if ordered[r.Head.Pred] {
				continue
			}
			for _, l := range r.Body {
				if at, ok := l.(*Atom); ok && ordered[at.Pred] {
					ordered[r.Head.Pred] = true
					changed = true
					break
				}
			}
		}
	}
	out := map[string]bool{}
	for _, c := range m.Checks {
		if !ordered[c.Rel] {
			out[c.Name] = true
		}
	}
	return out
}

// checkKey identifies a check by what it tests: its kind, its mode and
// the relation it tests (by its name in the merged model).
func checkKey(c *Check, rel string) string {
	return fmt.Sprintf("%d/%d/%s", c.Kind, c.Mode, rel)
}

// renameRule copies a rule of the second model with its relations named
// as in the merged model.
func renameRule(r *Rule, rename map[string]string) *Rule {
	c := *r
	c.Head = renameAtom(r.Head, rename)
	c.Body = make([]Literal, len(r.Body))
	for i, l := range r.Body {
		if at, ok := l.(*Atom); ok {
			c.Body[i] = renameAtom(at, rename)
		} else {
			c.Body[i] = l
		}
	}
	if c.Origin != "" {
		c.Origin = MergePrefix + c.Origin
	}
	return &c
}

func renameAtom(a *Atom, rename map[string]string) *Atom {
	c := *a
	if n, ok := rename[a.Pred]; ok {
		c.Pred = n
	}
	return &c
}

// definitionHashes hashes each relation's definition bottom-up: an input
// by its name and arity, an order by its name and the hash of its pairs,
// a derived relation by its rules, each written with its variables
// numbered in order of appearance and its atoms' relations replaced by
// their hashes (a relation's own atoms by "self"). Relations of one
// recursive component of several are hashed together: inside it, an atom
// names its relation, and each member's hash is the component's with the
// member's name. Two relations with the same hash
// have the same tuples in every evaluation over the same inputs and
// orders.
func definitionHashes(m *Model) map[string]string {
	ids := map[string]int{}
	for i, n := range m.Names {
		ids[n] = i
	}
	rules := map[string][]*Rule{}
	succ := make([][]int, len(m.Names))
	for _, r := range m.Rules {
		h := r.Head.Pred
		rules[h] = append(rules[h], r)
		for _, l := range r.Body {
			if at, ok := l.(*Atom); ok {
				if j, ok := ids[at.Pred]; ok {
					succ[ids[h]] = append(succ[ids[h]], j)
				}
			}
		}
	}
	for _, o := range m.Orders {
		if j, ok := ids[o.Over]; ok {
			succ[ids[o.Name]] = append(succ[ids[o.Name]], j)
		}
	}
	hash := map[string]string{}
	// Components come dependencies first (Tarjan's order).
	for _, comp := range scc.Components(succ, func(v int) int { return v }) {
		member := map[string]bool{}
		for _, v := range comp {
			member[m.Names[v]] = true
		}
		var texts []string
		for _, v := range comp {
			n := m.Names[v]
			texts = append(texts, n+"="+definitionText(m, n, rules[n], hash, member, len(comp) > 1 || selfLoop(succ[v], v)))
		}
		slices.Sort(texts)
		whole := strings.Join(texts, "\n")
		for _, v := range comp {
			n := m.Names[v]
			if len(comp) == 1 {
				hash[n] = digest(texts[0][len(n)+1:])
			} else {
				hash[n] = digest(n + "@" + whole)
			}
		}
	}
	return hash
}

func selfLoop(succ []int, v int) bool { return slices.Contains(succ, v) }

func digest(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:12])
}

// definitionText writes a relation's definition with the relations it
// reads by hash (by name inside its recursive component).
func definitionText(m *Model, name string, rs []*Rule, hash map[string]string, member map[string]bool, recursive bool) string {
	r := m.Relations[name]
	switch r.Kind {
	case RelInput:
		return fmt.Sprintf("input %s/%d", name, r.Arity)
	case RelUniverse:
		return "universe"
	case RelOrder:
		for _, o := range m.Orders {
			if o.Name == name {
				return fmt.Sprintf("order %s/%d over %s partial=%v", name, r.Arity, hash[o.Over], o.Partial)
			}
		}
		return fmt.Sprintf("order %s/%d", name, r.Arity)
	}
	ref := func(p string) string {
		if p == "" {
			return "head"
		}
		if recursive && member[p] {
			if len(member) == 1 {
				return "self"
			}
			return "rec:" + p
		}
		if h, ok := hash[p]; ok {
			return h
		}
		return "?" + p
	}
	var texts []string
	for _, rule := range rs {
		texts = append(texts, canonicalRule(rule, ref))
	}
	slices.Sort(texts)
	return fmt.Sprintf("derived/%d{%s}", r.Arity, strings.Join(texts, ";"))
}

// canonicalRule writes a rule with its variables numbered in order of
// appearance and its atoms' relations written by ref.
func canonicalRule(r *Rule, ref func(string) string) string {
	vars := map[string]int{}
	term := func(t Term) string {
		switch t.Kind {
		case TermVar:
			if _, ok := vars[t.Name]; !ok {
				vars[t.Name] = len(vars)
			}
			return fmt.Sprintf("v%d", vars[t.Name])
		case TermWildcard:
			return "_"
		case TermString:
			return fmt.Sprintf("%q", t.Name)
		default:
			return fmt.Sprintf("%d", t.Int)
		}
	}
	atom := func(a *Atom) string {
		var b strings.Builder
		if a.Negated {
			b.WriteString("!")
		}
		b.WriteString(ref(a.Pred))
		b.WriteString("(")
		for i, t := range a.Args {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(term(t))
		}
		b.WriteString(")")
		return b.String()
	}
	var b strings.Builder
	head := *r.Head
	head.Pred = ""
	b.WriteString(atom(&head))
	b.WriteString(":-")
	for i, l := range r.Body {
		if i > 0 {
			b.WriteString(",")
		}
		switch l := l.(type) {
		case *Atom:
			b.WriteString(atom(l))
		case *Compare:
			b.WriteString(term(l.L) + l.Op + term(l.R))
		}
	}
	return b.String()
}
