package checker

import (
	"reflect"
	"slices"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// sessionWorkerFields are the fields of a session that are not its plan:
// each goroutine's own, made by fork for its goroutine (fresh) or left
// at their zero value until its search sets them (zero).
var sessionWorkerFields = map[string]string{
	// made by fork: the model runs with instances and results of their
	// own, and the buffers of a candidate's final writes and registers
	"runs": "fresh", "finalBuf": "fresh", "regs": "fresh",
	// the state of this goroutine's search
	"stateBuf": "zero", "keyBuf": "zero", "solveBuf": "zero", "flagBuf": "zero", "stopped": "zero", "halt": "zero", "partial": "zero",
	"undefined": "zero", "err": "zero", "skipped": "zero", "payoff": "zero", "accepted": "zero",
	"rfBuf": "zero", "learning": "zero", "leafConsistent": "zero", "cost": "zero", "probing": "zero",
	// the memory the goroutine starting the check takes for all of them
	"reserved": "zero", "waited": "zero",
	// the models of a pair told apart (pair.go): CheckPair does not split
	// its search, and a fork leaves it nil
	"pair": "zero",
}

// TestSessionFields checks that every field of a session is either in its
// plan, which forks share, or one goroutine's own and started afresh by
// fork: nothing is copied from one goroutine's search to another's.
func TestSessionFields(t *testing.T) {
	typ := reflect.TypeFor[session]()
	var fields, listed []string
	for i := range typ.NumField() {
		if f := typ.Field(i); f.Name != "plan" {
			fields = append(fields, f.Name)
		}
	}
	for name := range sessionWorkerFields {
		listed = append(listed, name)
	}
	slices.Sort(fields)
	slices.Sort(listed)
	require.Equal(t, listed, fields, "session's fields changed: put a new one in the plan (plan.go) if it is the test's, or list it here and have fork start it afresh")

	// A split search has a plan of its own.
	m := spec(t)
	opts := DefaultOptions()
	AlwaysPrune(&opts)
	opts.Cores, opts.splitMin = limits.NewCores(3), 2
	var sess *session
	rs := checkAllWith([]*Model{m}, herd(t, families.MPPayload(4)), opts, nil, func(s *session) { sess = s })
	require.NoError(t, rs[0].Err)
	require.NotZero(t, rs[0].Evaluated, "the search was split")
	assert.Nil(t, sess.yields, "the test's plan is not changed by a split search")

	// A fork of a session whose every field is set, of a test that
	// observes registers and locations.
	const observed = `PTX MP+final
{ x=0; y=0; }
 P0@cta 0,gpu 0     | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;
 st.relaxed.gpu y, 1 | st.relaxed.gpu x, 2  ;
exists (P1:r0 == 1 /\ x == 1)
`
	opts.Cores = nil
	rs = checkAllWith([]*Model{m}, herd(t, observed), opts, nil, func(s *session) { sess = s })
	require.NoError(t, rs[0].Err)
	require.True(t, sess.prune, "the search asks about partial candidates")
	parent := reflect.ValueOf(sess).Elem()
	for name := range sessionWorkerFields {
		if f := parent.FieldByName(name); f.IsZero() {
			setNonZero(t, reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
		}
	}
	w := sess.fork(sess.plan)
	assert.Same(t, sess.plan, w.plan, "a fork shares the plan")
	fork := reflect.ValueOf(w).Elem()
	for name, how := range sessionWorkerFields {
		f, p := fork.FieldByName(name), parent.FieldByName(name)
		switch how {
		case "zero":
			assert.True(t, f.IsZero(), "%s is not zero in a fork", name)
		case "fresh":
			require.Equal(t, reflect.Slice, f.Kind(), name)
			require.NotZero(t, p.Len(), name)
			assert.Equal(t, p.Len(), f.Len(), "%s has its parent's size", name)
			assert.NotEqual(t, p.Pointer(), f.Pointer(), "%s is shared with the parent", name)
		default:
			t.Fatalf("%s: %q is neither fresh nor zero", name, how)
		}
	}
}

// setNonZero sets v, a zero value, to some value other than zero.
func setNonZero(t *testing.T, v reflect.Value) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
	case reflect.Interface:
		v.Set(reflect.ValueOf(errTimeout{}))
	case reflect.Struct:
		setNonZero(t, reflect.NewAt(v.Field(0).Type(), unsafe.Pointer(v.Field(0).UnsafeAddr())).Elem())
	default:
		t.Fatalf("setNonZero: no value for a %s", v.Type())
	}
}
