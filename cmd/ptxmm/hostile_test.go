package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// hostile is one hostile input given to a command in process: what it
// must answer (exit status, a piece of its error), within a time and an
// allocation bound.
type hostile struct {
	name string
	run  func([]string) int
	// args are the command's arguments; "DIR/" is replaced by the
	// case's folder, which setup fills.
	args   []string
	setup  func(t *testing.T, dir string)
	status int
	stderr string
	// maxAlloc bounds the bytes the command allocates, all of it
	// (default 256 MiB); limit bounds its time (default 30 s).
	maxAlloc uint64
	limit    time.Duration
	// maxStderr bounds what it writes to stderr (default 64 KiB).
	maxStderr int
	// stdout is a piece of what it must print, and after checks what
	// it left in its folder.
	stdout string
	after  func(t *testing.T, dir string)
}

// mkfifo makes a named pipe: opening one for reading waits for a writer.
func mkfifo(name string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, name), 0o644))
	}
}

// files writes files into the case's folder.
func files(kv ...string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		for i := 0; i+1 < len(kv); i += 2 {
			p := filepath.Join(dir, kv[i])
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			if kv[i+1] == "<fifo>" {
				require.NoError(t, syscall.Mkfifo(p, 0o644))
				continue
			}
			require.NoError(t, os.WriteFile(p, []byte(kv[i+1]), 0o644))
		}
	}
}

// runHostile runs one case with stdout and stderr caught, and checks it.
// A case still running at its time limit fails; the named pipes of its
// folder are then opened for writing, so that a command waiting on one
// can end before the next case.
func runHostile(t *testing.T, c hostile) {
	dir := t.TempDir()
	if c.setup != nil {
		c.setup(t, dir)
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		args[i] = strings.ReplaceAll(a, "DIR/", dir+"/")
	}
	limit, maxAlloc := c.limit, c.maxAlloc
	if limit == 0 {
		limit = 30 * time.Second
	}
	if maxAlloc == 0 {
		maxAlloc = 256 << 20
	}
	out, err := os.Create(filepath.Join(t.TempDir(), "stdout"))
	require.NoError(t, err)
	errf, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	require.NoError(t, err)
	stdout, stderr, stdin := os.Stdout, os.Stderr, os.Stdin
	os.Stdout, os.Stderr = out, errf
	devnull, err := os.Open(os.DevNull)
	require.NoError(t, err)
	os.Stdin = devnull
	defer func() { os.Stdout, os.Stderr, os.Stdin = stdout, stderr, stdin; devnull.Close() }()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	done := make(chan int, 1)
	go func() { done <- c.run(args) }()
	var status int
	select {
	case status = <-done:
	case <-time.After(limit):
		unblockPipes(dir)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		os.Stdout, os.Stderr, os.Stdin = stdout, stderr, stdin
		t.Fatalf("%s: still running after %s", c.name, limit)
	}
	runtime.ReadMemStats(&after)
	os.Stdout, os.Stderr, os.Stdin = stdout, stderr, stdin
	msg, err := os.ReadFile(errf.Name())
	require.NoError(t, err)
	printed, err := os.ReadFile(out.Name())
	require.NoError(t, err)
	assert.Contains(t, string(printed), c.stdout, "%s: stdout", c.name)
	if c.after != nil {
		c.after(t, dir)
	}
	assert.Equal(t, c.status, status, "%s: exit status; stderr:\n%s", c.name, msg)
	assert.Contains(t, string(msg), strings.ReplaceAll(c.stderr, "DIR/", dir+"/"), "%s: stderr", c.name)
	assert.NotContains(t, string(msg), "panic", c.name)
	maxStderr := c.maxStderr
	if maxStderr == 0 {
		maxStderr = 64 << 10
	}
	assert.LessOrEqual(t, len(msg), maxStderr, "%s: wrote %d bytes to stderr", c.name, len(msg))
	alloc := after.TotalAlloc - before.TotalAlloc
	assert.LessOrEqual(t, alloc, maxAlloc, "%s: allocated %d MiB", c.name, alloc>>20)
}

// unblockPipes opens every named pipe of dir for writing and closes it,
// so that a reader blocked opening one goes on (and reads nothing).
func unblockPipes(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type()&os.ModeNamedPipe != 0 {
			if f, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
		}
		return nil
	})
}

