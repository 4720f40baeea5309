package herdlog

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// bigLog is a log of n tests shaped like ptxmm's (MP with its notes).
func bigLog(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(strings.ReplaceAll(mpBlock, "MP", fmt.Sprintf("MP-%d", i)))
		b.WriteString("\n")
	}
	return []byte(b.String())
}

// BenchmarkReadMerge reads a log of 10,000 tests, merges it and writes
// the merged log: the work of ptxmm merge per 10,000 tests.
func BenchmarkReadMerge(b *testing.B) {
	data := bigLog(10000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		l, err := Read("big.log", data)
		if err != nil {
			b.Fatal(err)
		}
		var out bytes.Buffer
		if err := Merge([]*Log{l}).WriteLog(&out); err != nil {
			b.Fatal(err)
		}
	}
}
