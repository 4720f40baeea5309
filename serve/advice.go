package serve

import (
	"github.com/ptxmm/ptxmm/internal/lazyregexp"
)

// A limit's message ends "raise it with -FLAG" (or, for the size of a
// request, says to start ptxmm serve "with a larger -FLAG"): advice for a ptxmm check
// user, who owns the flag. The page's user does not own the server's
// flags, so an answer that reached a limit also says what they can do.

// raiseFlag finds the flag a limit's message names.
var raiseFlag = lazyregexp.New(`(?:raise it with|with a larger) (-[a-z-]+)`)

// limitHelp says, per flag, what the limit bounds and how a page user
// stays within it.
var limitHelp = map[string]struct{ what, smaller string }{
	"-max-candidates": {"the number of candidate executions it checks per test", "make the test smaller: fewer threads, fewer loads and stores, fewer values a read may see"},
	"-timeout":        {"the time it spends on one request", "make the test smaller, or draw fewer relations"},
	"-max-memory":     {"the memory requests may take", "make the test smaller, or try again when the server is less busy"},
	"-max-test-size":  {"the instructions and memory locations of one test", "make the test smaller"},
	"-max-runs":       {"the runs one thread may have", "give each thread fewer branches"},
	"-unroll":         {"how many times a loop is unrolled", "give the loops fewer iterations"},
	"-max-request":    {"the size of a request", "send a shorter test or model"},
}

// limitAdvice is what a page user can do about the limit msg names, or ""
// when msg names none.
func limitAdvice(msg string) string {
	m := raiseFlag().FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	flag := m[1]
	help, ok := limitHelp[flag]
	if !ok {
		help.what, help.smaller = "what one request may do", "make the test smaller"
	}
	return "This server limits " + help.what + " (its " + flag + " flag, set by whoever started ptxmm serve). " +
		"To stay within it, " + help.smaller + "; or check the test with ptxmm check on your own machine, where " + flag + " is yours to raise."
}
