package litmus

// This file holds the kinds of the asynchronous instructions and mbarrier
// operations (PTX ISA 8.9.1.1 and the instruction pages cited in
// docs/model.md).

// MBarOp is the operation of an mbarrier instruction.
type MBarOp int

const (
	// MBarInit is mbarrier.init: (re)initialise the object.
	MBarInit MBarOp = iota
	// MBarArrive is mbarrier.arrive and mbarrier.arrive.expect_tx.
	MBarArrive
	// MBarExpectTx is mbarrier.expect_tx.
	MBarExpectTx
	// MBarCompleteTx is mbarrier.complete_tx.
	MBarCompleteTx
	// MBarTestWait is mbarrier.test_wait.
	MBarTestWait
	// MBarTryWait is mbarrier.try_wait.
	MBarTryWait
	// MBarArriveDrop is mbarrier.arrive_drop and
	// mbarrier.arrive_drop.expect_tx: an arrive-on that also lowers the
	// expected arrival count of the current and later phases.
	MBarArriveDrop
	// MBarInval is mbarrier.inval: the location holds no mbarrier object
	// afterwards.
	MBarInval
)

var mbarOpNames = [...]string{"init", "arrive", "expect_tx", "complete_tx", "test_wait", "try_wait", "arrive_drop", "inval"}

func (o MBarOp) String() string { return mbarOpNames[o] }

// IsWait reports whether the operation tests a phase (test_wait, try_wait).
func (o MBarOp) IsWait() bool { return o == MBarTestWait || o == MBarTryWait }

// IsUpdate reports whether the operation reads and writes the object's
// state atomically: arrive, arrive_drop, expect_tx and complete_tx (init
// and inval only write; the waits only read).
func (o MBarOp) IsUpdate() bool { return o != MBarInit && o != MBarInval && !o.IsWait() }

// CopyKind is the kind of an asynchronous copy.
type CopyKind int

const (
	// CopyAsync is cp.async: global to shared, generic proxy.
	CopyAsync CopyKind = iota
	// CopyBulkLoad is cp.async.bulk from global to shared memory, completed
	// by a complete-tx on an mbarrier.
	CopyBulkLoad
	// CopyBulkStore is cp.async.bulk from shared to global memory, in a
	// bulk async-group.
	CopyBulkStore
	// CopyBulkReduce is cp.reduce.async.bulk from shared to global memory,
	// in a bulk async-group.
	CopyBulkReduce
)

var copyNames = [...]string{"cp.async", "cp.async.bulk load", "cp.async.bulk store", "cp.reduce.async.bulk"}

func (k CopyKind) String() string { return copyNames[k] }

// Bulk reports whether the copy is a bulk copy (async proxy).
func (k CopyKind) Bulk() bool { return k != CopyAsync }

// GroupFamily says which asynchronous operations a commit or wait groups.
type GroupFamily int

const (
	// GroupCpAsync are cp.async-groups (cp.async.commit_group, ...).
	GroupCpAsync GroupFamily = iota
	// GroupBulk are bulk async-groups (cp.async.bulk.commit_group, ...).
	GroupBulk
	// GroupWgmma are wgmma-groups (wgmma.commit_group, ...).
	GroupWgmma
)

var familyNames = [...]string{"cp.async", "cp.async.bulk", "wgmma"}

func (f GroupFamily) String() string { return familyNames[f] }

// GroupOp is what a group instruction does.
type GroupOp int

const (
	// GroupCommit closes the group of the uncommitted operations.
	GroupCommit GroupOp = iota
	// GroupWait waits until at most N of the most recent groups are pending.
	GroupWait
	// GroupWaitAll is cp.async.wait_all: commit, then wait for every group.
	GroupWaitAll
)

// SpaceQual is a state-space qualifier written on an instruction.
type SpaceQual int

const (
	// SpaceQNone: the instruction names no state space (generic addressing).
	SpaceQNone SpaceQual = iota
	// SpaceQGlobal is .global.
	SpaceQGlobal
	// SpaceQShared is .shared or .shared::cta: the executing CTA's shared memory.
	SpaceQShared
	// SpaceQCluster is .shared::cluster: the shared memory of any CTA of
	// the cluster.
	SpaceQCluster
)

var spaceQualNames = [...]string{"", "global", "shared::cta", "shared::cluster"}

func (q SpaceQual) String() string { return spaceQualNames[q] }
