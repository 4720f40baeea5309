package herdlog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mpBlock is a block as ptxmm check prints it, with ptxmm's own lines
// after the hash.
const mpBlock = `Test MP Allowed
States 3
1:r0=0; 1:r1=0;
1:r0=0; 1:r1=1;
1:r0=1; 1:r1=1;
No
Witnesses
Positive: 0 Negative: 3
Flag deadlock
Condition exists (1:r0=1 /\ 1:r1=0)
Observation MP Never 0 3
Time MP 0.01
Candidates MP 4
Hash=3b3d2b8f1a0c4c58e1e1c2a1b0d9f7aa
Forbidden 1:r0=1; 1:r1=0;
  causality: W x -rf-> R x
`

func TestReadBlock(t *testing.T) {
	l, err := Read("a.log", []byte("junk before\n"+mpBlock+"\nMISMATCH after the block\n"))
	require.NoError(t, err)
	require.Len(t, l.Entries, 1)
	e := l.Entries[0]
	assert.Equal(t, &Entry{
		Name: "MP", File: "a.log", Line: 2, Kind: "Allowed",
		States: []State{
			{Count: 1, Bindings: []string{"1:r0=0", "1:r1=0"}},
			{Count: 1, Bindings: []string{"1:r0=0", "1:r1=1"}},
			{Count: 1, Bindings: []string{"1:r0=1", "1:r1=1"}},
		},
		Validation: "No", HasWitnesses: true, Negative: 3,
		Condition: `exists (1:r0=1 /\ 1:r1=0)`, Flags: []string{"deadlock"},
		Hash: "3b3d2b8f1a0c4c58e1e1c2a1b0d9f7aa", Time: "0.01",
		Text: mpBlock[:len(mpBlock)-1],
	}, e)
}

