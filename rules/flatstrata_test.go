package rules

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestFlatStrataMatchGeneral evaluates random programs on random inputs
// twice, with the strata of flatStrata computed by runDirtyFlat and with
// every stratum through the general path (derivesNothing's shortcut, then
// runStratum): every relation, every check, the order search's result and
// the runs of every stratum must agree, also after inputs change and the
// instances are evaluated again.
func TestFlatStrataMatchGeneral(t *testing.T) {
	orderPrograms(t, 20261129, programCount(150), func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		for mi, in := range insts {
			general := in.p.NewInstance(in.dom)
			general.flatStrata = nil
			for round := range 3 {
				seed := rng.Uint64()
				for _, x := range []*Instance{in, general} {
					require.NoError(t, genInputs(rand.New(rand.NewPCG(seed, 5)), x, inputs, round == 2))
				}
				require.Equal(t, general.Solve(), in.Solve(), "mode %s round %d: Solve\nprogram:\n%s", evalModes[mi].name, round, src)
				in.Run()
				general.Run()
				for _, name := range in.p.model.Names {
					require.Equal(t, engineTuples(general, name), engineTuples(in, name),
						"mode %s round %d: relation %s\nprogram:\n%s", evalModes[mi].name, round, name, src)
				}
				require.Equal(t, general.Checks(), in.Checks(), "mode %s round %d\nprogram:\n%s", evalModes[mi].name, round, src)
				require.Equal(t, general.sched.runs, in.sched.runs, "mode %s round %d: the strata evaluated\nprogram:\n%s", evalModes[mi].name, round, src)
			}
		}
	})
}
