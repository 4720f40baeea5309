package limits

import (
	"context"
	"errors"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSize(t *testing.T) {
	cases := []struct {
		in   string
		want int64
		err  string
	}{
		{"0", 0, ""},
		{"4096", 4096, ""},
		{"512MiB", 512 << 20, ""},
		{"512mb", 512e6, ""},
		{"8G", 8 << 30, ""},
		{" 1.5 GiB ", 3 << 29, ""},
		{"2TB", 2e12, ""},
		{"100B", 100, ""},
		{"-1GiB", 0, "negative"},
		{"lots", 0, "not a memory size"},
		{"GiB", 0, "not a memory size"},
		{"NaN", 0, "not a memory size"},
		{"1e30", 0, "too large"},
	}
	for _, c := range cases {
		got, err := ParseSize(c.in)
		if c.err != "" {
			require.Error(t, err, c.in)
			assert.Contains(t, err.Error(), c.err, c.in)
			continue
		}
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, got, c.in)
	}
}

func TestFormatSize(t *testing.T) {
	cases := map[int64]string{
		0:              "0 B",
		900:            "900 B",
		1000:           "0.98 KiB",
		1<<30 + 5:      "1.00 GiB",
		1<<30 - 5:      "1.00 GiB",
		1536:           "1.50 KiB",
		312 << 20:      "312 MiB",
		23 << 30:       "23.0 GiB",
		228 << 30:      "228 GiB",
		6323656704 / 1: "5.89 GiB",
	}
	for in, want := range cases {
		assert.Equal(t, want, FormatSize(in), in)
	}
}

func TestDefaultMaxMemory(t *testing.T) {
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(name string) ([]byte, error) {
			if s, ok := m[name]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		}
	}
	meminfo := "MemTotal:       24684096 kB\nMemFree:        1000 kB\n"
	cases := []struct {
		name  string
		files map[string]string
		want  int64
		from  string
	}{
		{"machine", map[string]string{"/proc/meminfo": meminfo}, 24684096 * 1024 / 4, "/proc/meminfo"},
		{"cgroup v2 below the machine", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory.max": "4294967296\n"}, 1 << 30, "memory.max"},
		{"cgroup v2 without limit", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory.max": "max\n"}, 24684096 * 1024 / 4, "/proc/meminfo"},
		{"cgroup v1 unlimited", map[string]string{"/proc/meminfo": meminfo, "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712"}, 24684096 * 1024 / 4, "/proc/meminfo"},
		{"nothing readable", map[string]string{}, FallbackMemory, "could not be read"},
		{"garbled meminfo", map[string]string{"/proc/meminfo": "MemTotal: lots\n"}, FallbackMemory, "could not be read"},
	}
	for _, c := range cases {
		got, from := defaultMaxMemory(files(c.files))
		assert.Equal(t, c.want, got, c.name)
		assert.Contains(t, from, c.from, c.name)
	}
	// The real machine gives some positive figure.
	got, _ := DefaultMaxMemory()
	assert.Positive(t, got)
}

func TestBudget(t *testing.T) {
	var none *Budget
	require.NoError(t, none.Reserve(context.Background(), 1<<40), "a nil budget has no limit")
	none.Release(1 << 40)
	assert.Nil(t, NewBudget(0))

	b := NewBudget(100)
	assert.Equal(t, int64(100), b.Limit())
	require.NoError(t, b.Reserve(context.Background(), 60))
	require.NoError(t, b.Reserve(context.Background(), 40))

	// Full: a reservation waits, and gives up when its context ends.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := b.Reserve(ctx, 1)
	require.True(t, errors.Is(err, context.Canceled), "%v", err)

	// A waiting reservation goes through once enough is released.
	got := make(chan error)
	go func() { got <- b.Reserve(context.Background(), 50) }()
	b.Release(60)
	require.NoError(t, <-got)
	b.Release(40)
	b.Release(50)
	// Everything is free again: the whole limit can be taken, and more
	// than the limit is capped at it.
	require.NoError(t, b.Reserve(context.Background(), 1000))
	b.Release(1000)
	require.NoError(t, b.Reserve(context.Background(), 100))
}

// TestCores checks that cores are taken while free and come back.
func TestCores(t *testing.T) {
	assert.Nil(t, NewCores(1), "one core has nothing to share")
	var none *Cores
	assert.Equal(t, 1, none.Size())
	assert.False(t, none.TryTake())
	none.Give() // no effect, no panic
	c := NewCores(3)
	require.Equal(t, 3, c.Size())
	for i := 0; i < 3; i++ {
		require.True(t, c.TryTake(), "core %d", i)
	}
	assert.False(t, c.TryTake(), "every core is taken")
	c.Give()
	assert.True(t, c.TryTake())
}

// TestBudgetTryReserve checks the reservation that does not wait.
func TestBudgetTryReserve(t *testing.T) {
	var none *Budget
	assert.True(t, none.TryReserve(1<<40), "no budget, no limit")
	b := NewBudget(100)
	require.True(t, b.TryReserve(60))
	assert.False(t, b.TryReserve(50), "60 + 50 is over 100")
	require.True(t, b.TryReserve(40))
	b.Release(60)
	assert.True(t, b.TryReserve(50))
}
