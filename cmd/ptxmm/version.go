package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// versionText describes the binary from the build information the Go
// toolchain records: the module version (a tag for "go install
// module@version", "(devel)" for a build from a clone), the commit, its
// date (the only date the build information holds), whether the tree had
// uncommitted changes, and the Go version it was built with.
func versionText(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "ptxmm: no build information (built without module support)\n"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "ptxmm %s\n", version)
	if rev := settings["vcs.revision"]; rev != "" {
		modified := ""
		if settings["vcs.modified"] == "true" {
			modified = " (with uncommitted changes)"
		}
		fmt.Fprintf(&b, "commit %s%s\n", rev, modified)
		if when := settings["vcs.time"]; when != "" {
			fmt.Fprintf(&b, "date   %s\n", when)
		}
	} else {
		b.WriteString("commit unknown (built outside a git checkout, or with -buildvcs=false)\n")
	}
	fmt.Fprintf(&b, "built with %s\n", info.GoVersion)
	return b.String()
}

// versionCommand prints versionText for this binary.
func versionCommand(args []string, out io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(os.Stderr, "ptxmm version: unexpected argument %q: version takes none\n", args[0])
		return cli.ExitError
	}
	info, ok := debug.ReadBuildInfo()
	fmt.Fprint(out, versionText(info, ok))
	return cli.ExitOK
}
