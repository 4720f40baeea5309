package cli

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResolveShard(t *testing.T) {
	slurm := func(id, min, count, max, step string) map[string]string {
		env := map[string]string{EnvSlurmID: id, EnvSlurmMin: min, EnvSlurmCount: count}
		if max != "" {
			env[EnvSlurmMax] = max
		}
		if step != "" {
			env[EnvSlurmStep] = step
		}
		return env
	}
	cases := []struct {
		name  string
		spec  string
		count int
		env   map[string]string
		want  Shard
		err   string
	}{
		{name: "nothing", want: Shard{}},
		{name: "-shard", spec: "1/4", want: Shard{1, 4, "-shard 1/4"}},
		{name: "-shard 0/1 is the whole run, and wins over the environment", spec: "0/1", env: map[string]string{EnvJobIndex: "3"}, want: Shard{0, 1, "-shard 0/1"}},
		{name: "-shard with the same count", spec: "1/4", count: 4, want: Shard{1, 4, "-shard 1/4"}},
		{name: "-shard with another count", spec: "1/4", count: 3, err: "-shard 1/4 and -shard-count 3 disagree on the number of shards"},
		{name: "I = N", spec: "4/4", err: "-shard 4/4: the shard's index counts from 0, so with 4 shards it is 0 to 3, not 4"},
		{name: "no shard", spec: "0/0", err: "-shard 0/0: there is at least 1 shard, not 0"},
		{name: "negative", spec: "-1/4", err: "-shard -1/4: the shard's index counts from 0, so it is at least 0, not -1"},
		{name: "no slash", spec: "2", err: "-shard 2: expected I/N, shard I (counted from 0) of N, such as -shard 0/4"},
		{name: "not numbers", spec: "a/b", err: "-shard a/b: expected two whole numbers I/N"},
		{name: "negative count", count: -1, err: "-shard-count -1: the number of shards is at least 1"},
		{name: "Kubernetes", count: 8, env: map[string]string{EnvJobIndex: "3"}, want: Shard{3, 8, "JOB_COMPLETION_INDEX=3 and -shard-count 8"}},
		{name: "Kubernetes without the count", env: map[string]string{EnvJobIndex: "3"},
			err: "JOB_COMPLETION_INDEX=3 is set (a Kubernetes Indexed Job), but not the number of shards: give -shard-count N, the Job's .spec.completions"},
		{name: "Kubernetes beyond the count", count: 3, env: map[string]string{EnvJobIndex: "3"},
			err: "JOB_COMPLETION_INDEX=3 with -shard-count 3: the shard's index counts from 0, so with 3 shards it is 0 to 2, not 3"},
		{name: "Kubernetes garbled", count: 3, env: map[string]string{EnvJobIndex: "x"}, err: "JOB_COMPLETION_INDEX=\"x\": expected a whole number"},
		{name: "Kubernetes with blanks", count: 3, env: map[string]string{EnvJobIndex: " 2"}, err: "JOB_COMPLETION_INDEX=\" 2\": expected a whole number"},
		{name: "a count without an index", count: 8, err: "-shard-count 8: no shard index: JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs) and SLURM_ARRAY_TASK_ID (Slurm job arrays) are not set; give -shard I/8"},
		{name: "both engines", env: map[string]string{EnvJobIndex: "1", EnvSlurmID: "1"}, err: "both JOB_COMPLETION_INDEX=1 (Kubernetes) and SLURM_ARRAY_TASK_ID=1 (Slurm) are set"},
		{name: "Slurm from 0", env: slurm("2", "0", "4", "3", "1"), want: Shard{2, 4, "SLURM_ARRAY_TASK_ID=2 (SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=4)"}},
		{name: "Slurm from 1", env: slurm("1", "1", "16", "16", ""), want: Shard{0, 16, "SLURM_ARRAY_TASK_ID=1 (SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=16)"}},
		{name: "Slurm with a step", env: slurm("6", "0", "4", "6", "2"), want: Shard{3, 4, "SLURM_ARRAY_TASK_ID=6 (SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=4, SLURM_ARRAY_TASK_STEP=2)"}},
		{name: "Slurm with the same -shard-count", count: 16, env: slurm("16", "1", "16", "16", ""), want: Shard{15, 16, "SLURM_ARRAY_TASK_ID=16 (SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=16)"}},
		{name: "Slurm with another -shard-count", count: 8, env: slurm("1", "1", "16", "16", ""), err: "-shard-count 8 disagrees with the array's 16 tasks"},
		{name: "Slurm list of indices", env: slurm("4", "1", "3", "9", ""), err: "the array's indices are not a range (sbatch --array=0-2, or 1-3): give -shard I/N"},
		{name: "Slurm without MIN", env: map[string]string{EnvSlurmID: "1", EnvSlurmCount: "2"}, err: "SLURM_ARRAY_TASK_ID=1 is set (a Slurm job array), but not SLURM_ARRAY_TASK_MIN: give -shard I/N"},
		{name: "Slurm without COUNT", env: map[string]string{EnvSlurmID: "1", EnvSlurmMin: "0"}, err: "but not SLURM_ARRAY_TASK_COUNT"},
		{name: "Slurm off the step", env: slurm("3", "0", "4", "6", "2"), err: "the task is not on the array's range MIN, MIN+STEP, ..."},
		{name: "Slurm garbled", env: slurm("1", "0", "many", "", ""), err: "SLURM_ARRAY_TASK_COUNT=\"many\": expected a whole number"},
		{name: "Slurm no tasks", env: slurm("0", "0", "0", "", ""), err: "SLURM_ARRAY_TASK_ID=0 (SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=0): there is at least 1 shard, not 0"},
		{name: "Slurm beyond the count", env: slurm("3", "0", "3", "", ""), err: "the shard's index counts from 0, so with 3 shards it is 0 to 2, not 3"},
		{name: "Slurm below MIN", env: slurm("0", "1", "4", "4", ""), err: "the task is not on the array's range MIN, MIN+STEP, ..."},
		{name: "Slurm step 0", env: slurm("0", "0", "4", "", "0"), err: "the task is not on the array's range MIN, MIN+STEP, ..."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ResolveShard(c.spec, c.count, func(k string) string { return c.env[k] })
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// TestShardOwns: test k belongs to shard k mod N; the zero Shard owns all.
func TestShardOwns(t *testing.T) {
	s := Shard{Index: 1, Count: 3}
	var owned []int
	for k := 0; k < 10; k++ {
		if s.owns(k) {
			owned = append(owned, k)
		}
	}
	assert.Equal(t, []int{1, 4, 7}, owned)
	assert.True(t, Shard{}.owns(5))
	assert.False(t, Shard{}.Enabled())
}
