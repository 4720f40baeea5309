package harness

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const mpFenced = `PTX MP+fences
{ data = 0; flag = 0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak data, 1     | ld.relaxed.gpu r0, flag ;
 fence.sc.gpu        | fence.sc.gpu         ;
 st.relaxed.gpu flag, 1 | ld.weak r1, data  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`

// TestHistogramAndAlarm plays MP with fences on a fake GPU that shows the
// forbidden outcome in one instance of ten: the histogram counts every
// state, the forbidden one is an alarm with the model's witness, and the
// state the GPU never showed is listed as unseen.
func TestHistogramAndAlarm(t *testing.T) {
	test := parseTest(t, "mp.litmus", mpFenced)
	o, drv := runFake(t, test, testParams(t, "pte"), func(_, i int) (map[string]int64, bool) {
		switch i % 10 {
		case 0:
			return map[string]int64{"P1:r0": 1, "P1:r1": 0}, false
		case 1, 2, 3:
			return map[string]int64{"P1:r0": 1, "P1:r1": 1}, false
		}
		return map[string]int64{"P1:r0": 0, "P1:r1": 0}, false
	})
	require.NoError(t, o.Refused)
	require.NoError(t, o.Err)
	require.Len(t, drv.Launches(), 5)
	require.Equal(t, 5, o.Launches)
	total := 0
	byState := map[string]*Observed{}
	for _, s := range o.States {
		total += s.Count
		byState[o.format(s.State)] = s
	}
	require.Equal(t, o.Instances, total)
	bad := byState["P1:r0=1; P1:r1=0;"]
	require.NotNil(t, bad)
	require.Equal(t, Forbidden, bad.Verdict)
	require.True(t, bad.Satisfies)
	require.NotNil(t, bad.Why)
	require.Equal(t, Allowed, byState["P1:r0=0; P1:r1=0;"].Verdict)
	require.Len(t, o.Alarms(), 1)
	require.Len(t, o.Unseen, 1) // r0=0, r1=1
	log := logOf(o)
	require.Contains(t, log, "Test MP+fences Allowed\nHistogram (3 states)\n")
	require.Contains(t, log, "*>1:r0=1; 1:r1=0;\n")
	require.Contains(t, log, "\nOk\n\nWitnesses\nPositive: ")
	require.Contains(t, log, "Condition exists (1:r0=1 /\\ 1:r1=0) is validated\n")
	require.Contains(t, log, "Alarm MP+fences 1:r0=1; 1:r1=0; observed")
	require.Contains(t, log, "but the model forbids it:\n  ")
	require.Contains(t, log, "Unseen MP+fences 1:r0=0; 1:r1=1; allowed by the model, not observed in")
	require.Contains(t, log, "GPU MP+fences: Fake H100, sm_90, 4 SMs, CUDA 13.0 driver\n")
	require.Contains(t, log, "Parameters MP+fences: -preset pte -seed 7 -iterations 5")
	var js map[string]any
	var b bytes.Buffer
	require.NoError(t, JSON(&b, o))
	require.NoError(t, json.Unmarshal(b.Bytes(), &js))
	require.Equal(t, float64(1), js["alarms"])
	require.Equal(t, "Ok", js["verdict"])
	require.Equal(t, "MP+fences", js["name"])
}

// TestNoAlarm: the states the model allows raise no alarm, and the log's
// counts are litmus7's.
func TestNoAlarm(t *testing.T) {
	test := parseTest(t, "mp.litmus", mpFenced)
	o, _ := runFake(t, test, testParams(t, "plain"), func(_, i int) (map[string]int64, bool) {
		return map[string]int64{"P1:r0": int64(i % 2), "P1:r1": int64(i % 2)}, false
	})
	require.NoError(t, o.Err)
	require.Empty(t, o.Alarms())
	log := logOf(o)
	require.Contains(t, log, "\nNo\n\nWitnesses\nPositive: 0, Negative: ")
	require.Contains(t, log, "is NOT validated\n")
	require.Contains(t, log, "Observation MP+fences Never 0 ")
	require.NotContains(t, log, "Alarm")
}

// TestBoundedInstances: an instance whose loop hit the bound is counted
// apart and not in the histogram.
func TestBoundedInstances(t *testing.T) {
	test := parseTest(t, "spin.litmus", `PTX Spin
{ x = 0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.release.gpu x, 1 | L: ;
                | ld.acquire.gpu r0, x ;
                | beq r0, 0, L ;
exists (P1:r0 == 0)
`)
	o, _ := runFake(t, test, testParams(t, "pte"), func(_, i int) (map[string]int64, bool) {
		return map[string]int64{"P1:r0": 1}, i%4 == 0
	})
	require.NoError(t, o.Err)
	require.Positive(t, o.Bounded)
	require.Equal(t, o.Instances-o.Bounded, o.States[0].Count)
	require.Contains(t, logOf(o), "instances hit the loop bound (-spin-bound 16384) and are not counted")
}

// TestRefusals: what the device cannot run is refused, naming the
// instruction and the architecture.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"tc.litmus", "PTX T\n{ d @ tmem = 0; a @ shared = 1; b @ shared = 2; }\n P0@cta 0,gpu 0 ;\n tcgen05.mma d, a, b ;\nexists (P0:r0 == 0)\n", "sm_100a and later"},
		{"host.litmus", "PTX H\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K ;\n cudaLaunchKernel K | st x, 1 ;\nexists (x == 0)\n", "host thread"},
		{"bar.litmus", "PTX B\n{ x = 0; P0:p = 1; P1:q = 1; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.red.popc.u32 r0, 0, p | bar.red.popc.u32 r1, 0, q ;\nexists (P0:r0 == 2)\n", "bar.red reduces"},
		{"gpus.litmus", "PTX G\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st x, 1 | ld r0, x ;\nexists (P1:r0 == 0)\n", "2 GPUs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, drv := runFake(t, parseTest(t, tc.name, tc.src), testParams(t, "pte"), nil)
			require.Error(t, o.Refused)
			require.Contains(t, o.Refused.Error(), tc.want)
			require.Empty(t, drv.Launches())
			require.True(t, strings.HasPrefix(logOf(o), "Refused "))
		})
	}
}
