package ptxmm_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestDocumentation is the documentation runner: it runs every command
// block of README.md and docs/*.md as a user would, in order, file by
// file, and compares what each transcript's commands print with what the
// block shows (times aside). A block that needs what a user of a clone
// lacks (../shared, a corpus, a tool) says so with a marker and runs only
// where that is there. docs/documentation.md describes the convention.
func TestDocumentation(t *testing.T) {
	if testing.Short() {
		t.Skip("the documentation runner builds ptxmm and runs every documented command")
	}
	root, err := filepath.Abs(".")
	require.NoError(t, err)
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	for _, d := range docs {
		rel, _ := filepath.Rel(root, d)
		files = append(files, filepath.ToSlash(rel))
	}
	sort.Strings(files[1:])
	bin := buildDocBinary(t)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			blocks, err := readDocBlocks(root, f)
			require.NoError(t, err)
			r := newDocRun(t, root, bin)
			for _, b := range blocks {
				r.block(t, b)
			}
		})
	}
}

// buildDocBinary builds ptxmm into a folder of its own, which the
// commands find first on their PATH.
func buildDocBinary(t *testing.T) string {
	dir := t.TempDir()
	bin := filepath.Join(dir, "ptxmm")
	out, err := exec.Command("go", "build", "-o", bin, "./cmd/ptxmm").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// embedded are the entries the root package embeds (library.go): they are
// copied into the scratch clone rather than linked, since go:embed refuses
// links, so that a page's Go program (docs/embedding.md) builds there
// against the module.
var embedded = map[string]bool{"spec.dl": true, "variants": true, "examples": true}

// docRun is the state of one Markdown file's run: a scratch folder that
// looks like a clone (every entry of the repository linked in, and
// ../shared beside it when the repository has one), where the commands
// run and the files they write stay.
type docRun struct {
	root    string // the repository
	work    string // the scratch clone the commands run in
	bin     string
	prelude string
}

func newDocRun(t *testing.T, root, bin string) *docRun {
	scratch := t.TempDir()
	work := filepath.Join(scratch, "repo")
	require.NoError(t, os.Mkdir(work, 0o755))
	entries, err := os.ReadDir(root)
	require.NoError(t, err)
	for _, e := range entries {
		switch {
		case e.Name() == ".git":
		case embedded[e.Name()] && e.IsDir():
			require.NoError(t, os.CopyFS(filepath.Join(work, e.Name()), os.DirFS(filepath.Join(root, e.Name()))))
		case embedded[e.Name()]:
			data, err := os.ReadFile(filepath.Join(root, e.Name()))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(filepath.Join(work, e.Name()), data, 0o644))
		default:
			require.NoError(t, os.Symlink(filepath.Join(root, e.Name()), filepath.Join(work, e.Name())))
		}
	}
	if shared := filepath.Join(root, "..", "shared"); exists(shared) {
		require.NoError(t, os.Symlink(shared, filepath.Join(scratch, "shared")))
	}
	// The commands run in bash with -e and pipefail. "go run ./cmd/ptxmm"
	// is the ptxmm just built, "go build -o FILE ./cmd/ptxmm" copies it,
	// "go install ./cmd/ptxmm" has nothing left to do; any other go
	// command runs as written.
	prelude := `set -e -o pipefail
go() {
  if [ "$1" = run ] && [ "$2" = ./cmd/ptxmm ]; then shift 2; ptxmm "$@"
  elif [ "$1" = build ] && [ "$2" = -o ] && [ "$4" = ./cmd/ptxmm ] && [ $# = 4 ]; then
    case "$3" in
    /*|*..*|~*) echo "doc-test: go build -o $3: write the binary inside the folder the commands run in (docs/documentation.md)" >&2; return 1;;
    esac
    cp "$PTXMM_DOC_BIN" "$3"
  elif [ "$1" = install ] && [ "$2" = ./cmd/ptxmm ] && [ $# = 2 ]; then :
  else command go "$@"; fi
}
`
	return &docRun{root: root, work: work, bin: bin, prelude: prelude}
}

// block runs one block, or checks that it need not run.
func (r *docRun) block(t *testing.T, b *docBlock) {
	if b.fileName != "" {
		path := filepath.Join(r.work, b.fileName)
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		os.Remove(path) // a link into the repository, if the name is taken
		require.NoError(t, os.WriteFile(path, []byte(b.text+"\n"), 0o644), b.where())
		return
	}
	if !b.isTranscript() && !b.isScript() {
		return
	}
	if strings.Contains(b.text, "../shared") && !contains(b.needs, "../shared") && !neededUnder(b.needs, "../shared") && b.skip == "" {
		t.Errorf("%s: the block uses ../shared, which a user's clone does not have: mark it <!-- doc-test: needs ../shared/... --> (docs/documentation.md)", b.where())
		return
	}
	if b.skip != "" {
		t.Logf("%s: skipped: %s", b.where(), b.skip)
		return
	}
	if missing := r.missing(b.needs); len(missing) > 0 {
		t.Logf("%s: skipped: needs %s, not here", b.where(), strings.Join(missing, ", "))
		return
	}
	if b.isScript() {
		out, status, err := r.run(b.text, nil)
		if err != nil || status != b.exit {
			t.Errorf("%s: the commands ended with status %d (want %d)%s:\n%s", b.where(), status, b.exit, errText(err), out)
		}
		return
	}
	for _, s := range b.steps() {
		out, status, err := r.run(s.command, s.input)
		if err != nil || status != b.exit {
			t.Errorf("%s: $ %s\nended with status %d (want %d)%s:\n%s", b.where(), s.command, status, b.exit, errText(err), out)
			continue
		}
		if !matchOutput(normalizeLines(s.output), normalizeLines(strings.Split(out, "\n"))) {
			t.Errorf("%s: $ %s\nprints what the block does not show.\n--- the block shows:\n%s\n--- the command prints:\n%s",
				b.where(), s.command, strings.Join(s.output, "\n"), out)
		}
	}
}