// TestReadForms: the other forms herd's lexer reads, each checked on the
// field it is about.
func TestReadForms(t *testing.T) {
	cases := []struct {
		name, log string
		check     func(t *testing.T, l *Log)
	}{
		{"msum7's histogram with counts and [x]", "Test T Allow\nHistogram (2 states)\n3     :> [x]=2;\n1     *> [x]=0x10; 0:r0=-1;\nOk\nWitnesses\nPositive: 3, Negative: 1\nCondition exists (x=2) is validated\nHash=ab\n\n",
			func(t *testing.T, l *Log) {
				e := l.Entries[0]
				assert.Equal(t, []State{{Count: 3, Bindings: []string{"x=2"}}, {Count: 1, Bindings: []string{"0:r0=-1", "x=16"}}}, e.States)
				assert.Equal(t, "exists (x=2)", e.Condition)
				assert.Equal(t, int64(3), e.Positive)
			}},
		{"bindings are sorted, comments and faults", "Test T\nStates 1\n x=y; 0:r1=$undef; a[2]=z+4; s={1,2}; ~Fault(P0,x); # comment\nLoop Undef\n",
			func(t *testing.T, l *Log) {
				e := l.Entries[0]
				assert.Equal(t, []string{"0:r1=$undef", "a[2]=z+4", "s={1,2}", "x=y"}, e.States[0].Bindings)
				assert.Equal(t, []string{"~Fault(P0,x)"}, e.States[0].Faults)
				assert.True(t, e.Loop)
				assert.Equal(t, "Undef", e.Validation)
				assert.False(t, e.HasWitnesses)
			}},
		{"an empty first line is one empty state", "Test T Forbidden\nStates 1\n\nOk\n",
			func(t *testing.T, l *Log) { assert.Equal(t, []State{{Count: 1}}, l.Entries[0].States) }},
		{"CRLF and no final newline", "Test T.litmus Required\r\nStates 1\r\nx=1;\r\nOk\r\nHash=h",
			func(t *testing.T, l *Log) {
				e := l.Entries[0]
				assert.Equal(t, "T", e.Name, "herd's tools drop .litmus from names")
				assert.Equal(t, "h", e.Hash)
				assert.Equal(t, "Test T.litmus Required\r\nStates 1\r\nx=1;\r\nOk\r\nHash=h", e.Text)
			}},
		{"a Fatal line drops the test", "Test T Allowed\nFatal: no model\n\nTest U\nStates 0\nOk\n",
			func(t *testing.T, l *Log) {
				require.Len(t, l.Entries, 2)
				assert.Equal(t, "Fatal: no model", l.Entries[0].Err)
				assert.Equal(t, "U", l.Entries[1].Name)
			}},
		{"ptxmm's Error line", "Error E: limit of 3 runs reached\n\nTest T\nStates 0\nOk\n",
			func(t *testing.T, l *Log) {
				require.Len(t, l.Entries, 2)
				assert.Equal(t, &Entry{Name: "E", File: "f", Line: 1, Err: "limit of 3 runs reached", Text: "Error E: limit of 3 runs reached"}, l.Entries[0])
			}},
		{"a test after a block without hash lines is a test", "Test A\nStates 0\nOk\n\nTest T Allowed\nStates 1\nx=1;\nOk\n",
			func(t *testing.T, l *Log) {
				require.Len(t, l.Entries, 2, "herd's lexer reads Test T as a hash line of A and loses T")
				assert.Equal(t, "T", l.Entries[1].Name)
			}},
		{"histogram counts", "Test T\nHistogram (2 states)\n1 :> x=1;\n2 :> x=2;\nOk\n",
			func(t *testing.T, l *Log) { assert.Len(t, l.Entries[0].States, 2) }},
		{"shard headers start sections", "# ptxmm shard=0/2 plan=ab tests=1/2 logged=1\nTest T\nStates 0\nOk\n\n# ptxmm shard=1/2 plan=ab tests=1/2 logged=0\n",
			func(t *testing.T, l *Log) {
				require.Len(t, l.Sections, 2)
				assert.Equal(t, &Section{Shard: Shard{Index: 0, Count: 2, Plan: "ab", Taken: 1, Total: 2, Logged: 1}, Line: 1, Entries: 1}, l.Sections[0])
				assert.Equal(t, 0, l.Sections[1].Entries)
				assert.Equal(t, 6, l.Sections[1].Line)
			}},
		{"ptxmm's lines stop at the next test", "Test A\nStates 0\nOk\nHash=1\nAssert A x: 1 holds\nTest B\nStates 0\nOk\n",
			func(t *testing.T, l *Log) {
				require.Len(t, l.Entries, 2)
				assert.Equal(t, "Test A\nStates 0\nOk\nHash=1\nAssert A x: 1 holds", l.Entries[0].Text)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := Read("f", []byte(c.log))
			require.NoError(t, err)
			c.check(t, l)
		})
	}
}

