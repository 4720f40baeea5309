// Package herdlog reads herd logs, the text herd7 and ptxmm check print and
// herdtools7's log tools (msum7, mcompare7) read, and unions several of
// them into one: the logs of the shards of a run split across machines
// (ptxmm check -shard), or of separate runs.
//
// The reader follows the rules of herd's log lexer (herdtools7,
// tools/lexLog_tools.mll): a log is a sequence of test blocks, each
// "Test NAME [KIND]", lines up to "States N" (or "Histogram (N states)"),
// one line per final state, the validation line (Ok, No, Undef, ..., after
// "Loop " when a run was cut), "Witnesses" and "Positive: p Negative: n",
// "Flag" lines, the "Condition", and "Hash=", "Time" and other "Key NAME
// ..." lines; every line outside a block is skipped. Where herd's lexer
// stops, the reader fails with file:line:col. Where herd's lexer silently
// loses a test's data (a log cut short in the middle of a block, a
// "Witnesses" line without its counts, a "States N" line followed by
// another number of states, a garbled Test line or a States line without
// one, which herd's lexer passes over with the test's whole block), the
// reader fails too: a merge must not pass over a broken log. A Test line
// right after a block without hash lines starts a test (herd's lexer would
// read it as a hash line and lose the test).
//
// ptxmm adds to the format only lines herd's lexer skips: its own notes
// after a block's hash lines, "Error NAME: message" for a test that could
// not be checked, and the shard header "# ptxmm shard=I/N ..." that starts
// the log of one shard (see Shard).
package herdlog