// missing lists what of needs is not here: paths are relative to the
// repository (they contain '/' or start with '.'; ~/ is the home folder),
// the rest are commands looked for on PATH.
func (r *docRun) missing(needs []string) []string {
	var out []string
	for _, n := range needs {
		if home, ok := strings.CutPrefix(n, "~/"); ok {
			dir, err := os.UserHomeDir()
			if err != nil || !exists(filepath.Join(dir, home)) {
				out = append(out, n)
			}
		} else if strings.Contains(n, "/") || strings.HasPrefix(n, ".") {
			if !exists(filepath.Join(r.root, n)) {
				out = append(out, n)
			}
		} else if _, err := exec.LookPath(n); err != nil {
			out = append(out, n)
		}
	}
	return out
}

// run runs a command, or a script, in the scratch clone, with standard
// output and error together as a terminal shows them, and returns them
// with the exit status.
//
// The limit only catches a command that hangs: it is not a speed bound
// (speed is measured by benchmarks). The heaviest block, docs/herd.md's
// `check -conf` of examples/ under Dartagnan's cat model, takes about 17 s
// of CPU and ran past two minutes of wall time on a machine shared by many
// builds, so the limit leaves room for that.
func (r *docRun) run(script string, input []string) (string, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", r.prelude+script)
	cmd.Dir = r.work
	cmd.Env = docEnv(filepath.Dir(r.bin), r.bin)
	if input != nil {
		cmd.Stdin = strings.NewReader(strings.Join(input, "\n") + "\n")
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String(), exit.ExitCode(), nil
	}
	if ctx.Err() != nil {
		return out.String(), -1, fmt.Errorf("ran past 2 minutes")
	}
	return out.String(), 0, err
}

// docEnv is the commands' environment: this process's, with ptxmm first
// on PATH, Go building with -trimpath, and without the variables that
// split a run into shards.
func docEnv(binDir, bin string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == "JOB_COMPLETION_INDEX", strings.HasPrefix(name, "SLURM_ARRAY_"):
			continue
		}
		env = append(env, kv)
	}
	// -trimpath keeps the scratch clone's folder out of the build cache's
	// keys, so that a page's Go builds (docs/embedding.md) reuse what the
	// last run compiled, and what capi's test compiled.
	env = append(env, "GOFLAGS=-trimpath "+os.Getenv("GOFLAGS"))
	return append(env, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "PTXMM_DOC_BIN="+bin)
}

var (
	timeLineRE = regexp.MustCompile(`^Time (\S+) [0-9.]+$`)
	timeJSONRE = regexp.MustCompile(`"time_ms":[0-9.e+-]+`)
	durationRE = regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?\s?(ns|µs|us|ms|s|min)\b`)
)

// normalizeLines drops trailing blanks and the blank lines at both ends,
// and blanks times: herd's Time lines, JSON's time_ms, and durations.
func normalizeLines(lines []string) []string {
	var out []string
	for _, l := range lines {
		l = strings.TrimRight(l, " \t\r")
		l = timeLineRE.ReplaceAllString(l, "Time $1 <time>")
		l = timeJSONRE.ReplaceAllString(l, `"time_ms":<time>`)
		l = durationRE.ReplaceAllString(l, "<time>")
		out = append(out, l)
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// matchOutput reports whether got matches want, in which a line "..."
// stands for any number of lines, none included.
func matchOutput(want, got []string) bool {
	// ok[i][j]: want[i:] matches got[j:].
	ok := make([][]bool, len(want)+1)
	for i := range ok {
		ok[i] = make([]bool, len(got)+1)
	}
	ok[len(want)][len(got)] = true
	for i := len(want) - 1; i >= 0; i-- {
		for j := len(got); j >= 0; j-- {
			if want[i] == "..." {
				ok[i][j] = ok[i+1][j] || (j < len(got) && ok[i][j+1])
			} else {
				ok[i][j] = j < len(got) && want[i] == got[j] && ok[i+1][j+1]
			}
		}
	}
	return ok[0][0]
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// neededUnder reports whether needs names a path below dir.
func neededUnder(needs []string, dir string) bool {
	for _, n := range needs {
		if strings.HasPrefix(n, dir+"/") {
			return true
		}
	}
	return false
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}
