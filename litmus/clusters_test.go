package litmus

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPlaceClusters checks the cluster of threads whose placement names
// none: they join the cluster their CTA is in, or make their CTA a cluster
// of its own that no explicitly placed CTA shares.
func TestPlaceClusters(t *testing.T) {
	tests := []struct {
		name   string
		header string // herd thread header cells
		want   []int  // the cluster of each thread
	}{
		{"no clusters: each CTA its own", "P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 1,gpu 0", []int{0, 1, 1}},
		{"named cluster takes the CTA's number", "P0@cta 0,cluster 1,gpu 0 | P1@cta 1,gpu 0", []int{1, 2}},
		{"named cluster elsewhere", "P0@cta 0,cluster 5,gpu 0 | P1@cta 1,gpu 0", []int{5, 1}},
		{"same CTA joins the named cluster", "P0@cta 0,cluster 1,gpu 0 | P1@cta 0,gpu 0", []int{1, 1}},
		{"same CTA joins, named later", "P0@cta 0,gpu 0 | P1@cta 0,cluster 3,gpu 0", []int{3, 3}},
		{"two clashing CTAs get distinct clusters", "P0@cta 0,cluster 1,gpu 0 | P1@cta 0,cluster 1,gpu 0 | P2@cta 1,gpu 0 | P3@cta 2,gpu 0 | P4@cta 1,gpu 0", []int{1, 1, 3, 2, 3}},
		{"clusters are per GPU", "P0@cta 0,cluster 1,gpu 0 | P1@cta 1,gpu 1", []int{1, 1}},
		{"an explicit cluster 0 with CTA 0 unnamed elsewhere", "P0@cta 1,cluster 0,gpu 0 | P1@cta 0,gpu 0", []int{0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.want)
			row := strings.Repeat(" |", n-1)
			src := "PTX T\n{ x = 0; }\n " + tc.header + " ;\n" + row + " ;\nexists (x == 0)\n"
			test := mustHerd(t, src)
			var got []int
			for _, th := range test.Threads {
				got = append(got, th.Cluster)
			}
			require.Equal(t, tc.want, got)
		})
	}
}

// TestPlaceClustersNV checks the same rule for .test thread names.
func TestPlaceClustersNV(t *testing.T) {
	src := ".global x;\n" +
		"d0.c1.b0.t0 { st [x], 1; }\n" +
		"d0.b1.t0 { ld r0, [x]; }\n" +
		"d0.b0.t1 { ld r1, [x]; }\n" +
		"assert (r0 == 0 || r0 == 1) as a;\n"
	tests := mustNV(t, "t.test", src)
	require.Len(t, tests, 1)
	var got []int
	for _, th := range tests[0].Threads {
		got = append(got, th.Cluster)
	}
	require.Equal(t, []int{1, 2, 1}, got)
}

// TestPlaceClustersNVSameThread checks that a thread named with and
// without its cluster is one thread given twice.
func TestPlaceClustersNVSameThread(t *testing.T) {
	src := ".global x;\nd0.c1.b0.t0 { st [x], 1; }\nd0.b0.t0 { ld r0, [x]; }\nassert (r0 == 0) as a;\n"
	_, err := ParseNV("t.test", []byte(src))
	require.ErrorContains(t, err, "t.test:3:1: thread d0.b0.t0 is the same thread as d0.c1.b0.t0 (line 2)")
}
