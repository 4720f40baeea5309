package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestManyTests(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "MP.litmus")
	assert.NoError(t, os.WriteFile(file, []byte("PTX MP\n"), 0o644))
	cases := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{file}, false},
		{[]string{"-j", "1", file}, false},
		{[]string{"-json", "-model", "m.dl", file}, false},
		{[]string{file, "other.test"}, true},
		{[]string{"-j", "1", dir}, true},
		{[]string{"@list.txt"}, true},
		{[]string{"-expect", "x.csv", filepath.Join(dir, "missing")}, false},
		{[]string{"-", file}, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, manyTests(c.args), "%q", c.args)
	}
}

func TestReserveHeapOnlyForRunsOfTests(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{nil, {"version"}, {"check"}, {"check", "MP.litmus"}, {"diff", dir}} {
		assert.Zero(t, reserveHeap(args), "%q", args)
	}
}