// TestHostileFiles: every file ptxmm reads goes through one reader that
// refuses what is not a regular file without opening it (a named pipe
// waits for a writer; /dev/zero never ends) and bounds its size.
func TestHostileFiles(t *testing.T) {
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	sc := filepath.Join("..", "..", "examples", "datalog", "sc.dl")
	const pipe = "a named pipe, not a regular file"
	const device = "a device, not a regular file"
	cases := []hostile{
		{name: "graph of a pipe", run: runGraph, args: []string{"DIR/p.litmus"}, setup: mkfifo("p.litmus"), status: cli.ExitError, stderr: pipe},
		{name: "repl of a pipe", run: runRepl, args: []string{"DIR/p.litmus"}, setup: mkfifo("p.litmus"), status: cli.ExitError, stderr: pipe},
		{name: "check @LIST of a pipe", run: runCheck, args: []string{"@DIR/tests"}, setup: mkfifo("tests"), status: cli.ExitError, stderr: pipe},
		{name: "check -conf of a pipe", run: runCheck, args: []string{"-conf", "DIR/herd.cfg", mp}, setup: mkfifo("herd.cfg"), status: cli.ExitError, stderr: pipe},
		{name: "check -expect of a pipe", run: runCheck, args: []string{"-expect", "DIR/e.csv", mp}, setup: mkfifo("e.csv"), status: cli.ExitError, stderr: pipe},
		{name: "check -kinds of a pipe", run: runCheck, args: []string{"-kinds", "DIR/kinds.txt", mp}, setup: mkfifo("kinds.txt"), status: cli.ExitError, stderr: pipe},
		{name: "merge of a pipe", run: runMerge, args: []string{"DIR/run.log"}, setup: mkfifo("run.log"), status: cli.ExitError, stderr: pipe},
		{name: "eval -F with a pipe", run: runEval, args: []string{sc, "-F", "DIR/", "-D", "-"},
			setup: files("po.facts", "<fifo>", "rf.facts", "", "co.facts", ""), status: cli.ExitError, stderr: pipe},
		{name: "check a test in a list that is a pipe", run: runCheck, args: []string{"@DIR/tests"},
			setup: files("tests", "p.litmus\n", "p.litmus", "<fifo>"), status: cli.ExitError, stderr: "not a regular file"},
		{name: "graph of /dev/zero", run: runGraph, args: []string{"/dev/zero"}, status: cli.ExitError, stderr: "unsupported file extension"},
		{name: "graph of a link to /dev/zero", run: runGraph, args: []string{"DIR/z.litmus"},
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "z.litmus")))
			},
			status: cli.ExitError, stderr: device},
		{name: "repl of a link to /dev/zero", run: runRepl, args: []string{"DIR/z.test"},
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "z.test")))
			},
			status: cli.ExitError, stderr: device},
		{name: "check -conf /dev/zero", run: runCheck, args: []string{"-conf", "/dev/zero", mp}, status: cli.ExitError, stderr: device},
		{name: "merge /dev/zero", run: runMerge, args: []string{"/dev/zero"}, status: cli.ExitError, stderr: device},
		{name: "check @/dev/zero", run: runCheck, args: []string{"@/dev/zero"}, status: cli.ExitError, stderr: device},
		{name: "check -expect /dev/null", run: runCheck, args: []string{"-expect", "/dev/null", mp}, status: cli.ExitError, stderr: device},
		{name: "graph of a test too large", run: runGraph, args: []string{"DIR/big.litmus"},
			setup: func(t *testing.T, dir string) {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "big.litmus"), make([]byte, 9<<20), 0o644))
			},
			status: cli.ExitError, stderr: "the file has 9.00 MiB, more than the 8.00 MiB a test file may have"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runHostile(t, c) })
	}
}

// TestHostileDiagnostics: diagnostics are capped ("too many errors"),
// quoted lines are cut around the caret, and control characters in them
// are escaped.
func TestHostileDiagnostics(t *testing.T) {
	cases := []hostile{
		{name: "a row of 4000 bad cells", run: runCheck, args: []string{"DIR/wide.litmus"}, setup: files("wide.litmus", threadsTest(4000, "bogus.op r0")),
			status: cli.ExitError, stderr: "too many errors (only the first 10 are shown)", maxStderr: 8 << 10},
		{name: "a model of 5000 bad lines", run: runCheck, args: []string{"-model", "DIR/bad.dl", "../../examples/MP.litmus"},
			setup: files("bad.dl", badRules(5000)), status: cli.ExitError, stderr: "too many errors", maxStderr: 8 << 10},
		{name: "escape sequences in a test", run: runCheck, args: []string{"DIR/esc.litmus"},
			setup:  files("esc.litmus", "PTX E\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.u32 x\x1b]0;pwned\x07\x1b[2J, 1 ;\nexists (x == 1)\n"),
			status: cli.ExitError, stderr: `st.u32 x\x1b]0;pwned\x07\x1b[2J, 1 ;`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runHostile(t, c) })
	}
}

