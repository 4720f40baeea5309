package explore

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
)

// mpView is the view of the first candidate of examples/MP.litmus under
// spec.dl that the model forbids.
func mpView(t *testing.T) *View {
	t.Helper()
	m, err := loader.LoadFile(filepath.Join("..", "..", "spec.dl"))
	require.NoError(t, err)
	tests, err := litmus.ParseFile(filepath.Join("..", "..", "examples", "MP.litmus"))
	require.NoError(t, err)
	cands, res := m.Candidates(tests[0], checker.DefaultOptions(), 0)
	require.NoError(t, res.Err)
	for _, c := range cands {
		if !c.Consistent {
			inst, err := m.Instance(c)
			require.NoError(t, err)
			return &View{Model: m, Cand: c, Inst: inst}
		}
	}
	t.Fatal("MP has no forbidden candidate")
	return nil
}

func TestQueries(t *testing.T) {
	v := mpView(t)
	for _, tc := range []struct {
		query string
		want  []string // lines of the answer's text, in order
	}{
		{"?- po(X, Y), W(X), W(Y).", []string{"X = e", ";  Y = e", "1 answer(s)"}},
		{"?- rf(X, Y), IW(X)", []string{"X = e", "answer(s)"}},
		{"?- po(e7, e5).", []string{"no"}},
		{"?- po(e5, e7).", []string{"yes"}},
		{"?- W(e0).", []string{"yes"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			q, err := ParseQuery(tc.query)
			require.NoError(t, err)
			a, err := v.Query(context.Background(), q, 0, 0)
			require.NoError(t, err)
			text := v.Text(a)
			for _, w := range tc.want {
				i := strings.Index(text, w)
				require.GreaterOrEqual(t, i, 0, "%q not in\n%s", w, text)
				text = text[i+len(w):]
			}
		})
	}
	_, err := ParseQuery("?- po(X, .")
	require.Error(t, err)
	require.NotNil(t, QueryErrors(err), "a syntax error is the parser's list, with positions")
	_, err = ParseQuery("?- po(X, Y). ?- rf(X, Y).")
	require.EqualError(t, err, "expected one query: ?- BODY.")
	require.Nil(t, QueryErrors(err))
}

func TestShowRelationLimit(t *testing.T) {
	v := mpView(t)
	all, err := v.ShowRelation("po", 0)
	require.NoError(t, err)
	require.Greater(t, all.Total, 1)
	require.Len(t, all.Rows, all.Total)
	require.Equal(t, []string{"po.1", "po.2"}, all.Columns)
	text := v.Text(all)
	assert.Equal(t, all.Total, strings.Count(text, "  ->  "))
	assert.True(t, strings.HasSuffix(text, "po: "+strconv.Itoa(all.Total)+" tuple(s)\n"), text)

	one, err := v.ShowRelation("po", 1)
	require.NoError(t, err)
	require.Len(t, one.Rows, 1)
	assert.Contains(t, v.Text(one), "more not shown: answers are limited to 1")

	_, err = v.ShowRelation("nosuch", 0)
	require.Error(t, err)
}

func TestWhy(t *testing.T) {
	v := mpView(t)
	// The forbidden candidate fails causality: explain its first edge.
	var failing *Check
	for _, c := range v.Checks() {
		if !c.Holds {
			failing = &c
			break
		}
	}
	require.NotNil(t, failing, "MP's forbidden candidate fails a check")
	require.NotEmpty(t, failing.Edges)
	require.Contains(t, failing.Chain, "-"+failing.Edges[0].Rel+"->")

	for _, ed := range failing.Edges {
		if ed.Rel != "sync" && ed.Rel != "po" {
			continue
		}
		n, err := v.Why(ed.Rel, []int{ed.From, ed.To}, 0)
		require.NoError(t, err)
		text, ids := v.DerivationText(n)
		assert.True(t, strings.HasPrefix(text, ed.Rel+"(e"), text)
		assert.Contains(t, text, "[base]", "a derivation goes down to base relations")
		assert.Contains(t, ids, ed.From)
		assert.Contains(t, text, "events:\n  "+v.Label(ed.From)+"\n")

		_, err = v.Why(ed.Rel, []int{ed.From, ed.To}, 1)
		if len(n.Children) > 0 {
			require.ErrorContains(t, err, "the limit of one answer")
		}
	}
	_, err := v.Why("po", []int{0, 99}, 0)
	var ne *NotEventError
	require.True(t, errors.As(err, &ne))
	require.Equal(t, 99, ne.Atom)
}

func TestEventsAndLabels(t *testing.T) {
	v := mpView(t)
	evs := v.Events()
	require.NotEmpty(t, evs)
	threads := map[string]bool{}
	for i, e := range evs {
		require.Equal(t, i, e.ID)
		require.Equal(t, "e"+strconv.Itoa(i)+" "+e.Label, v.Label(i))
		threads[e.Thread] = true
	}
	assert.True(t, threads[""], "initial writes have no thread")
	assert.True(t, threads["P0"] && threads["P1"], "%v", threads)
}
