package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/relations"
)

// TestInputIndex checks that setting and inserting an input through the
// index InputIndex resolves does what the same call by name does, and
// that an index is checked as a name is.
func TestInputIndex(t *testing.T) {
	p := compileSrc(t, ".decl e(x, y) .input e\n.decl s(x) .input s\nlet t = e+\nlet u = [s] ; e\n.order o over e\n")
	in := newInst(t, p, "a", "b", "c")
	e, err := in.InputIndex("e", 2)
	require.NoError(t, err)
	s, err := in.InputIndex("s", 1)
	require.NoError(t, err)
	o, err := in.InputIndex("o", 2)
	require.NoError(t, err)

	r := relations.NewRel(3)
	r.Add(0, 1)
	require.NoError(t, in.SetRelAt(e, r))
	set := relations.NewSet(3)
	set.Add(1)
	require.NoError(t, in.SetSetAt(s, set))
	in.Run()
	assert.Equal(t, []string{"a,b"}, rows(t, in, "t"))
	assert.Equal(t, []string{}, rows(t, in, "u"))

	r2 := relations.NewRel(3)
	r2.Add(1, 2)
	require.NoError(t, in.InsertRelAt(e, r2))
	in.Run()
	assert.Equal(t, []string{"a,b", "a,c", "b,c"}, rows(t, in, "t"))
	assert.Equal(t, []string{"b,c"}, rows(t, in, "u"))
	set2 := relations.NewSet(3)
	set2.Add(0)
	require.NoError(t, in.InsertSetAt(s, set2))
	in.Run()
	assert.Equal(t, []string{"a,b", "b,c"}, rows(t, in, "u"))

	// ClearAt empties an input of either arity, and what depends on it
	// follows; an input already empty stays so.
	require.NoError(t, in.ClearAt(s))
	in.Run()
	assert.Equal(t, []string{}, rows(t, in, "u"))
	assert.Equal(t, []string{"a,b", "a,c", "b,c"}, rows(t, in, "t"))
	require.NoError(t, in.ClearAt(e))
	require.NoError(t, in.ClearAt(e))
	in.Run()
	assert.Equal(t, []string{}, rows(t, in, "t"))
	require.NoError(t, in.SetRelAt(e, r))
	in.Run()
	assert.Equal(t, []string{"a,b"}, rows(t, in, "t"))

	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"clear a derived relation", in.ClearAt(int(p.byName["t"])), "not an .input"},
		{"clear out of range", in.ClearAt(len(p.rels)), "no relation of the model has index"},
		{"clear negative", in.ClearAt(-1), "no relation of the model has index"},
		{"unary index as binary", in.SetRelAt(s, r), "has 1 column(s), not 2"},
		{"binary index as unary", in.SetSetAt(e, set), "has 2 column(s), not 1"},
		{"derived relation", in.SetRelAt(int(p.byName["t"]), r), "not an .input"},
		{"out of range", in.SetRelAt(len(p.rels), r), "no relation of the model has index"},
		{"negative", in.InsertSetAt(-1, set), "no relation of the model has index"},
		{"order", in.InsertRelAt(o, r), "Solve chooses"},
		{"domain", in.InsertSetAt(s, relations.NewSet(4)), "domain has 3"},
		{"domain of a set", in.SetSetAt(s, relations.NewSet(4)), "set over 4 atoms"},
		{"domain of a relation", in.SetRelAt(e, relations.NewRel(2)), "relation over 2 atoms"},
	} {
		assert.ErrorContains(t, c.err, c.want, c.name)
	}
	_, err = in.InputIndex("t", 2)
	assert.ErrorContains(t, err, "not an .input")
	_, err = in.InputIndex("nope", 1)
	assert.ErrorContains(t, err, "unknown relation nope")
}
