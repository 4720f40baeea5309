package serve

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// chromium finds a Chromium to drive: $PTXMM_CHROMIUM, or chromium (the
// Debian package) or google-chrome on the PATH.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PTXMM_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no Chromium found (install the Debian package chromium, or set PTXMM_CHROMIUM): the browser test of ptxmm serve is skipped")
	return ""
}

// screenshotDir is where the browser test saves its screenshots:
// $PTXMM_SCREENSHOTS if set (kept), else a temporary folder.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("PTXMM_SCREENSHOTS"); d != "" {
		require.NoError(t, os.MkdirAll(d, 0o755))
		return d
	}
	return t.TempDir()
}

// browser starts a headless Chromium with a fresh profile.
func browser(t *testing.T, bin string) context.Context {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1500, 1150),
	)
	t.Cleanup(cancelAlloc)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancelTimeout)
	return ctx
}

// page is one browser tab with the steps the test takes in it.
type page struct {
	t   *testing.T
	ctx context.Context
	dir string
}

func (p page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	require.NoError(p.t, chromedp.Do(p.ctx, actions...))
}

// js evaluates an expression and returns its value.
func js[T any](p page, expr string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr))
	require.NoError(p.t, err, "evaluating %s", expr)
	return v
}

// waitFor waits until a JavaScript expression is true.
func (p page) waitFor(expr string) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		status := js[string](p, `document.querySelector("#status").textContent`)
		repl := js[string](p, `document.querySelector("#repl-output").textContent`)
		p.t.Fatalf("waiting for %s: %v (status: %q, query box: %q)", expr, err, status, repl)
	}
}

func (p page) text(sel string) string {
	p.t.Helper()
	return js[string](p, fmt.Sprintf(`document.querySelector(%q).textContent`, sel))
}

func (p page) count(sel string) int {
	p.t.Helper()
	return js[int](p, fmt.Sprintf(`document.querySelectorAll(%q).length`, sel))
}

func (p page) screenshot(name string) {
	p.t.Helper()
	// The header is sticky: from the top, it is drawn where it belongs.
	js[bool](p, `(window.scrollTo(0, 0), true)`)
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	require.NoError(p.t, err)
	path := filepath.Join(p.dir, name)
	require.NoError(p.t, os.WriteFile(path, png, 0o644))
	p.t.Logf("screenshot %s", path)
}