// TestReadErrors: where herd's lexer stops, or would silently lose a
// test, the reader fails at file:line:col.
func TestReadErrors(t *testing.T) {
	cases := []struct{ name, log, want string }{
		{"P1:r0", "Test T Allowed\nStates 1\nP1:r0=1;\nOk\n", "f:3:3: expected = after the location P1"},
		{"%r0", "Test T Allowed\nStates 1\n1:%r0=1;\nOk\n", "f:3:3: expected a register name after 1:"},
		{"? value", "Test T Allowed\nStates 1\n1:r0=?;\nOk\n", "f:3:6: expected a value"},
		{"no semicolon", "Test T Allowed\nStates 1\nx=1 y=2;\nOk\n", "f:3:5: expected ; after x=1"},
		{"[y] value", "Test T\nStates 1\nx=[y];\nOk\n", "f:3:3: expected a value"},
		{"unknown kind", "Test T Error\nStates 0\nOk\n", "f:1:8: unknown kind \"Error\""},
		{"no validation", "Test T Allowed\nStates 1\n1:r0=1;\n", "f:1:1: the log ends before the validation line (Ok, No, ...) of test T: it was cut short"},
		{"no States", "junk\nTest T Allowed\nOk\n", "f:2:1: the log ends before the States line of test T"},
		{"bad witnesses", "Test T Allowed\nStates 1\n1:r0=1;\nOk\nWitnesses\nPositive 1\n", "f:6:1: expected \"Positive: N Negative: M\" after Witnesses"},
		{"cut after Witnesses", "Test T Allowed\nStates 0\nOk\nWitnesses\n", "f:1:1: the log ends after the Witnesses line"},
		{"bad shard header", "# ptxmm shard=4/4 plan=ab tests=1/2 logged=1\n", "f:1:1: shard 4/4: the index counts from 0"},
		{"garbled shard header", "# ptxmm shard=1\n", "f:1:1: a shard header reads"},
		{"no test", "ptxmm: shard 1/4 from -shard 1/4: 3 of the run's 12 tests\nptxmm: done\n", "f:1:1: not a herd log: none of its lines is a \"Test NAME\" line, an \"Error NAME:\" line or a ptxmm shard header"},
		{"binary", "\n\x00\x01\xff", "f:2:1: not a herd log"},
		{"a Test line with trailing blanks", "Test A\nStates 0\nOk\n\nTest T Allowed \nStates 1\nx=1;\nOk\n", "f:5:1: a garbled Test line"},
		{"a garbled Test line after hash lines", "Test A\nStates 0\nOk\nHash=1\nTest T! Allowed\nStates 0\nOk\n", "f:5:1: a garbled Test line"},
		{"States 5 and one state", "Test T Allowed\nStates 5\nx=1;\nOk\n", "f:2:1: States 5 says 5 state(s), but 1 state line(s) follow"},
		{"Histogram (3 states) and two", "Test T\nHistogram (3 states)\n1 :> x=1;\n2 :> x=2;\nOk\n", "f:2:1: Histogram (3 states) says 3 state(s), but 2"},
		{"a test cut before its States line", "Test T Allowed\nTest U Allowed\nStates 0\nOk\n", "f:1:1: test T has no States line: the next entry starts on line 2"},
		{"a States line without its Test line", "Tst T Allowed\nStates 1\nx=1;\nOk\n\nTest U\nStates 0\nOk\n", "f:2:1: a States line outside any test"},
		{"huge count", "Test T\nStates 1\n99999999999999999999 :> x=1;\nOk\n", "f:3:1: the count 99999999999999999999 is out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read("f", []byte(c.log))
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestReadQuotesTheLine: the error quotes the line with a caret, as the
// other front ends of ptxmm do.
func TestReadQuotesTheLine(t *testing.T) {
	_, err := Read("f", []byte("Test T\nStates 1\nx=1 y=2;\nOk\n"))
	require.Error(t, err)
	q, ok := err.(interface{ Quoted() string })
	require.True(t, ok)
	assert.Equal(t, "f:3:5: expected ; after x=1\n    x=1 y=2;\n        ^", q.Quoted())
}

// TestIsKeyLine: the hand-written matcher agrees with the regular
// expressions it stands for.
func TestIsKeyLine(t *testing.T) {
	for _, line := range []string{
		"Hash=ab", "hash = ab", "Time MP 0.01", "Observation MP Never 0 3", "Candidates MP[2] 4",
		"Key NAME", "Key NAME ", "Key  x\ty", "Key\t=", "Key", "=x", "1Key a b", "Key a", "Key %x y",
		"Forbidden 0:r0=1; 1:r1=0;", "  causality: W x", "Assert T x: 1 holds", "Key a=b c", "K a;b c",
	} {
		want := keyValueLine().MatchString(line) || keyNameLine().MatchString(line)
		assert.Equal(t, want, isKeyLine(line), "%q", line)
	}
}
