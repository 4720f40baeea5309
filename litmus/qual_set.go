package litmus

import (
	"slices"
	"strings"
)

// This file sorts the qualifiers of the instructions that take a fixed set
// of them (mbarrier, barrier.cluster, the asynchronous copies, wgmma): each
// qualifier is looked up in the sets the instruction allows, and anything
// else is reported with the list of what the instruction accepts.

// qualKind names a group of qualifiers an instruction accepts.
type qualKind int

const (
	qkSem qualKind = iota
	qkScope
	qkSpace
	qkType
	qkFlag // anything else the instruction names explicitly
)

// qualSpec is what one instruction accepts.
type qualSpec struct {
	mn     string // the instruction as named in messages, e.g. "mbarrier.arrive"
	sems   []Sem
	scopes []Scope
	spaces []SpaceQual
	types  bool     // data types such as .b64 are accepted and ignored
	flags  []string // further qualifiers it accepts (e.g. "aligned")
	// ignored are qualifiers accepted and ignored, matched by prefix
	// (shapes and types: "m64n", "f16").
	ignored []string
}

// sortedQuals is the outcome of sorting an instruction's qualifiers.
type sortedQuals struct {
	sem    Sem
	semQ   *qual
	scope  Scope
	scopeQ *qual
	space  SpaceQual
	spaceQ *qual
	flags  map[string]*qual
}

// sortQuals sorts qs against spec, reporting unknown, repeated and
// disallowed qualifiers.
func (p *parser) sortQuals(qs []qual, spec qualSpec) (sortedQuals, bool) {
	out := sortedQuals{flags: map[string]*qual{}}
	ok := true
	for i := range qs {
		x := &qs[i]
		if s, isSem := semOf(x.name); isSem {
			switch {
			case !slices.Contains(spec.sems, s):
				p.errorf(x.off, "%s cannot be .%s: %s", spec.mn, x.name, allowedSems(spec.sems))
				ok = false
			case out.semQ != nil:
				p.errorf(x.off, "%s has two memory-order qualifiers, .%s and .%s", spec.mn, out.semQ.name, x.name)
				ok = false
			default:
				out.sem, out.semQ = s, x
			}
			continue
		}
		if s, isScope := scopeOf(x.name); isScope {
			switch {
			case !slices.Contains(spec.scopes, s):
				p.errorf(x.off, "%s cannot be .%s: %s", spec.mn, x.name, allowedScopes(spec.scopes))
				ok = false
			case out.scopeQ != nil:
				p.errorf(x.off, "%s has two scopes, .%s and .%s", spec.mn, out.scopeQ.name, x.name)
				ok = false
			default:
				out.scope, out.scopeQ = s, x
			}
			continue
		}
		if sq, isSpace := spaceQualOf(x.name); isSpace {
			switch {
			case !slices.Contains(spec.spaces, sq):
				p.errorf(x.off, "%s cannot use .%s: %s", spec.mn, x.name, allowedSpaces(spec.spaces))
				ok = false
			case out.spaceQ != nil:
				p.errorf(x.off, "%s has two state spaces, .%s and .%s", spec.mn, out.spaceQ.name, x.name)
				ok = false
			default:
				out.space, out.spaceQ = sq, x
			}
			continue
		}
		if spec.types && isTypeQual(x.name) {
			continue
		}
		if slices.Contains(spec.flags, x.name) {
			if out.flags[x.name] != nil {
				p.errorf(x.off, "%s has .%s twice", spec.mn, x.name)
				ok = false
			}
			out.flags[x.name] = x
			continue
		}
		if slices.ContainsFunc(spec.ignored, func(pre string) bool { return strings.HasPrefix(x.name, pre) }) {
			continue
		}
		p.errorf(x.off, "unknown qualifier .%s on %s: expected %s", x.name, spec.mn, spec.describe())
		ok = false
	}
	return out, ok
}

// describe lists what an instruction accepts, for "unknown qualifier".
func (spec qualSpec) describe() string {
	var parts []string
	if len(spec.sems) > 0 {
		parts = append(parts, "a memory order ("+semList(spec.sems)+")")
	}
	if len(spec.scopes) > 0 {
		parts = append(parts, "a scope ("+scopeList(spec.scopes)+")")
	}
	if len(spec.spaces) > 0 {
		parts = append(parts, "a state space ("+spaceList(spec.spaces)+")")
	}
	for _, f := range spec.flags {
		parts = append(parts, "."+f)
	}
	if spec.types {
		parts = append(parts, "a type such as .b64")
	}
	if len(parts) == 0 {
		return "no qualifier"
	}
	return orList(parts)
}

func allowedSems(s []Sem) string {
	if len(s) == 0 {
		return "it takes no memory order"
	}
	return "expected " + semList(s)
}

func allowedScopes(s []Scope) string {
	if len(s) == 0 {
		return "it takes no scope"
	}
	return "expected " + scopeList(s)
}

func allowedSpaces(s []SpaceQual) string {
	if len(s) == 0 {
		return "it takes no state space"
	}
	return "expected " + spaceList(s)
}

func scopeList(scopes []Scope) string {
	var names []string
	for _, s := range scopes {
		names = append(names, "."+s.String())
	}
	return orList(names)
}

func spaceList(spaces []SpaceQual) string {
	var names []string
	for _, s := range spaces {
		names = append(names, "."+s.String())
	}
	return orList(names)
}

// spaceQualOf reads a state-space qualifier: .global, .shared (the
// executing CTA's shared memory, like .shared::cta), .shared::cta and
// .shared::cluster.
func spaceQualOf(s string) (SpaceQual, bool) {
	switch s {
	case "global":
		return SpaceQGlobal, true
	case "shared", "shared::cta":
		return SpaceQShared, true
	case "shared::cluster":
		return SpaceQCluster, true
	}
	return SpaceQNone, false
}
