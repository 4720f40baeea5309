package harness

import (
	"bytes"
	"encoding/binary"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/fake"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
)

// smallGPU is a fake device small enough for fast tests.
func smallGPU() gpu.Device {
	d := fake.H100()
	d.SMs = 4
	return d
}

// outcomeFunc gives instance i's values by observable label ("P1:r0",
// "x"), and whether a thread hit the loop bound.
type outcomeFunc func(launch, i int) (vals map[string]int64, bounded bool)

// player is a fake kernel that writes each instance's outcome where the
// harness reads it, as the PTX kernel would.
func player(plan func() *ptxgen.Plan, out outcomeFunc) fake.Kernel {
	launch := 0
	return func(_ string, l gpu.Launch, mem *fake.Memory) error {
		p := plan()
		g, bufs, err := ptxgen.ReadParams(p, l.Params)
		if err != nil {
			return err
		}
		results, err := mem.Bytes(gpu.Ptr(bufs.Results), g.ResultBytes(p))
		if err != nil {
			return err
		}
		locs, err := mem.Bytes(gpu.Ptr(bufs.Base), g.LocationBytes(p))
		if err != nil {
			return err
		}
		launch++
		for i := 0; i < g.Instances(); i++ {
			vals, bounded := out(launch, i)
			for _, r := range p.Roles {
				st := uint64(statusRan)
				if bounded {
					st |= statusBounded
				}
				binary.LittleEndian.PutUint64(results[g.ResultOffset(p, i, r.Status):], st)
			}
			for _, o := range p.Observables {
				v, ok := vals[o.Label(p.Test)]
				if !ok {
					continue
				}
				if o.Result >= 0 {
					binary.LittleEndian.PutUint64(results[g.ResultOffset(p, i, o.Result):], uint64(v))
					continue
				}
				putValue(locs[g.LocationOffset(p, i, o.Loc.Index):], v, o.Loc.Size)
			}
		}
		return nil
	}
}

// parseTest parses a test from text.
func parseTest(t *testing.T, name, src string) *litmus.Test {
	t.Helper()
	f := litmus.FormatHerd
	if filepath.Ext(name) == ".test" {
		f = litmus.FormatNV
	}
	tests, err := litmus.Parse(name, []byte(src), f)
	require.NoError(t, err)
	return tests[0]
}

// defaultModel is the embedded model.
func defaultModel(t *testing.T) *checker.Model {
	t.Helper()
	m, err := loader.Load(loader.Source{Name: ptxmm.DefaultModelName, FS: ptxmm.DefaultModelFS()}, loader.Options{})
	require.NoError(t, err)
	return m.Model
}

// runFake runs a test on a fake device whose kernel plays out.
func runFake(t *testing.T, test *litmus.Test, par Params, out outcomeFunc) (*Outcome, *fake.Driver) {
	t.Helper()
	var plan *ptxgen.Plan
	drv := fake.New(smallGPU(), player(func() *ptxgen.Plan { return plan }, out))
	var err error
	plan, err = ptxgen.NewPlan(test)
	if err != nil {
		plan = nil
	}
	o := Run(drv, test, Config{Params: par, Model: defaultModel(t), Options: checker.DefaultOptions()})
	return o, drv
}

// testParams are small parameters for the fake device.
func testParams(t *testing.T, preset string) Params {
	t.Helper()
	p, err := Preset(preset, smallGPU().SMs)
	require.NoError(t, err)
	p.Iterations, p.Seed = 5, 7
	return p
}

// logOf prints an outcome's log.
func logOf(o *Outcome) string {
	var b bytes.Buffer
	Log(&b, o)
	return b.String()
}
