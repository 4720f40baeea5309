package cli

import "io"

// CollectTests expands command-line arguments into litmus files as ptxmm
// check does: files as given, every .litmus and .test file below a
// directory, sorted, and the tests an @list names. ptxmm run takes its
// tests the same way.
func CollectTests(args []string, stderr io.Writer) ([]string, error) {
	return collectTests(args, stderr)
}
