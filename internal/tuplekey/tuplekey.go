// Package tuplekey names a tuple of small integers by a string, for maps
// keyed by tuples: the provenance a rules.Instance records per derived
// tuple, and the combinations of runs the checker finds live. It is a
// leaf that every package of the module may import without turning the
// one-way flow of data (litmus, execution, catalog, rules, checker)
// around.
package tuplekey

import (
	"strconv"
	"strings"
)

// Of names t by its members in decimal, separated by commas: distinct
// tuples get distinct names, and tuples of different lengths too.
func Of(t []int) string {
	var b strings.Builder
	b.Grow(4 * len(t))
	var digits [20]byte
	for i, a := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(strconv.AppendInt(digits[:0], int64(a), 10))
	}
	return b.String()
}
