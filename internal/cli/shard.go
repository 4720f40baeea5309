package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Shard is the part of a run one machine checks (ptxmm check -shard I/N):
// the run's tests are numbered from 0 in the order ptxmm check takes them
// (the arguments in order, the files of a folder sorted, the rows of a
// .test template in order), and test k belongs to shard k mod Count. The
// zero Shard is the whole run.
type Shard struct {
	// Index is the shard's number, from 0, below Count.
	Index, Count int
	// Source says where the shard came from, for the note on standard
	// error: "-shard 1/4", "JOB_COMPLETION_INDEX=3 and -shard-count 8", ...
	Source string
}

// Enabled tells whether the run is split.
func (s Shard) Enabled() bool { return s.Count > 0 }

// owns tells whether the shard checks test k of the run.
func (s Shard) owns(k int) bool { return !s.Enabled() || k%s.Count == s.Index }

// The variables batch engines set in each task of an array of tasks.
const (
	// EnvJobIndex is set by Kubernetes in the pods of an Indexed Job: the
	// pod's completion index, from 0 to .spec.completions-1. The count is
	// not in the environment.
	EnvJobIndex = "JOB_COMPLETION_INDEX"
	// The Slurm job array variables: the task's index, and the array's
	// number of tasks, lowest index, highest index and step
	// (sbatch --array=MIN-MAX:STEP).
	EnvSlurmID    = "SLURM_ARRAY_TASK_ID"
	EnvSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	EnvSlurmMin   = "SLURM_ARRAY_TASK_MIN"
	EnvSlurmMax   = "SLURM_ARRAY_TASK_MAX"
	EnvSlurmStep  = "SLURM_ARRAY_TASK_STEP"
)

// ResolveShard works out which shard to check: from spec, the value of
// -shard ("I/N"), when given; otherwise from a Kubernetes Indexed Job's
// JOB_COMPLETION_INDEX, with the count from -shard-count (count; 0 when
// not given), or from a Slurm job array's SLURM_ARRAY_TASK_* variables.
// It returns the zero Shard when nothing asks for one.
func ResolveShard(spec string, count int, getenv func(string) string) (Shard, error) {
	if count < 0 {
		return Shard{}, fmt.Errorf("-shard-count %d: the number of shards is at least 1", count)
	}
	if spec != "" {
		s, err := ParseShard(spec)
		if err != nil {
			return Shard{}, err
		}
		if count != 0 && count != s.Count {
			return Shard{}, fmt.Errorf("-shard %s and -shard-count %d disagree on the number of shards", spec, count)
		}
		return s, nil
	}
	k8s, slurm := getenv(EnvJobIndex), getenv(EnvSlurmID)
	switch {
	case k8s != "" && slurm != "":
		return Shard{}, fmt.Errorf("both %s=%s (Kubernetes) and %s=%s (Slurm) are set: say which shard to check with -shard I/N",
			EnvJobIndex, k8s, EnvSlurmID, slurm)
	case k8s != "":
		return kubernetesShard(k8s, count)
	case slurm != "":
		return slurmShard(slurm, count, getenv)
	case count != 0:
		return Shard{}, fmt.Errorf("-shard-count %d: no shard index: %s (Kubernetes Indexed Jobs) and %s (Slurm job arrays) are not set; give -shard I/%d",
			count, EnvJobIndex, EnvSlurmID, count)
	}
	return Shard{}, nil
}

