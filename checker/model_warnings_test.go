package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/datalog"
)

// TestModelsThatAllowEverything: an empty model, or one without checks,
// loads with a warning saying it allows every candidate execution; before,
// it checked every test without a word.
func TestModelsThatAllowEverything(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"empty", "", "m.dl: warning: the model is empty: it has no rules and no checks, so it allows every candidate execution"},
		{"comments only", "// nothing yet\n", "the model is empty"},
		{"no checks", ".decl W(e: event)\n.decl loc(a: event, b: event)\n.input W, loc\nlet co = (W * W) & loc\n",
			"m.dl: warning: the model has no checks (.check), so it allows every candidate execution"},
		{"every check removed", ".decl E(e: event)\n.input E\n.check c: empty(E)\n.uncheck c\n", "so it allows every candidate execution"},
		{"with a check", ".decl E(e: event)\n.input E\n.check c: empty(E)\n", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog, errs := datalog.LoadSource("m.dl", c.src)
			require.False(t, errs.HasErrors(), "%s", errs.Quoted())
			m, err := BuildModel("m.dl", prog, nil)
			require.NoError(t, err)
			if c.want == "" {
				for _, w := range m.Warnings {
					assert.NotContains(t, w.Error(), "allows every candidate execution")
				}
				return
			}
			require.NotEmpty(t, m.Warnings)
			assert.Contains(t, m.Warnings.Quoted(), c.want)
		})
	}
	assert.Empty(t, spec(t).Warnings, "spec.dl draws no warning")
}
