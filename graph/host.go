package graph

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// placement describes where a thread runs, for its column header: "host"
// for a host thread; the CTA, the cluster when it is not the CTA's number,
// the GPU and, in tests with host threads, the kernel for a device thread.
func placement(th *litmus.Thread) string {
	if th.Host {
		return "host"
	}
	s := fmt.Sprintf("cta %d, gpu %d", th.CTA, th.GPU)
	if th.Cluster != th.CTA {
		s = fmt.Sprintf("cta %d, cluster %d, gpu %d", th.CTA, th.Cluster, th.GPU)
	}
	if th.Kernel != "" {
		s += ", kernel " + th.Kernel
	}
	return s
}