// badRules is a model of n rules over relations never declared: n errors.
func badRules(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "p%d(X) :- q%d(X).\n", i, i)
	}
	return b.String()
}

// pathsTest is one thread of k loads, each followed by a branch around a
// store: 2^k paths to explore before the first candidate.
func pathsTest(k int) string {
	var b strings.Builder
	b.WriteString("PTX Paths\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n")
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, " ld.weak r%d, x ;\n beq r%d, 1, L%d ;\n st.weak y, %d ;\n L%d: ;\n", i, i, i, i, i)
	}
	return b.String() + "exists (y == 1)\n"
}

// herdTable is a herd test of n threads whose rows hold, for thread i,
// row(i) of each row function. A row of 4000 unknown instructions wrote
// one diagnostic per cell, each quoting the whole row: hundreds of
// megabytes.
func herdTable(n int, cond string, rows ...func(i int) string) string {
	var b strings.Builder
	b.WriteString("PTX T\n{ x=0; }\n")
	for _, row := range append([]func(int) string{func(i int) string { return fmt.Sprintf("P%d@cta 0,gpu 0", i) }}, rows...) {
		cells := make([]string, n)
		for i := range cells {
			cells[i] = row(i)
		}
		b.WriteString(strings.Join(cells, " | ") + " ;\n")
	}
	return b.String() + cond + "\n"
}

// threadsTest is n threads of one instruction each.
func threadsTest(n int, instr string) string {
	return herdTable(n, "exists (x == 1)", func(int) string { return instr })
}

// storeLoadThreads is n threads that each store to x and load it: 9^8
// candidates for eight, which the REPL kept until it had 10.7 GB.
func storeLoadThreads(n int) string {
	return herdTable(n, "exists (P0:r0 == 0)", func(i int) string { return fmt.Sprintf("st.weak x, %d", i+1) },
		func(int) string { return "ld.weak r0, x" })
}

// storesThread is one thread of n stores to x.
func storesThread(n int) string {
	return "PTX S\n{ x=0; }\n P0@cta 0,gpu 0 ;\n" + strings.Repeat(" st.weak x, 1 ;\n", n) + "exists (x == 1)\n"
}

