package litmus

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHash(t *testing.T) {
	base := `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`
	hash := func(src string) string {
		tc, err := ParseHerd("t.litmus", []byte(src))
		require.NoError(t, err)
		return Hash(tc)
	}
	h := hash(base)
	require.Regexp(t, `^[0-9a-f]{32}$`, h)
	same := map[string]string{
		"another name and comment": `PTX Other
"a comment"
{ y=0; x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak   x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1,   x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"another condition on the same registers": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
~exists (P1:r0 == 1 /\ P1:r1 == 0)`,
	}
	for what, src := range same {
		require.Equal(t, h, hash(src), what)
	}
	differ := map[string]string{
		"another value stored": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 2   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"another CTA": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"another initial value": `PTX MP
{ x=3; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)`,
		"other observed registers": `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1)`,
	}
	for what, src := range differ {
		require.NotEqual(t, h, hash(src), what)
	}
	// Labels are renamed in order of appearance.
	loop := func(label string) string {
		return `PTX L
{ x=0; }
 P0@cta 0,gpu 0 ;
 ` + label + `: ;
 ld.weak r0, x ;
 beq r0, 0, ` + label + ` ;
exists (P0:r0 == 1)`
	}
	require.Equal(t, hash(loop("LOOP")), hash(loop("again")))
}

// hashText is the definition of Hash's three parts with fmt, as Hash
// printed them before it printed with strconv: Hash must keep giving the
// same values, which herd logs and -json output carry.
func hashText(t *Test) [3]string {
	var items []string
	for _, a := range t.Addresses {
		s := fmt.Sprintf("%s %s=%d", a.Space, a.Name, a.Init)
		if a.Type.Name != "" {
			s = fmt.Sprintf("%s .%s %s[%d]=%d", a.Space, a.Type.Name, a.Name, a.Elems, a.Init)
		}
		if a.AliasOf != "" {
			s = fmt.Sprintf("%s %s %s aliases %s", a.Space, a.Kind, a.Name, a.AliasOf)
		}
		if len(a.Multimem) > 0 {
			s = fmt.Sprintf("%s multimem %s", a.Name, strings.Join(a.Multimem, ","))
		}
		items = append(items, s)
	}
	for _, r := range t.RegInits {
		v := fmt.Sprint(r.Value)
		if r.Addr != "" {
			v = "&" + r.Addr
		}
		items = append(items, fmt.Sprintf("%d:%s=%s", r.Thread, r.Reg, v))
	}
	for _, tm := range t.TensorMaps {
		items = append(items, fmt.Sprintf("%s tensormap %s,%d", tm.Name, tm.Target, tm.Bytes))
	}
	sort.Strings(items)
	init := strings.Join(items, "; ")

	var b strings.Builder
	lanes := usesWarpSync(t)
	for i, th := range t.Threads {
		if lanes && th.LaneNamed {
			fmt.Fprintf(&b, "P%d@gpu %d,cluster %d,cta %d,warp %d,lane %d\n", i, th.GPU, th.Cluster, th.CTA, th.Warp, th.Lane)
		} else {
			fmt.Fprintf(&b, "P%d@gpu %d,cluster %d,cta %d\n", i, th.GPU, th.Cluster, th.CTA)
		}
		labels := map[string]string{}
		for _, in := range th.Instrs {
			if (in.Op == OpLabel || in.Op == OpBranch || in.Op == OpGoto) && labels[in.Label] == "" {
				labels[in.Label] = fmt.Sprintf("L%02d", len(labels))
			}
		}
		for _, in := range th.Instrs {
			b.WriteString(regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*`).ReplaceAllStringFunc(in.Text, func(w string) string {
				if n, ok := labels[w]; ok {
					return n
				}
				return w
			}) + "\n")
		}
	}

	seen := map[string]bool{}
	t.EachTerm(func(tm Term) {
		switch tm.Kind {
		case TermReg:
			seen[fmt.Sprintf("%d:%s", tm.Thread, tm.Reg)] = true
		case TermLoc:
			seen[tm.Loc] = true
		}
	})
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return [3]string{init, b.String(), strings.Join(out, "; ")}
}

// hashOfText is the hex MD5 of the MD5s of the three parts.
func hashOfText(parts [3]string) string {
	h := md5.New()
	for _, p := range parts {
		d := md5.Sum([]byte(p))
		h.Write(d[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestHashText checks Hash against hashText on every test of examples/,
// of the fuzz seeds, and of the shared corpora where they are present, and
// on tests made to use every kind of declaration, labels beyond L09 and
// negative values.
func TestHashText(t *testing.T) {
	var files []string
	for _, dir := range []string{"../examples", "testdata", "../../shared/perf/suite-ptx", "../../shared/conformance"} {
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".litmus") || strings.HasSuffix(path, ".test")) {
				files = append(files, path)
			}
			return err
		}))
	}
	var labels strings.Builder
	for i := range 12 {
		fmt.Fprintf(&labels, " L%d: ;\n beq r0, %d, L%d ;\n", i, i, 11-i)
	}
	made := map[string]string{
		"declarations.litmus": `PTX D
{ x=-3; y @ generic aliases x; s @ surface aliases x; m @ multimem x, z; z=0; b @ mbarrier 2; 0:r1=-7; 1:r2=x; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, y  | ld.weak r3, [r2] ;
exists (P0:r0 == 1 /\ x == 2 /\ P1:r3 == 0 /\ P0:r0 == 1 /\ ~(z == -1))`,
		"labels.litmus": "PTX L\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n" + labels.String() + "exists (P0:r0 == 1)",
		"typed.test": `.global .u16 x[2] = 5;
.global y;
d0.b0.t0 {
  st.u16 [x+2], 7;
  ld r0, [y];
}
assert (r0 == 0) as zero;
`,
	}
	var tests []*Test
	for name, src := range made {
		f, err := FormatForPath(name)
		require.NoError(t, err)
		ts, err := Parse(name, []byte(src), f)
		require.NoError(t, err, name)
		tests = append(tests, ts...)
	}
	for _, path := range files {
		ts, err := ParseFile(path)
		if err != nil {
			continue // the corpora hold tests ptxmm refuses on purpose
		}
		tests = append(tests, ts...)
	}
	require.Greater(t, len(tests), len(made))
	for _, tc := range tests {
		require.Equal(t, hashOfText(hashText(tc)), Hash(tc), "%s (%s)", tc.File, tc.Name)
	}
}