// TestBrowser drives the page in headless Chromium as a user would: pick
// MP from the library, run it, step to the forbidden execution, hide a
// relation, click an edge for its derivation, untick an axiom, and open the
// shareable link in a fresh tab to find the same state.
func TestBrowser(t *testing.T) {
	bin := chromium(t)
	cfg := DefaultConfig()
	cfg.CheckHost = true // the browser reaches the server as 127.0.0.1
	s, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	dir := screenshotDir(t)
	p := page{t: t, ctx: browser(t, bin), dir: dir}

	// Load the page and pick MP from the library.
	p.do(chromedp.Navigate(ts.URL + "/"))
	p.waitFor(`document.querySelector('#example option[value="examples/MP.litmus"]') !== null`)
	p.do(chromedp.Click(chromedp.CSS(`#run`))) // runs whatever is loaded first
	js[bool](p, `(() => { const s = document.querySelector("#example"); s.value = "examples/LB.litmus"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitFor(`document.querySelector("#test-name").value === "LB.litmus"`)
	js[bool](p, `(() => { const s = document.querySelector("#example"); s.value = "examples/MP.litmus"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitFor(`document.querySelector("#test-name").value === "MP.litmus"`)
	mpText := js[string](p, `document.querySelector("#test-editor textarea").value`)
	require.Contains(t, mpText, "PTX MP")

	// Run: the verdict is herd's.
	p.do(chromedp.Click(chromedp.CSS(`#run`)))
	p.waitFor(`document.querySelector("#verdict-word") && document.querySelector("#observation").textContent.includes("Observation MP")`)
	require.Equal(t, "No", p.text("#verdict-word"))
	require.Contains(t, p.text("#observation"), "Observation MP Never 0 3")
	require.Equal(t, 4, p.count("#exec-list tr"), "MP has four candidate executions")
	p.screenshot("1-run.png")

	// Step from the first execution to the forbidden one with Next.
	p.do(chromedp.Click(chromedp.CSS(`#exec-list tr[data-exec="1"]`)))
	p.waitFor(`document.querySelector("#exec-title").textContent.startsWith("1 of 4: consistent")`)
	p.do(chromedp.Click(chromedp.CSS(`#next`)))
	p.waitFor(`document.querySelector("#exec-title").textContent.startsWith("2 of 4")`)
	p.do(chromedp.Click(chromedp.CSS(`#next`)))
	p.waitFor(`document.querySelector("#exec-title").textContent.startsWith("3 of 4: forbidden")`)
	require.Contains(t, p.text("#checks"), "causality fails")
	require.Greater(t, p.count(`#svg-box g.edge.witness`), 0, "the failing check's witness is highlighted")

	// Untick co: its edges leave the picture, the others stay.
	require.Greater(t, p.count(`#svg-box g.edge[data-rel="co"]`), 0)
	poEdges := p.count(`#svg-box g.edge[data-rel="po"]`)
	p.do(chromedp.Click(chromedp.CSS(`#relations input[data-rel="co"]`)))
	p.waitFor(`document.querySelectorAll('#svg-box g.edge[data-rel="co"]').length === 0`)
	require.Equal(t, poEdges, p.count(`#svg-box g.edge[data-rel="po"]`))
	require.False(t, js[bool](p, `document.querySelector('#relations input[data-rel="co"]').checked`))

	// Click the fr edge of the witness, at a point on its line, and read
	// its derivation.
	point := js[[]float64](p, `(() => {
		const g = document.querySelector('#svg-box g.edge.witness[data-rel="fr"]');
		g.scrollIntoView({block: "center"});
		const path = g.querySelector("path");
		const pt = path.getPointAtLength(path.getTotalLength() * 0.3);
		const m = path.getScreenCTM();
		return [pt.x * m.a + pt.y * m.c + m.e, pt.x * m.b + pt.y * m.d + m.f];
	})()`)
	require.Len(t, point, 2)
	p.do(chromedp.MouseClickXY(point[0], point[1]))
	p.waitFor(`!document.querySelector("#derivation-box").hidden && document.querySelector("#derivation").textContent.includes("[base]")`)
	require.Equal(t, "fr(e7, e2)", p.text("#derivation-title"))
	deriv := p.text("#derivation")
	require.Contains(t, deriv, "fr = ")
	require.Contains(t, deriv, "rf(e0, e7)")
	require.Contains(t, deriv, "co(e0, e2)")
	p.screenshot("2-derivation.png")

	// The shareable link, opened in a fresh tab, restores the test, the
	// hidden relation and the selected execution.
	p.do(chromedp.Click(chromedp.CSS(`#share`)))
	p.waitFor(`document.querySelector("#share-url").value.includes("#s=")`)
	link := js[string](p, `document.querySelector("#share-url").value`)
	svg := js[string](p, `document.querySelector("#svg-box").innerHTML`)
	tab, cancelTab := chromedp.NewContext(p.ctx)
	defer cancelTab()
	q := page{t: t, ctx: tab, dir: dir}
	q.do(chromedp.Navigate(link))
	q.waitFor(`document.querySelector("#exec-title") && document.querySelector("#exec-title").textContent.startsWith("3 of 4: forbidden")`)
	require.Equal(t, "No", q.text("#verdict-word"))
	require.Equal(t, mpText, js[string](q, `document.querySelector("#test-editor textarea").value`))
	require.False(t, js[bool](q, `document.querySelector('#relations input[data-rel="co"]').checked`))
	q.waitFor(`document.querySelector("#svg-box svg") !== null`)
	require.Equal(t, svg, js[string](q, `document.querySelector("#svg-box").innerHTML`), "the same picture")
	q.waitFor(`document.querySelector("#derivation").textContent.includes("[base]")`)
	require.Equal(t, "fr(e7, e2)", q.text("#derivation-title"), "the same derivation")
	q.screenshot("3-shared-link.png")

	// Untick the causality axiom: MP's stale read becomes allowed, and the
	// page says it is causality alone that forbids it.
	p.do(chromedp.Click(chromedp.CSS(`#axioms input[data-check="causality"]`)))
	p.waitFor(`document.querySelector("#verdict-word").textContent === "Ok"`)
	require.Contains(t, p.text("#unticked"), "P1:%r0=1; P1:%r1=0;")
	p.waitFor(`document.querySelector('#exec-list tr[data-exec="3"]').textContent.includes("allowed only without causality")`)
	p.screenshot("4-unticked.png")

	// The query box: a query over the selected execution, then a check
	// added to the model, with the outcomes it changes.
	p.do(chromedp.SendKeys(chromedp.CSS(`#repl-input`), "?- sync(X, Y)."), chromedp.Click(chromedp.CSS(`#repl-form button`)))
	p.waitFor(`document.querySelector("#repl-output").textContent.includes("answer(s)")`)
	require.Contains(t, p.text("#repl-output"), "X = e3 P0:fence.sys;  Y = e6 P1:fence.sys")
	js[bool](p, `(document.querySelector("#repl-input").value = "", true)`)
	p.do(chromedp.SendKeys(chromedp.CSS(`#repl-input`), ".check no_init_reads: empty(rf & (IW * R))"),
		chromedp.Click(chromedp.CSS(`#repl-form button`)))
	p.waitFor(`document.querySelector("#repl-output").textContent.includes("added to the model")`)
	require.Contains(t, p.text("#repl-output"), "now forbidden: P1:%r0=0; P1:%r1=0;")
	require.Contains(t, p.text("#extras"), "no_init_reads")
	p.waitFor(`document.querySelector('#axioms input[data-check="no_init_reads"]') !== null`)

	// Diff against a variant.
	js[bool](p, `(() => { const s = document.querySelector("#diff-model"); s.value = "variants/obs-one-step.dl"; return true; })()`)
	p.do(chromedp.Click(chromedp.CSS(`#diff-run`)))
	p.waitFor(`document.querySelector("#diff-output").textContent.includes("Test MP")`)
	require.Contains(t, p.text("#diff-output"), "allowed by variants/obs-one-step.dl, forbidden by spec.dl (edited)")
	require.Contains(t, p.text("#diff-output"), "spec.dl (edited) rejects it by no_init_reads")

	// An error in the test is marked at its line in the editor, and the
	// message takes the caret there.
	js[bool](p, `(() => {
		const a = document.querySelector("#test-editor textarea");
		a.value = a.value.replace("fence.sys                          |", "fence.bogus                        |");
		a.dispatchEvent(new Event("input"));
		return true;
	})()`)
	p.do(chromedp.Click(chromedp.CSS(`#run`)))
	p.waitFor(`document.querySelector("#test-errors li") !== null`)
	require.True(t, strings.HasPrefix(p.text("#test-errors li"), "11:7: fence.bogus is not supported"), p.text("#test-errors li"))
	require.Equal(t, "error", js[string](p, `document.querySelector("#test-editor .gutter span:nth-child(11)").className`))
	p.do(chromedp.Click(chromedp.CSS(`#test-errors li`)))
	require.Equal(t, 11, js[int](p, `(() => { const a = document.querySelector("#test-editor textarea"); return a.value.slice(0, a.selectionStart).split("\n").length; })()`))
	p.screenshot("5-error.png")
}
