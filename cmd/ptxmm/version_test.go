package main

import (
	"runtime/debug"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/ptxmm/ptxmm/internal/cli"
)

func TestVersionText(t *testing.T) {
	setting := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	cases := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"go install module@version", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"}},
			"ptxmm v1.2.0\ncommit unknown (built outside a git checkout, or with -buildvcs=false)\nbuilt with go1.26.8\n"},
		{"build in a clone", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: setting("vcs.revision", "fda4923", "vcs.time", "2026-11-24T07:53:32Z", "vcs.modified", "false")},
			"ptxmm (devel)\ncommit fda4923\ndate   2026-11-24T07:53:32Z\nbuilt with go1.26.8\n"},
		{"with local changes", &debug.BuildInfo{GoVersion: "go1.26.8", Settings: setting("vcs.revision", "abc", "vcs.modified", "true")},
			"ptxmm (devel)\ncommit abc (with uncommitted changes)\nbuilt with go1.26.8\n"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, versionText(c.info, true), c.name)
	}
	assert.Contains(t, versionText(nil, false), "no build information")
}

// TestHelpExitsZero: asking a command for its flags is not an error.
func TestHelpExitsZero(t *testing.T) {
	for _, cmd := range []string{"check", "diff", "eval", "gen", "graph", "merge", "repl", "serve"} {
		for _, h := range []string{"-h", "-help", "--help"} {
			assert.Equal(t, cli.ExitOK, run([]string{cmd, h}), "%s %s", cmd, h)
		}
	}
	assert.Equal(t, cli.ExitError, run([]string{"check", "-no-such-flag"}))
	assert.Equal(t, cli.ExitOK, run([]string{"version"}))
	assert.Equal(t, cli.ExitError, run([]string{"version", "extra"}))
}