// TestHostileSizes: parsing, the exploration of the paths and the first
// candidate honour -timeout and -max-memory, and the bound on the
// instructions of a run names its flag.
func TestHostileSizes(t *testing.T) {
	cases := []hostile{
		{name: "2^18 paths under -timeout 300ms", run: runCheck, args: []string{"-timeout", "300ms", "DIR/paths.litmus"},
			setup: files("paths.litmus", pathsTest(18)), status: cli.ExitError,
			stderr: "checking took longer than the time limit of 300ms; raise it with -timeout", limit: 10 * time.Second, maxAlloc: 512 << 20},
		{name: "2^18 paths under -max-memory 64MiB", run: runCheck, args: []string{"-max-memory", "64MiB", "DIR/paths.litmus"},
			setup: files("paths.litmus", pathsTest(18)), status: cli.ExitError,
			stderr: "over the memory limit of 64.0 MiB; raise it with -max-memory", limit: 10 * time.Second, maxAlloc: 512 << 20},
		{name: "200,000 threads under -max-memory 512MiB", run: runCheck, args: []string{"-max-memory", "512MiB", "DIR/threads.litmus"},
			setup: files("threads.litmus", threadsTest(200_000, "st.weak x, 1")), status: cli.ExitError,
			stderr: "of memory, over the memory limit of 512 MiB; raise it with -max-memory", limit: 10 * time.Second},
		{name: "repl keeps candidates within -max-memory", run: runRepl, args: []string{"-max-memory", "64MiB", "DIR/sl8.litmus"},
			setup: files("sl8.litmus", storeLoadThreads(8)), status: cli.ExitError,
			stderr: "the candidate executions kept to list them (", limit: 20 * time.Second, maxAlloc: 1 << 30},
		{name: "graph keeps candidates within -max-memory", run: runGraph, args: []string{"-max-memory", "64MiB", "DIR/sl8.litmus"},
			setup: files("sl8.litmus", storeLoadThreads(8)), status: cli.ExitError,
			stderr: "the candidate executions kept to list them (", limit: 20 * time.Second, maxAlloc: 1 << 30},
		// Parsing counts against -timeout too: under the race detector
		// on a busy machine, the time may run out before checking.
		{name: "10,000 stores under -timeout 1s", run: runCheck, args: []string{"-timeout", "1s", "DIR/stores.litmus"},
			setup: files("stores.litmus", storesThread(10_000)), status: cli.ExitError,
			// Each relation of its one candidate (10,001 events) takes
			// 12 MiB: what a second of evaluating allocates. The set-up
			// of the candidate's relations (2.7 GB, 8 to 12 s where a
			// fresh page costs 17 us) looks at the deadline every 4 MiB
			// (relations.NewBlockContext, rules.NewInstanceContext), the
			// exploration every 256 instructions: the deadline is kept
			// within a fraction of a second, and the bound leaves room
			// for a loaded machine and the race detector.
			stderr: "took longer than the time limit of 1s; raise it with -timeout", limit: 10 * time.Second, maxAlloc: 4 << 30},
		{name: "900 stores under -timeout 1s", run: runCheck, args: []string{"-timeout", "1s", "DIR/stores.litmus"},
			// The order search oriented every pair of a dive, 400,000 for
			// 900 writes, before it looked at the clock again: it stopped
			// 14 s past the limit on a busy machine.
			setup: files("stores.litmus", storesThread(900)), status: cli.ExitError,
			stderr: "took longer than the time limit of 1s; raise it with -timeout", limit: 6 * time.Second, maxAlloc: 1 << 30},
		{name: "a test of 7 MiB under -max-memory 1GiB", run: runCheck, args: []string{"-timeout", "5s", "-max-memory", "1GiB", "DIR/big.litmus"},
			setup: files("big.litmus", storesThread(7<<20/len(" st.weak x, 1 ;\n"))), status: cli.ExitError,
			stderr: "would take about 1.75 GiB of memory, over the memory limit of 1.00 GiB; raise it with -max-memory", limit: 5 * time.Second},
		{name: "a test of 50 MB", run: runCheck, args: []string{"-timeout", "5s", "-max-memory", "1GiB", "DIR/huge.litmus"},
			setup: sparse("huge.litmus", 50_000_000), status: cli.ExitError,
			stderr: "huge.litmus (47.7 MiB) would take about 11.9 GiB of memory, over the memory limit of 1.00 GiB; raise it with -max-memory", limit: 5 * time.Second},
		{name: "a test of 50 MB, no memory limit", run: runCheck, args: []string{"-max-memory", "0", "DIR/huge.litmus"},
			setup: sparse("huge.litmus", 50_000_000), status: cli.ExitError,
			stderr: "the file has 47.7 MiB, more than the 8.00 MiB a test file may have", limit: 5 * time.Second},
		{name: "-max-instructions", run: runCheck, args: []string{"-max-instructions", "10", "DIR/stores.litmus"},
			setup: files("stores.litmus", storesThread(20)), status: cli.ExitError,
			stderr: "thread P0 executes more than 10 instructions in one run; raise the limit with -max-instructions"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runHostile(t, c) })
	}
}

// TestHostileAnswers: inputs that used to get an answer from nothing: a
// test with no execution passing -expect, a garbled log merged without a
// word, a test's name writing a picture outside -o DIR.
func TestHostileAnswers(t *testing.T) {
	never := ".global x;\nd0.b0.t0 {\n  ld r0, [x] == 5;\n}\nassert (r0 == 7) as seven;\n"
	log := "Test MP Allowed\nStates 5\n1:r0=0;\nOk\nWitnesses\nPositive: 1 Negative: 0\nCondition exists (1:r0=0)\nHash=ab\n"
	escape := "PTX ../../x\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n"
	cases := []hostile{
		{name: "-expect with no execution", run: runCheck, args: []string{"-expect", "DIR/expected.csv", "DIR/Never.test"},
			setup: files("Never.test", never, "expected.csv", "# none\n"), status: cli.ExitMismatch,
			stdout: "MISMATCH Never.test: no execution: no candidate execution meets"},
		{name: "merge of a States 5 block with one state", run: runMerge, args: []string{"DIR/run.log"},
			setup: files("run.log", log), status: cli.ExitError, stderr: "run.log:2:1: States 5 says 5 state(s), but 1 state line(s) follow"},
		{name: "a picture named ../../x", run: runCheck, args: []string{"-show", "all", "-o", "DIR/a/b/pics", "DIR/a/b/t.litmus"},
			setup: files("a/b/t.litmus", escape), status: cli.ExitOK, stderr: "is DIR/a/b/pics/_.._.._x.dot",
			after: func(t *testing.T, dir string) {
				_, err := os.Stat(filepath.Join(dir, "a", "x.dot"))
				assert.True(t, os.IsNotExist(err), "a picture outside -o DIR")
				_, err = os.Stat(filepath.Join(dir, "a", "b", "pics", "_.._.._x.dot"))
				assert.NoError(t, err)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runHostile(t, c) })
	}
}

