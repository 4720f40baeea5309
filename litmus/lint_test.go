package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWarningsForGuessedNames: names whose meaning ptxmm guesses get a
// warning at the name; a test whose condition contradicts its threads is
// rejected. Before, each guess was made silently.
func TestWarningsForGuessedNames(t *testing.T) {
	cases := []struct {
		name, file, src string
		warnings        []string // "line:col: message part"
		err             string
	}{
		{name: "register-like address never written", file: "t.litmus",
			src:      "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak [r0], 1 ;\nexists (x == 0)\n",
			warnings: []string{"4:11: warning: r0 is not declared, so it is taken as a memory location with initial value 0; if it is meant as a register, thread P0 never writes it"}},
		{name: "undeclared location", file: "t.litmus",
			src:      "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r1, [y] ;\nexists (P0:r1 == 0)\n",
			warnings: []string{"4:15: warning: location y is not declared in the init block; it is taken as one with initial value 0"}},
		{name: "condition register never written", file: "t.litmus",
			src:      "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.weak r1, x | st.weak x, 1 ;\nexists (P0:r1 == 0 /\\ P1:r9 == 0)\n",
			warnings: []string{"5:23: warning: thread P1 never writes r9 and does not initialise it, so it is 0 in every final state"}},
		{name: "condition register named as herd logs print a % register", file: "t.litmus",
			src:      "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.weak %r1, x | st.weak x, 1 ;\nexists (P0:r1 == 0)\n",
			warnings: []string{"5:9: warning: thread P0 never writes r1 and does not initialise it, so it is 0 in every final state; did you mean %r1? (herd logs print %r1 as r1)"}},
		{name: "initialised register", file: "t.litmus",
			src: "PTX T\n{ x=0; P1:r9=3; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.weak r1, x | st.weak x, 1 ;\nexists (P0:r1 == 0 /\\ P1:r9 == 3)\n"},
		{name: "condition register is the thread's location", file: "t.litmus",
			src: "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak [r0], 1 ;\nexists (P0:r0 == 1)\n",
			err: "t.litmus:5:9: P0:r0 names a register, but thread P0 uses r0 as a memory location (at 4:11) and has no register r0"},
		{name: ".test register only read", file: "t.test",
			src:      ".global x;\nd0.b0.t0 {\n  st [x], r3;\n}\nd0.b1.t0 {\n  ld r0, [x];\n}\nassert (r3 == 0) as a;\n",
			warnings: []string{"8:9: warning: thread d0.b0.t0 never writes r3 and does not initialise it, so it is 0 in every final state"}},
		{name: "predicate never set", file: "t.litmus",
			src:      "PTX T\n{ P0:q=1; }\n P0@cta 0,gpu 0 ;\n bar.red.popc.u32 r1, 0, pp ;\n @!pp mov r2, 1 ;\n @q mov r3, 1 ;\nexists (P0:r1 == 0)\n",
			warnings: []string{"4:26: warning: predicate pp is never set by thread P0 nor initialised, so it is always 0 (false)"}},
		{name: ".test guard never set", file: "t.test",
			src:      ".global x;\nd0.b0.t0 {\n  setp.eq.u32 p, 1, 1;\n  @p st [x], 1;\n  @q st [x], 2;\n}\nassert (x == 1) as a;\n",
			warnings: []string{"5:4: warning: predicate q is never set by thread d0.b0.t0 nor initialised, so it is always 0 (false)"}},
		{name: "clean test", file: "t.litmus",
			src: "PTX T\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, err := FormatForPath(c.file)
			require.NoError(t, err)
			tests, err := Parse(c.file, []byte(c.src), f)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			require.Len(t, tests, 1)
			w := tests[0].Warnings
			require.Len(t, w, len(c.warnings), "%s", w.Quoted())
			for i, want := range c.warnings {
				assert.Contains(t, w[i].Error(), c.file+":"+want)
			}
			if len(w) > 0 {
				assert.Contains(t, w.Quoted(), "^", "warnings quote their source line")
			}
		})
	}
}

// TestTemplateWarningsOncePerFile: every instance of a template carries
// the file's warnings, each once.
func TestTemplateWarningsOncePerFile(t *testing.T) {
	src := ".global x;\nd0.b0.t0 {\n  st.$0 [x], r3;\n}\nd0.b1.t0 {\n  ld r0, [x];\n}\nassert (r3 == 0) as a;\n$$\nweak\nvolatile\n"
	tests, err := ParseNV("t.test", []byte(src))
	require.NoError(t, err)
	require.Len(t, tests, 2)
	for _, tc := range tests {
		require.Len(t, tc.Warnings, 1)
		assert.Contains(t, tc.Warnings[0].Error(), "never writes r3")
	}
}