// ParseShard reads -shard I/N: shard I, counted from 0, of N.
func ParseShard(spec string) (Shard, error) {
	is, ns, ok := strings.Cut(spec, "/")
	if !ok {
		return Shard{}, fmt.Errorf("-shard %s: expected I/N, shard I (counted from 0) of N, such as -shard 0/4", spec)
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if err := errors.Join(err1, err2); err != nil {
		return Shard{}, fmt.Errorf("-shard %s: expected two whole numbers I/N, such as -shard 0/4", spec)
	}
	if err := checkShard(i, n); err != nil {
		return Shard{}, fmt.Errorf("-shard %s: %v", spec, err)
	}
	return Shard{Index: i, Count: n, Source: "-shard " + spec}, nil
}

// checkShard validates shard i of n.
func checkShard(i, n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("there is at least 1 shard, not %d", n)
	case i < 0:
		return fmt.Errorf("the shard's index counts from 0, so it is at least 0, not %d", i)
	case i >= n:
		return fmt.Errorf("the shard's index counts from 0, so with %d shards it is 0 to %d, not %d", n, n-1, i)
	}
	return nil
}

// kubernetesShard reads JOB_COMPLETION_INDEX, which counts from 0; the
// count is the Job's .spec.completions, given with -shard-count.
func kubernetesShard(index string, count int) (Shard, error) {
	i, err := strconv.Atoi(index)
	if err != nil {
		return Shard{}, fmt.Errorf("%s=%q: expected a whole number", EnvJobIndex, index)
	}
	if count == 0 {
		return Shard{}, fmt.Errorf("%s=%s is set (a Kubernetes Indexed Job), but not the number of shards: give -shard-count N, the Job's .spec.completions",
			EnvJobIndex, index)
	}
	if err := checkShard(i, count); err != nil {
		return Shard{}, fmt.Errorf("%s=%s with -shard-count %d: %v", EnvJobIndex, index, count, err)
	}
	return Shard{Index: i, Count: count, Source: fmt.Sprintf("%s=%s and -shard-count %d", EnvJobIndex, index, count)}, nil
}

// slurmShard reads the job array variables. Array indices need not start
// at 0 (sbatch --array=1-16) and may step (--array=0-30:2): the shard is
// the task's place in the array, (ID-MIN)/STEP. An array given as a list
// of indices that is not such a range (--array=1,4,9) is refused: its
// places cannot be told from the variables.
func slurmShard(id string, count int, getenv func(string) string) (Shard, error) {
	vars := map[string]int{}
	for _, name := range []string{EnvSlurmID, EnvSlurmCount, EnvSlurmMin, EnvSlurmMax, EnvSlurmStep} {
		v := getenv(name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return Shard{}, fmt.Errorf("%s=%q: expected a whole number", name, v)
		}
		vars[name] = n
	}
	for _, name := range []string{EnvSlurmCount, EnvSlurmMin} {
		if _, ok := vars[name]; !ok {
			return Shard{}, fmt.Errorf("%s=%s is set (a Slurm job array), but not %s: give -shard I/N", EnvSlurmID, id, name)
		}
	}
	n, lo, task := vars[EnvSlurmCount], vars[EnvSlurmMin], vars[EnvSlurmID]
	step, ok := vars[EnvSlurmStep]
	if !ok {
		step = 1
	}
	source := fmt.Sprintf("%s=%d (%s=%d, %s=%d", EnvSlurmID, task, EnvSlurmMin, lo, EnvSlurmCount, n)
	if step != 1 {
		source += fmt.Sprintf(", %s=%d", EnvSlurmStep, step)
	}
	source += ")"
	if step < 1 || task < lo || (task-lo)%step != 0 {
		return Shard{}, fmt.Errorf("%s: the task is not on the array's range MIN, MIN+STEP, ...", source)
	}
	if hi, ok := vars[EnvSlurmMax]; ok && (hi-lo)/step+1 != n {
		return Shard{}, fmt.Errorf("%s with %s=%d: the array's indices are not a range (sbatch --array=0-%d, or 1-%d): give -shard I/N",
			source, EnvSlurmMax, hi, n-1, n)
	}
	if count != 0 && count != n {
		return Shard{}, fmt.Errorf("%s: -shard-count %d disagrees with the array's %d tasks", source, count, n)
	}
	i := (task - lo) / step
	if err := checkShard(i, n); err != nil {
		return Shard{}, fmt.Errorf("%s: %v", source, err)
	}
	return Shard{Index: i, Count: n, Source: source}, nil
}
