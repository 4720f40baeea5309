// Package gen builds litmus tests from cycles of relations, as herdtools'
// diy7 does: a cycle such as "PodWW Rfe PodRR Fre" (message passing) names
// the program-order and communication edges between the events of a test,
// and the test's condition asks for the outcome in which every edge of the
// cycle holds, an outcome sequential consistency forbids. The vocabulary is
// diy7's (Po, Rf, Co, Fr edges, internal or external, fences, dependencies)
// extended for PTX: fences with their memory order and scope
// (Fence.sc.gpudWR), memory orders and scopes of accesses (Rel.gpu,
// Acq.cta), read-modify-writes (Rmw), accesses through a second virtual
// address (Alias) or through a surface, texture or constant reference
// (Surface, Texture, Constant), proxy fences (Fence.proxy.aliasdWR,
// Fence.proxy.asyncsWW, Fence.proxy.surfacesWR), the placement of threads in
// CTAs, clusters and GPUs, and synchronized edges between threads, each a
// template of several instructions that places its threads: CTA and
// cluster barriers (BarSyncdWR, BarClustersWR), an mbarrier arrive and
// wait (MbarsWR), also from another CTA of the cluster (Mbar.remotesWR)
// or waited for by a try_wait loop (Mbar.loopsWR), and a bulk copy (TMA)
// completing on an mbarrier before a wait (TmasWR); and events performed
// by bulk copies: a bulk store's read (Bulk), a TMA load's write (Tma).
// Tests are named as diy7 names them (MP,
// SB+fence.sc.gpus, ...). Enumerate lists every cycle of a
// relaxation list up to a size, as diy7 -relax ... -safe ... does; Cross
// expands alternatives, as diycross7 does; Prototype writes the cycle of a
// family by its nickname (MP, IRIW, Z6.3, ...).
package gen