// sparse makes a file of size bytes that holds no data (a hole), so that
// a case can offer a file far over a size limit without writing it.
func sparse(name string, size int64) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		f, err := os.Create(filepath.Join(dir, name))
		require.NoError(t, err)
		require.NoError(t, f.Truncate(size))
		require.NoError(t, f.Close())
	}
}

// includeChain is n model files, each including the next (f0 includes f1):
// a chain of 5,000 used to be followed to the end.
func includeChain(n int, ext, include string) func(*testing.T, string) {
	return func(t *testing.T, dir string) {
		for i := 0; i < n; i++ {
			text := fmt.Sprintf(include+"\n", fmt.Sprintf("f%d.%s", i+1, ext))
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.%s", i, ext)), []byte(text), 0o644))
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.%s", n, ext)), []byte("let x = po\n"), 0o644))
	}
}

// TestHostileModels: a cat model gets the limits of a .dl one, with the
// same messages: expressions nested at most 1000 deep (a deep one
// overflowed the stack) and of at most 100,000 operators, includes at
// most 100 deep, and model files that are regular files of at most 8 MiB
// (include "/dev/zero" ran out of memory, a 48 MB model ran for minutes).
func TestHostileModels(t *testing.T) {
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	const deep = 50_000
	nested := strings.Repeat("(", deep) + "po" + strings.Repeat(")", deep)
	long := "po" + strings.Repeat(" | po", 100_010)
	languages := []struct {
		ext, title, include string
	}{
		{"cat", "\"hostile\"\n", "include %q"},
		{"dl", "", ".include %q"},
	}
	var cases []hostile
	for _, l := range languages {
		model := func(text string) string { return l.title + text + "\n" }
		check := func(name string) []string { return []string{"-model", "DIR/" + name, mp} }
		cases = append(cases,
			hostile{name: l.ext + ": an expression nested 50,000 deep", run: runCheck, args: check("deep." + l.ext),
				setup: files("deep."+l.ext, model("let x = "+nested)), status: cli.ExitError,
				stderr: "expression nested more than 1000 deep"},
			hostile{name: l.ext + ": an expression of 100,010 operators", run: runCheck, args: check("long." + l.ext),
				setup: files("long."+l.ext, model("let x = "+long)), status: cli.ExitError,
				stderr: "expression with more than 100000 operators: write it as several definitions"},
			hostile{name: l.ext + ": including /dev/zero", run: runCheck, args: check("zero." + l.ext),
				setup: files("zero."+l.ext, model(fmt.Sprintf(l.include, "/dev/zero"))), status: cli.ExitError,
				stderr: "a device, not a regular file; a model is read from a regular file"},
			hostile{name: l.ext + ": including a named pipe", run: runCheck, args: check("pipe." + l.ext),
				setup: files("pipe."+l.ext, model(fmt.Sprintf(l.include, "p."+l.ext)), "p."+l.ext, "<fifo>"), status: cli.ExitError,
				stderr: "a named pipe, not a regular file; a model is read from a regular file"},
			hostile{name: l.ext + ": includes chained 1,000 deep", run: runCheck, args: check("f0." + l.ext),
				setup: includeChain(1000, l.ext, l.include), status: cli.ExitError,
				stderr: fmt.Sprintf("includes nested more than 100 deep (DIR/f0.%s -> ... -> DIR/f99.%[1]s)", l.ext)},
			hostile{name: l.ext + ": a 48 MiB model", run: runCheck, args: check("big." + l.ext),
				setup: sparse("big."+l.ext, 48<<20), status: cli.ExitError,
				stderr: "the file has 48.0 MiB, more than the 8.00 MiB a model file may have"},
			hostile{name: l.ext + ": a model that is /dev/zero", run: runCheck, args: []string{"-model", "/dev/zero", mp}, status: cli.ExitError,
				stderr: "not a regular file"},
		)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runHostile(t, c) })
	}
}
