package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The C and Python programs are docs/embedding.md's, so that the page
// shows what is tested; the library is built once for the test binary.

var library struct {
	once sync.Once
	dir  string // holds libptxmm.so
	err  error
}

// buildLibrary builds libptxmm.so once, or skips the test when there is no
// C compiler (cgo needs one).
func buildLibrary(t *testing.T) string {
	t.Helper()
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "gcc"
	}
	if _, err := exec.LookPath(cc); err != nil {
		t.Skipf("no C compiler (%s) on PATH: the C library needs cgo, which needs one", cc)
	}
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off (go env CGO_ENABLED): the C library needs it")
	}
	library.once.Do(func() {
		library.dir, library.err = os.MkdirTemp("", "ptxmm-capi-")
		if library.err != nil {
			return
		}
		// -trimpath as the documentation runner builds it, so that the
		// two share the build cache.
		cmd := exec.Command("go", "build", "-trimpath", "-buildmode=c-shared", "-o", filepath.Join(library.dir, "libptxmm.so"), ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			library.err = fmt.Errorf("go build -buildmode=c-shared: %v\n%s", err, out)
		}
	})
	require.NoError(t, library.err)
	return library.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if library.dir != "" {
		os.RemoveAll(library.dir)
	}
	os.Exit(code)
}

// docFile returns the text of the block docs/embedding.md writes to name
// (<!-- doc-test: file NAME -->).
func docFile(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "docs", "embedding.md"))
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	marker := "<!-- doc-test: file " + name + " -->"
	var lines []string
	state := 0 // 0: looking for the marker, 1: for the fence, 2: in the block
	for sc.Scan() {
		line := sc.Text()
		switch {
		case state == 0 && line == marker:
			state = 1
		case state == 1 && strings.HasPrefix(line, "```"):
			state = 2
		case state == 2 && line == "```":
			return strings.Join(lines, "\n") + "\n"
		case state == 2:
			lines = append(lines, line)
		}
	}
	require.NoError(t, sc.Err())
	t.Fatalf("docs/embedding.md has no block %s", marker)
	return ""
}

// runC compiles a C program against the library (warnings are errors),
// runs it and returns what it prints.
func runC(t *testing.T, source string) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the test links a .so as Linux does")
	}
	lib := buildLibrary(t)
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "prog.c"), filepath.Join(dir, "prog")
	require.NoError(t, os.WriteFile(src, []byte(source), 0o644))
	out, err := exec.Command(cmpOr(os.Getenv("CC"), "gcc"), "-Wall", "-Werror", "-I", ".", "-o", bin, src, "-L", lib, "-lptxmm").CombinedOutput()
	require.NoError(t, err, "%s", out)
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "LD_LIBRARY_PATH="+lib)
	out, err = run.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return string(out)
}

// TestFromC compiles the page's C program against the library and runs
// it: MP's stale read is forbidden, causality failing at the read.
func TestFromC(t *testing.T) {
	out := runC(t, docFile(t, "embed/mp.c"))
	assert.Contains(t, out, `"consistent":false`)
	assert.Contains(t, out, `{"name":"causality","holds":false,"witness":["ld x"]}`)
}

// errorsC exercises the library's refusals: a bad configuration, a
// handle never opened or closed, a NULL or malformed request.
const errorsC = `#include <stdio.h>
#include "ptxmm.h"

static void show(const char *what, char *s) {
    printf("%s: %s\n", what, s ? s : "(null)");
    ptxmm_free(s);
}

int main(void) {
    char *error = NULL;
    ptxmm_model bad = ptxmm_open("{\"modle\": \"x.dl\"}", &error);
    printf("bad config: %lu\n", (unsigned long)bad);
    show("error", error);
    show("unknown handle", ptxmm_request(12345, "{\"op\": \"model\"}"));
    ptxmm_model m = ptxmm_open("{\"library\": \"variants/ptx-v6.0.dl\"}", NULL);
    show("NULL request", ptxmm_request(m, NULL));
    show("not JSON", ptxmm_request(m, "{"));
    ptxmm_close(m);
    show("closed handle", ptxmm_request(m, "{\"op\": \"model\"}"));
    return 0;
}
`

// TestCErrors: every refusal is an answer (or a message), never a crash.
func TestCErrors(t *testing.T) {
	out := runC(t, errorsC)
	assert.Equal(t, `bad config: 0
error: configuration: json: unknown field "modle"
unknown handle: {"error":"no such model: the handle is not one ptxmm_open returned, or it was closed"}
NULL request: {"error":"bad request: NULL"}
not JSON: {"error":"bad request: the JSON ends before the object does"}
closed handle: {"error":"no such model: the handle is not one ptxmm_open returned, or it was closed"}
`, out)
}

// TestFromPython runs the page's Python program, which loads the library
// with ctypes.
func TestFromPython(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 on PATH")
	}
	lib := buildLibrary(t)
	script := filepath.Join(t.TempDir(), "mp.py")
	require.NoError(t, os.WriteFile(script, []byte(docFile(t, "embed/mp.py")), 0o644))
	out, err := exec.Command(python, script, filepath.Join(lib, "libptxmm.so")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "consistent: False\ncausality fails at ['ld x']\nsync: [['st.release flag', 'ld.acquire flag']]\n", string(out))
}

func cmpOr(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}
