package report

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// AllowedText explains one allowed outcome (checker.Allowed) as lines of
// text, indented under the outcome's line: where each read of the
// execution reaching it reads from and, for a newer write it does not
// see, what fails to order that write before it (the missing
// synchronization).
//
//	P1:ld.weak r1, data =0 reads init:data=0, not P0:st.weak data, 42, which nothing orders before it:
//	  path P0:st.weak data, 42 -po-> P0:st.weak flag, 1 -rf-> P1:ld.weak r0, flag =1 -po-> P1:ld.weak r1, data =0
//	  P0:st.weak flag, 1 -rf-> P1:ld.weak r0, flag =1 does not synchronize: no release pattern ends at the write; ...
func AllowedText(a checker.Allowed) []string {
	x := a.Execution
	var out []string
	for _, rs := range a.Reads {
		line := fmt.Sprintf("%s reads %s", x.Label(rs.Read), x.Label(rs.Write))
		if len(rs.Unordered) == 0 {
			out = append(out, line)
			continue
		}
		for i, u := range rs.Unordered {
			if i == 0 {
				out = append(out, fmt.Sprintf("%s, not %s, which nothing orders before it:", line, x.Label(u.Write)))
			} else {
				out = append(out, fmt.Sprintf("%s reads %s, not %s, which nothing orders before it:", x.Label(rs.Read), x.Label(rs.Write), x.Label(u.Write)))
			}
			for _, l := range unorderedText(x, rs.Read, u) {
				out = append(out, "  "+l)
			}
		}
	}
	return out
}

// unorderedText says why write u.Write is not ordered before read rd.
func unorderedText(x *execution.Execution, rd int, u checker.Unordered) []string {
	var out []string
	if len(u.Path) == 0 {
		out = append(out, fmt.Sprintf("no program order, reads-from or synchronization leads from %s to the read", x.Label(u.Write)))
	} else {
		out = append(out, "path "+EdgeChain(x, u.Path))
	}
	for _, h := range u.Hops {
		out = append(out, hopText(x, h))
	}
	for _, e := range u.Unordering {
		out = append(out, fmt.Sprintf("%s is not in base causality order: the model does not let this program order order the two (docs/model.md)", EdgeChain(x, []rules.Edge{e})))
	}
	if len(u.Path) > 0 && len(u.Hops) == 0 && len(u.Unordering) > 0 {
		// Said above.
	} else if len(u.Path) > 0 && len(u.Hops) == 0 && u.ProxyFence {
		out = append(out, "the path orders them in base causality order, but through different proxies: no proxy fence (fence.proxy.*) on it makes the write visible to the read's proxy")
	} else if len(u.Path) > 0 && len(u.Hops) == 0 {
		out = append(out, "the path synchronizes, but does not order the write before the read in causality order (see docs/model.md)")
	}
	if u.Race {
		out = append(out, fmt.Sprintf("%s and the read race (data_race): nothing orders them either way", x.Label(u.Write)))
	}
	return out
}

// threadName names the thread of event e.
func threadName(x *execution.Execution, e int) string {
	if t := x.Events[e].Thread; t >= 0 && t < len(x.Test.Threads) {
		return x.Test.Threads[t].Name
	}
	return "init"
}

// hopText says what keeps a reads-from step from synchronizing.
func hopText(x *execution.Execution, h checker.Hop) string {
	var why []string
	if h.NoRelease {
		why = append(why, "no release pattern ends at the write (it is not a release, and no release or acquire-release operation or fence on the path before it in its thread starts one)")
	}
	if h.NoAcquire {
		why = append(why, "no acquire pattern starts at the read (it is not an acquire, and no acquire operation or fence follows it on the path in its thread)")
	}
	var ms []string
	for _, e := range h.Weak {
		ms = append(ms, x.Label(e)+" is weak")
	}
	for _, e := range h.OutOfScope {
		other := h.Read
		if e == h.Read {
			other = h.Write
		}
		ms = append(ms, fmt.Sprintf("the scope of %s (.%s) does not include thread %s", x.Label(e), x.Events[e].Scope, threadName(x, other)))
	}
	if h.OtherProxy {
		ms = append(ms, "they access memory through different proxies")
	}
	if len(ms) > 0 {
		why = append(why, "they are not morally strong: "+strings.Join(ms, ", "))
	}
	if len(why) == 0 {
		why = append(why, "no synchronization relates the path's parts before and after it")
	}
	return fmt.Sprintf("%s -rf-> %s does not synchronize: %s", x.Label(h.Write), x.Label(h.Read), strings.Join(why, "; "))
}
