package report

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/herdlog"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/rules"
)

// herdCases are the results whose herd output is kept in testdata.
var herdCases = []struct {
	name, file, src string
	explain         bool
	model           string // a model file instead of spec.dl
	unroll          int
}{
	{
		name: "exists", file: "MP.litmus",
		src: `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`,
	},
	{
		name: "forall", file: "CoWR.litmus",
		src: `PTX CoWR
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
 ld.weak r0, x  |                ;
forall (P0:r0 == 1 \/ x == 2)
`,
	},
	{
		name: "not-exists-forbidden", file: "SB.litmus", explain: true,
		src: `PTX SB+fence.sc
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 fence.sc.sys   | fence.sc.sys   ;
 ld.weak r0, y  | ld.weak r1, x  ;
~exists (P0:r0 == 0 /\ P1:r1 == 0)
`,
	},
	{
		name: "test-assertions", file: "MP-rel.test", explain: true,
		src: `.global x;
.global y;
d0.b0.t0 {
  st [x], 1;
  st.release.$0 [y], 1;
}
d0.b1.t0 {
  ld.acquire.$0 r0, [y] == 1;
  ld r1, [x];
}
$1 (r1 == 1) as fresh;
check (r1 == 1) as c;
$$
gpu | assert
cta | permit
`,
	},
	{
		name: "sanity", file: "Filter.test",
		src: `.global x;
d0.b0.t0 { st [x], 1; }
d0.b1.t0 { ld r0, [x] == 7; }
assert (r0 == 7) as seven;
permit (r0 == 7) as maybe;
check (r0 == 7) as c;
`,
	},
	{
		name: "blocked", file: "Quorum.litmus",
		src: `PTX Quorum
{ x=0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;
 st.weak x, 1         | bar.cta.sync 0, 0, 2 | bar.cta.sync 0, 0, 2 ;
 bar.cta.sync 0, 0, 2 | ld.weak r0, x        | ld.weak r1, x        ;
exists (P1:r0 == 0)
`,
	},
	{
		name: "unroll", file: "Spin.litmus", unroll: 1,
		src: `PTX Spin
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 L:             | st.weak x, 1   ;
 ld.weak r0, x  |                ;
 add r1, r1, 1  |                ;
 beq r0, 0, L   |                ;
exists (P0:r1 == 2)
`,
	},
	{
		// A loop that stores is no await: cut at the unrolling bound.
		name: "empty-loop", file: "Forever.litmus",
		src: `PTX Forever
{ x=0; }
 P0@cta 0,gpu 0 ;
 L:             ;
 ld.weak r0, x  ;
 st.weak x, 1   ;
 goto L         ;
exists (P0:r0 == 0)
`,
	},
	{
		// An await that never exits: a hang, with no final state.
		name: "hang-spin", file: "Spin.litmus",
		src: `PTX Spin
{ x=0; }
 P0@cta 0,gpu 0 ;
 L:             ;
 ld.weak r0, x  ;
 goto L         ;
exists (P0:r0 == 0)
`,
	},
	{
		name: "empty-address", file: "LoadedAddress.litmus",
		src: `PTX LoadedAddress
{ x=0; y=0; }
 P0@cta 0,gpu 0 ;
 ld.weak r0, x  ;
 st.weak [r0], 1 ;
exists (P0:r0 == 0)
`,
	},
	{
		name: "empty-constraints", file: "NoSuchAddress.litmus",
		src: `PTX NoSuchAddress
{ x=0; y=0; P0:r2=y; }
 P0@cta 0,gpu 0 ;
 ld.weak r0, x  ;
 st.weak [r0], 1 ;
exists (P0:r0 == 0)
`,
	},
	{
		name: "thin-air", file: "LB+data.litmus", model: filepath.Join("testdata", "no-thin-air.dl"),
		src: `PTX LB+data
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 st.weak y, r0  | st.weak x, r1  ;
exists (P0:r0 == 1 /\ P1:r1 == 1)
`,
	},
	{
		// A host thread in the middle column: P1 stays 1, H0 comes after
		// the device threads, and a "# threads" line says so.
		name: "host", file: "HostMP.litmus", explain: true,
		src: `PTX HostMP
{ x=0; y=0; }
 P0@cta 0,gpu 0,kernel K0 | H0@host                  | P1@cta 1,gpu 0,kernel K1 ;
 st.weak x, 1             | cudaLaunchKernel K0, s1  | ld.weak r0, x            ;
                          | cudaStreamSynchronize s1 |                          ;
                          | ld.weak r0, x            |                          ;
                          | cudaLaunchKernel K1, s1  |                          ;
exists (H0:r0 == 0 \/ P1:r0 == 0)
`,
	},
}

// TestHerdGolden compares Herd's output with the golden files (the Time
// line normalised); go test ./report -update rewrites them.
func TestHerdGolden(t *testing.T) {
	for _, c := range herdCases {
		t.Run(c.name, func(t *testing.T) {
			o := checker.DefaultOptions()
			o.Explain = c.explain
			if c.unroll > 0 {
				o.Exec.Unroll = c.unroll
			}
			m := spec(t)
			if c.model != "" {
				var err error
				m, err = loader.LoadFile(c.model)
				require.NoError(t, err)
			}
			var b bytes.Buffer
			for _, tc := range parse(t, c.file, c.src) {
				r := m.Check(tc, o)
				require.NoError(t, r.Err)
				Herd(&b, r)
			}
			out := b.String()
			assert.Regexp(t, `(?m)^Time \S+ [0-9]+\.[0-9]{2}$`, out)
			golden(t, "herd-"+c.name, normalise(out))
		})
	}
}

