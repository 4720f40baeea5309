package catalog

import (
	"fmt"
	"strings"
)

// Markdown renders the catalog as the table docs/catalog.md shows.
func Markdown() string {
	var b strings.Builder
	b.WriteString("| name | arity | meaning |\n| --- | --- | --- |\n")
	for _, e := range entries() {
		fmt.Fprintf(&b, "| `%s` | %d | %s |\n", e.Name, e.Arity, e.Doc)
	}
	return b.String()
}
