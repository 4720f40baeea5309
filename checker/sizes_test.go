package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSizes checks values with sizes (8.2): they truncate and wrap by type,
// a read of bytes that several writes wrote combines them, vector and
// packed accesses are one operation per element in no order among
// themselves (8.2.4, 8.2.5), and a race between operations that overlap
// partially makes the program undefined (8.7.2).
func TestSizes(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		verdict string
		states  []string
		flags   []string
	}{
		{
			name: "a u8 store keeps the low byte",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.u8 x, 257   ;
 ld.u8 r0, x    ;
exists (P0:r0 == 1 /\ x == 1)
`,
			verdict: "Ok", states: []string{"P0:r0=1; x=1;"},
		},
		{
			name: "atom.add.u32 wraps around",
			src: `PTX T
{ x=4294967295; }
 P0@cta 0,gpu 0        ;
 atom.add.u32 r0, x, 1 ;
 ld.u32 r1, x          ;
exists (P0:r0 == 4294967295 /\ P0:r1 == 0)
`,
			verdict: "Ok", states: []string{"P0:r0=4294967295; P0:r1=0;"},
		},
		{
			name: "signed and unsigned reads of the same bytes",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.u16 x, 65535 ;
 ld.s16 r0, x    ;
 ld.u16 r1, x    ;
 ld.s8 r2, [x+1] ;
exists (P0:r0 == -1 /\ P0:r1 == 65535 /\ P0:r2 == -1)
`,
			verdict: "Ok", states: []string{"P0:r0=-1; P0:r1=65535; P0:r2=-1;"},
		},
		{
			name: "min and max compare as the type says",
			src: `PTX T
{ x=0; y=0; }
 P0@cta 0,gpu 0          ;
 st.u32 x, -1            ;
 atom.min.u32 r0, x, 5   ;
 st.s32 y, -1            ;
 atom.min.s32 r1, y, 5   ;
exists (x == 5 /\ y == -1)
`,
			verdict: "Ok", states: []string{"x=5; y=-1;"},
		},
		{
			name: "untyped accesses are 32-bit",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0        ;
 st x, 4294967297      ;
 ld r0, x              ;
exists (P0:r0 == 1)
`,
			verdict: "Ok", states: []string{"P0:r0=1;"},
		},
		{
			name: "a read combines the bytes of several writes",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.u8 [x], 1   | bar.sync 0     ;
 st.u8 [x+1], 2 | ld.u16 r0, x   ;
 bar.sync 0     | ld.u32 r1, x   ;
exists (P1:r0 == 513 /\ P1:r1 == 513 /\ x == 513)
`,
			verdict: "Ok", states: []string{"P1:r0=513; P1:r1=513; x=513;"},
		},
		{
			name: "program order per byte",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0        ;
 st.u32 x, 0x11111111  ;
 st.u8 [x+1], 0x22     ;
 ld.u32 r0, x          ;
forall (P0:r0 == 0x11112211 /\ x == 0x11112211)
`,
			verdict: "Ok", states: []string{"P0:r0=286335505; x=286335505;"},
		},
		{
			name: "a partial overlap is not morally strong: a mixed-size race",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0           ;
 st.relaxed.gpu.u8 x, 1 | ld.relaxed.gpu.u32 r0, x ;
exists (P1:r0 == 1)
`,
			verdict: "Undef", states: []string{"P1:r0=0;", "P1:r0=1;"}, flags: []string{"data_race", "mixed_size_race"},
		},
		{
			name: "complete overlap races are uniform-size: defined",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0           ;
 st.relaxed.gpu.u32 x, 1 | ld.relaxed.gpu.u32 r0, x ;
exists (P1:r0 == 1)
`,
			verdict: "Ok", states: []string{"P1:r0=0;", "P1:r0=1;"},
		},
		{
			name: "disjoint bytes do not race",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0      ;
 st.u16 [x+2], 1     | ld.u16 r0, x        ;
exists (P1:r0 == 0 /\ x == 65536)
`,
			verdict: "Ok", states: []string{"P1:r0=0; x=65536;"},
		},
		{
			name: "mixed-size atomics are performed one after the other",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0             ;
 atom.add.u32 r0, x, 1   | atom.cas.b16 r1, x, 0, 5   ;
exists (x == 5)
`,
			// 8.7.2: the race is mixed-size, but atomicity holds: the
			// add is not lost (x == 5 would lose it).
			verdict: "Undef", states: []string{"x=1;", "x=6;"}, flags: []string{"data_race", "mixed_size_race"},
		},
		{
			name: "a mixed-size atomic that reads the other's write follows it",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0                  | P1@cta 1,gpu 0            ;
 atom.exch.b64 r0, x, 4294967296 | atom.add.u32 r1, [x+4], 1 ;
exists (x == 4294967296 /\ P1:r1 == 1)
`,
			// 8.7.2: the add reads byte 4 from the exch, so the exch was
			// performed completely before it: the add's write is last.
			verdict: "Undef", states: []string{"P1:r1=0; x=4294967296;", "P1:r1=1; x=8589934592;"}, flags: []string{"data_race", "mixed_size_race"},
		},
		{
			name: "mixed-size atomics whose scopes exclude each other are not atomic",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0            | P1@cta 1,gpu 0                 ;
 atom.cta.add.u32 r0, x, 1 | atom.cta.cas.b16 r1, x, 0, 5   ;
exists (x == 5)
`,
			verdict: "Undef", states: []string{"x=1;", "x=5;", "x=6;"}, flags: []string{"data_race", "heterogeneous_race", "mixed_size_race"},
		},
		{
			name: "vector elements are not ordered among themselves",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0                ;
 st.release.gpu.v2.u32 [x], {1, 1} | ld.acquire.gpu.u32 r0, [x+4] ;
                                   | ld.relaxed.gpu.u32 r1, [x]   ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`,
			verdict: "Ok", states: []string{"P1:r0=0; P1:r1=0;", "P1:r0=0; P1:r1=1;", "P1:r0=1; P1:r1=0;", "P1:r0=1; P1:r1=1;"},
		},
		{
			name: "a vector load fills one register per element",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0                 ;
 st.v2.u16 [x], {3, 4}          ;
 ld.global.v2.u16 {r0, r1}, [x] ;
 ld.u32 r2, x                   ;
exists (P0:r0 == 3 /\ P0:r1 == 4 /\ P0:r2 == 262147)
`,
			verdict: "Ok", states: []string{"P0:r0=3; P0:r1=4; P0:r2=262147;"},
		},
		{
			name: "packed halves are two operations in no order",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0                 | P1@cta 1,gpu 0                ;
 st.release.gpu.f16x2 [x], 65537 | ld.acquire.gpu.f16 r0, [x+2] ;
                                 | ld.relaxed.gpu.f16 r1, [x]   ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`,
			verdict: "Ok", states: []string{"P1:r0=0; P1:r1=0;", "P1:r0=0; P1:r1=1;", "P1:r0=1; P1:r1=0;", "P1:r0=1; P1:r1=1;"},
		},
		{
			name: "a packed load joins its halves",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0       ;
 st.u16 [x+2], 7      ;
 ld.f16x2 r0, x       ;
exists (P0:r0 == 458752)
`,
			verdict: "Ok", states: []string{"P0:r0=458752;"},
		},
		{
			name: "a location compares by its bytes",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.u32 x, -1   ;
exists (x == -1 /\ x == 4294967295)
`,
			verdict: "Ok", states: []string{"x=4294967295;"},
		},
		{
			name: "a value that does not fit the bytes of a location is not its value",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.u32 x, 0    ;
exists (x == 4294967296 \/ x == -4294967296 \/ x != 0)
`,
			verdict: "No", states: []string{"x=0;"},
		},
		{
			name: "an untyped variable is at least 32 bits",
			src: `PTX T
{ x=0x01020304; }
 P0@cta 0,gpu 0 ;
 st.u8 x, 0xFF  ;
forall (x == 0x010203FF)
`,
			verdict: "Ok", states: []string{"x=16909311;"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, spec(t), herd(t, c.src))
			assert.Equal(t, c.verdict, r.Verdict)
			assert.Equal(t, c.states, states(r))
			var flags []string
			for _, f := range r.Flags {
				flags = append(flags, f.Name)
			}
			assert.Equal(t, c.flags, flags)
		})
	}
}

// TestMixedSizeRaceWitness: the flag names the two operations that race.
func TestMixedSizeRaceWitness(t *testing.T) {
	r := check(t, spec(t), herd(t, `PTX T
{ x=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0           ;
 st.relaxed.gpu.u8 x, 1 | ld.relaxed.gpu.u32 r0, x ;
exists (P1:r0 == 1)
`))
	// A mixed-size race is also a data race (8.7.1): both flags name the
	// same pair, only the mixed-size one makes the program undefined.
	require.Len(t, r.Flags, 2)
	assert.Equal(t, "data_race", r.Flags[0].Name)
	assert.False(t, r.Flags[0].Undefined)
	f := r.Flags[1]
	require.Equal(t, "mixed_size_race", f.Name)
	require.True(t, f.Undefined)
	require.Len(t, f.Witness.Witness, 2)
	var labels []string
	for _, e := range f.Witness.Witness {
		labels = append(labels, f.Execution.Label(e))
	}
	assert.Contains(t, labels[0]+" "+labels[1], "P0:st.relaxed.gpu.u8 x, 1")
	assert.Contains(t, labels[0]+" "+labels[1], "P1:ld.relaxed.gpu.u32 r0, x")
}

// TestSizeErrorsAtCheck: accesses that do not fit their variable are
// errors with the instruction's position.
func TestSizeErrorsAtCheck(t *testing.T) {
	cases := []struct{ name, src, msg string }{
		{"past a declared type", ".global .u16 x;\nd0.b0.t0 { st.u32 [x], 1; }\nassert (x == 0) as a;\n",
			`t.test:2:12: "st.u32 [x], 1" accesses bytes 0 to 3 of x, which is declared .u16 with 2 bytes (declare an array, x[N], for more)`},
		{"an initial value too wide", ".global x = 5000000000;\nd0.b0.t0 { st.u8 [x], 1; }\nassert (x == 0) as a;\n",
			`the initial value 5000000000 of x does not fit in its 4 bytes`},
		{"an initial value too wide for its type", ".global .u8 x = 300;\nd0.b0.t0 { st.u8 [x], 1; }\nassert (x == 0) as a;\n",
			`the initial value 300 of x does not fit in its 1 byte`},
		{"a copy of a split location", ".global x;\n.shared y;\nd0.b0.t0 { st.u8 [x+1], 1; cp.async.ca.shared.global [y], [x], 4; }\nassert (y == 0) as a;\n",
			`accesses the whole of x, which ld, st, atom or red access in parts`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := spec(t).Check(nv(t, c.src), DefaultOptions())
			require.Error(t, r.Err)
			assert.Contains(t, r.Err.Error(), c.msg)
		})
	}
}