// TestHerdError: a result with an error prints the test name and the error
// on a line herd's log tools skip (a "Test E Error" block would stop them:
// Error is no kind they know).
func TestHerdError(t *testing.T) {
	tc := parse(t, "E.litmus", "PTX E\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n")[0]
	var b bytes.Buffer
	Herd(&b, &checker.Result{Test: tc, Err: errors.New("limit of 3 runs reached; raise it with -max-runs")})
	assert.Equal(t, "Error E: limit of 3 runs reached; raise it with -max-runs\n\n", b.String())
	// herd's tools skip the line; herdlog reads it as a test in error.
	l, err := herdlog.Read("log", b.Bytes())
	require.NoError(t, err)
	require.Len(t, l.Entries, 1)
	assert.Equal(t, "E", l.Entries[0].Name)
	assert.Equal(t, "limit of 3 runs reached; raise it with -max-runs", l.Entries[0].Err)
	assert.Empty(t, l.Entries[0].States)
}

// TestHerdForbiddenWithoutExplanation: a failure whose witness could not
// be expanded into edges is printed with WitnessText.
func TestHerdForbiddenWithoutExplanation(t *testing.T) {
	o := explainOpts()
	r := checkSrc(t, "SB.litmus", herdCases[2].src, o)[0]
	require.NoError(t, r.Err)
	require.Len(t, r.Forbidden, 1)
	f := &r.Forbidden[0]
	for i := range f.Explanations {
		f.Explanations[i] = nil
	}
	f.Failures = append(f.Failures, rules.CheckResult{Name: "made_up", Kind: datalog.CheckIrreflexive, Rel: "r", Witness: []int{0}})
	f.Explanations = append(f.Explanations, nil)
	r.Elapsed = 1500 * time.Millisecond
	var b bytes.Buffer
	Herd(&b, r)
	out := b.String()
	assert.Contains(t, out, "\nForbidden 0:r0=0; 1:r1=0;\n  causality: ")
	assert.Contains(t, out, "\n  made_up: init:x=0 precedes itself in r\n")
	assert.Contains(t, out, "\nTime SB+fence.sc 1.50\nHash=")
	assert.True(t, strings.HasSuffix(out, "\n  made_up: init:x=0 precedes itself in r\n\n"), out)
}

// TestHerdRequired: the kinds of herd7: exists tests are "Allowed", ~exists
// "Forbidden", forall "Required".
func TestHerdRequired(t *testing.T) {
	for kind, want := range map[string]string{"exists": "Allowed", "~exists": "Forbidden", "forall": "Required"} {
		tc := parse(t, "K.litmus", "PTX K\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n"+kind+" (x == 1)\n")[0]
		var b bytes.Buffer
		Herd(&b, spec(t).Check(tc, checker.DefaultOptions()))
		assert.True(t, strings.HasPrefix(b.String(), "Test K "+want+"\n"), "%s: %s", kind, b.String())
	}
}

// TestHerdThreadNumbers: the numbers herd logs give threads, and the
// "# threads" line of the tests they do not name plainly.
func TestHerdThreadNumbers(t *testing.T) {
	cases := []struct {
		name, file, src string
		numbers         []string
		comment         string
	}{
		{"device threads only", "T.litmus", "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (x == 1)\n",
			[]string{"0", "1"}, ""},
		{"host threads after the device threads", "T.litmus", "PTX T\n{ x=0; }\n H0@host | P0@cta 0,gpu 0,kernel K | H1@host | P1@cta 1,gpu 0,kernel K ;\n cudaLaunchKernel K | st.weak x, 1 | ld.weak r0, x | ld.weak r0, x ;\nexists (x == 1)\n",
			[]string{"2", "0", "3", "1"}, "# threads 0=P0 1=P1 2=H0 3=H1"},
		{".test files in order of appearance", "T.test", ".global x;\n.kernel K d0.b0.t0;\nh0 { cudaLaunchKernel K; }\nd0.b0.t0 { st [x], 1; }\npermit (x == 1) as p;\n",
			[]string{"0", "1"}, "# threads 0=h0 1=d0.b0.t0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := parse(t, c.file, c.src)[0]
			name := herdThread(tc)
			var got []string
			for i := range tc.Threads {
				got = append(got, name(i))
			}
			assert.Equal(t, c.numbers, got)
			assert.Equal(t, c.comment, threadsComment(tc))
		})
	}
}

// TestHerdLogIntoBuffer: the log is the same written to any writer and
// appended in place to a bytes.Buffer, whatever it holds and has room for.
func TestHerdLogIntoBuffer(t *testing.T) {
	type plainWriter struct{ io.Writer }
	m := spec(t)
	checked := 0
	for _, c := range herdCases {
		if c.model != "" || c.unroll > 0 {
			continue
		}
		for _, tc := range parse(t, c.file, c.src) {
			checked++
			r := m.Check(tc, checker.DefaultOptions())
			require.NoError(t, r.Err)
			var want bytes.Buffer
			HerdLog(plainWriter{&want}, r, LogOptions{})
			buffers := []struct {
				name string
				b    *bytes.Buffer
			}{
				{"empty", &bytes.Buffer{}},
				{"small room", bytes.NewBuffer(make([]byte, 0, 16))},
				{"kept with room", bytes.NewBuffer(append(make([]byte, 0, 1<<16), "before\n"...))},
			}
			for _, buf := range buffers {
				prefix := buf.b.String()
				HerdLog(buf.b, r, LogOptions{})
				assert.Equal(t, prefix+want.String(), buf.b.String(), "%s: %s", c.name, buf.name)
			}
		}
	}
	assert.Greater(t, checked, 3)
}
