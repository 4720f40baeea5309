package fill

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// firstCandidate returns the first candidate execution of a herd test.
func firstCandidate(t *testing.T, src string) *execution.Execution {
	t.Helper()
	tc, err := litmus.ParseHerd("t.litmus", []byte(src))
	require.NoError(t, err)
	a, err := execution.Prepare(tc, execution.DefaultOptions())
	require.NoError(t, err)
	var x *execution.Execution
	_, err = a.Enumerate(0, func(c *execution.Execution) bool {
		x = c.Clone()
		return false
	})
	require.NoError(t, err)
	require.NotNil(t, x)
	return x
}

// pairs lists a filled relation's pairs by the texts of their events'
// instructions (with their parts), sorted.
func pairs(x *execution.Execution, r *relations.Rel) []string {
	var out []string
	for i, j := range r.All() {
		label := func(e int) string {
			l := x.Label(e)
			return l[strings.Index(l, ":")+1:]
		}
		out = append(out, label(i)+" -> "+label(j))
	}
	sort.Strings(out)
	return out
}

// TestFillAsyncRelations checks the relations about asynchronous
// operations on one thread: program order leaves the asynchronous
// operations out, group_commit ties each copy to the commit closing its
// group, and wait_pending lists the groups a wait_group leaves pending.
func TestFillAsyncRelations(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ x = 1; z = 2; y @ shared = 0; w @ shared = 0; }
 P0@cta 0,gpu 0 ;
 cp.async.ca.shared.global y, x ;
 cp.async.commit_group ;
 cp.async.ca.shared.global w, z ;
 cp.async.commit_group ;
 cp.async.wait_group 1 ;
exists (x == 1)
`)
	fill := func(name string) []string {
		r := relations.NewRel(len(x.Events))
		fillRel(r, name, x)
		return pairs(x, r)
	}
	// The issues and the group instructions are in program order; the copies' reads and writes are not.
	po := fill("po")
	require.Len(t, po, 10, "5 synchronous events, all ordered")
	for _, p := range po {
		require.NotContains(t, p, "[read", p)
		require.NotContains(t, p, "[write", p)
	}
	require.Equal(t, []string{
		"cp.async.ca.shared.global w, z [issue] -> cp.async.commit_group",
		"cp.async.ca.shared.global y, x [issue] -> cp.async.commit_group",
	}, fill("group_commit"))
	pending := fill("wait_pending")
	require.Len(t, pending, 1, "wait_group 1 leaves the newest group pending")
	same := fill("same_instr")
	require.Contains(t, same, "cp.async.ca.shared.global y, x [issue] -> cp.async.ca.shared.global y, x [write y =1]")
	require.NotContains(t, same, "cp.async.ca.shared.global y, x [issue] -> cp.async.ca.shared.global w, z [issue]")
}

// TestFillAsyncSets checks the sets of a bulk load's events.
func TestFillAsyncSets(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ x = 7; y @ shared = 0; b @ mbarrier 1; }
 P0@cta 0,gpu 0 ;
 mbarrier.arrive.expect_tx b, 16 ;
 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b ;
exists (x == 7)
`)
	members := func(name string) []string { return setMembers(x, name) }
	bulk := "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b"
	require.Equal(t, []string{bulk + " [issue]"}, members("ISSUE"))
	require.Equal(t, []string{bulk + " [read x =7]", bulk + " [write y =7]", bulk + " [implicit proxy fence]"}, members("ASYNC_PROXY"))
	require.Len(t, members("ASYNC"), 5, "read, write, proxy fence, complete-tx read and write")
	require.Contains(t, members("REL"), bulk+" [complete-tx b: writes mbar(phase=1,pending=1,tx=0)]")
	require.Contains(t, members("CLUSTER"), bulk+" [complete-tx b: reads mbar(phase=0,pending=0,tx=16)]")
	require.Len(t, members("MBAR"), 5, "the initial write, the arrive's read and write, the complete-tx's read and write")
	require.Empty(t, members("MBAR_UNINIT"))
	shared := members("SHARED")
	require.Contains(t, shared, "y=0", "initial writes of shared locations")
	require.Contains(t, shared, bulk+" [write y =7]")
	require.NotContains(t, shared, bulk+" [read x =7]")
	require.Contains(t, members("GLOBAL"), "x=7")
}

// TestFillGroupCommitClosers checks which commits close which groups:
// cp.async.wait_all closes a cp.async-group (it is commit_group then
// wait_group 0), and a bulk load, completed on an mbarrier, joins no bulk
// async-group (cp.async.bulk.commit_group batches only the bulk_group
// mechanism).
func TestFillGroupCommitClosers(t *testing.T) {
	cases := []struct {
		name, body string
		want       []string
	}{
		{"wait_all closes a group", `
 cp.async.ca.shared.global y, x ;
 cp.async.wait_all ;
 cp.async.ca.shared.global w, z ;
 cp.async.commit_group ;`, []string{
			"cp.async.ca.shared.global w, z [issue] -> cp.async.commit_group",
			"cp.async.ca.shared.global y, x [issue] -> cp.async.wait_all",
		}},
		{"a bulk load is in no bulk group", `
 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b ;
 cp.async.bulk.global.shared::cta.bulk_group z, w, 16 ;
 cp.async.bulk.commit_group ;`, []string{
			"cp.async.bulk.global.shared::cta.bulk_group z, w, 16 [issue] -> cp.async.bulk.commit_group",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := firstCandidate(t, "PTX T\n{ x = 1; z = 2; y @ shared = 0; w @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,gpu 0 ;"+c.body+"\nexists (x == 1)\n")
			r := relations.NewRel(len(x.Events))
			fillRel(r, "group_commit", x)
			require.Equal(t, c.want, pairs(x, r))
		})
	}
}

// TestFillSameGroup: same_group relates the events (issue, read, write) of
// the instructions one commit closes, both ways, and nothing of
// instructions no commit follows (9.7.9.25.1.1).
func TestFillSameGroup(t *testing.T) {
	cases := []struct {
		name, body string
		want       int
	}{
		{"two copies committed together", `
 cp.async.ca.shared.global y, x ;
 cp.async.ca.shared.global y, z ;
 cp.async.commit_group ;`, 18},
		{"two copies in two groups", `
 cp.async.ca.shared.global y, x ;
 cp.async.commit_group ;
 cp.async.ca.shared.global y, z ;
 cp.async.commit_group ;`, 0},
		{"two copies no commit follows", `
 cp.async.ca.shared.global y, x ;
 cp.async.ca.shared.global y, z ;`, 0},
		{"wait_all closes the group", `
 cp.async.ca.shared.global y, x ;
 cp.async.ca.shared.global y, z ;
 cp.async.wait_all ;`, 18},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := firstCandidate(t, "PTX T\n{ x = 1; z = 2; y @ shared = 0; }\n P0@cta 0,gpu 0 ;"+c.body+"\nexists (x == 1)\n")
			r := relations.NewRel(len(x.Events))
			fillRel(r, "same_group", x)
			got := pairs(x, r)
			require.Len(t, got, c.want, "%v", got)
			for _, p := range got {
				require.NotContains(t, p, "commit_group")
			}
		})
	}
}
