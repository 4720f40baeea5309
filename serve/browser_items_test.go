package serve

import (
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// newBrowserPage starts a server with cfg and a browser tab on its page.
func newBrowserPage(t *testing.T, cfg Config) page {
	t.Helper()
	bin := chromium(t)
	cfg.CheckHost = true
	s, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(s.Close)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	p := page{t: t, ctx: browser(t, bin), dir: screenshotDir(t)}
	p.do(chromedp.Navigate(ts.URL + "/"))
	p.waitFor(`document.querySelector('#example option[value="examples/MP.litmus"]') !== null`)
	return p
}

// load picks an example from the library and runs it.
func (p page) load(path string) {
	p.t.Helper()
	js[bool](p, `(() => { const s = document.querySelector("#example"); s.value = "`+path+`"; s.dispatchEvent(new Event("change")); return true; })()`)
	name := path[strings.LastIndex(path, "/")+1:]
	p.waitFor(`document.querySelector("#test-name").value === "` + name + `"`)
	p.do(chromedp.Click(chromedp.CSS(`#run`)))
	// The run's own result, not the last test's.
	base := strings.TrimSuffix(name, ".litmus")
	p.waitFor(`document.querySelector("#observation") && document.querySelector("#observation").textContent.includes("Observation ` + base + ` ") && document.querySelector("#exec-list tr") !== null`)
}

// selectExec clicks execution k of the list and waits for its picture.
func (p page) selectExec(k string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(`#exec-list tr[data-exec="` + k + `"]`)))
	p.waitFor(`document.querySelector("#exec-title").textContent.startsWith("` + k + ` of")`)
}

// TestBrowserPicture: on MP's forbidden execution the edge labels overlap
// neither one another nor the events, a click on the fr label opens fr's
// derivation (not sync's, drawn near it), a click on a line reaches the
// edge drawn there, relations empty in the execution get no box, and the
// picture fits its box, zooms and comes back; bigger pictures (four
// threads, a pipeline with asynchronous lanes) are scaled to the box, their
// labels clear of one another too.
func TestBrowserPicture(t *testing.T) {
	p := newBrowserPage(t, DefaultConfig())
	p.load("examples/MP.litmus")
	p.selectExec("3")
	p.waitFor(`document.querySelector("#svg-box g.edge.witness") !== null`)
	require.Empty(t, labelOverlaps(p), "labels that overlap")

	// The fr label of the witness opens fr's derivation.
	p.do(chromedp.Click(chromedp.CSS(`#svg-box g.edge-label.witness[data-rel="fr"] text`)))
	p.waitFor(`!document.querySelector("#derivation-box").hidden && document.querySelector("#derivation").textContent.includes("[base]")`)
	require.True(t, strings.HasPrefix(p.text("#derivation-title"), "fr("), p.text("#derivation-title"))

	// A click on the line of a po edge reaches po, whatever the hit areas
	// of the edges around it.
	point := js[[]float64](p, `(() => {
		const path = document.querySelector('#svg-box g.edge[data-rel="po"] path');
		const pt = path.getPointAtLength(path.getTotalLength() * 0.5);
		const m = path.getScreenCTM();
		return [pt.x * m.a + pt.y * m.c + m.e, pt.x * m.b + pt.y * m.d + m.f];
	})()`)
	p.do(chromedp.MouseClickXY(point[0], point[1]))
	p.waitFor(`document.querySelector("#derivation-title").textContent.startsWith("po(")`)

	// Only the relations with pairs here have a box; the others are said
	// to be empty, and can still be drawn from the list.
	boxes := p.count(`#relations input`)
	require.Less(t, boxes, 12, "no box for the empty relations")
	require.Zero(t, js[int](p, `[...document.querySelectorAll("#relations label")].filter((l) => / \(0\)$/.test(l.textContent) && !l.querySelector("input").checked).length`))
	require.Contains(t, p.text("#relations-empty"), "empty here are not listed")

	// The picture fits the box; zoom in, and back to fit.
	fits := js[bool](p, `document.querySelector("#svg-box svg").getBoundingClientRect().width <= document.querySelector("#svg-box").clientWidth`)
	require.True(t, fits, "the picture fits its box")
	scale := js[string](p, `document.querySelector("#svg-box svg").dataset.scale`)
	p.do(chromedp.Click(chromedp.CSS(`#zoom-in`)))
	p.waitFor(`document.querySelector("#svg-box svg").dataset.scale !== "` + scale + `"`)
	require.Contains(t, p.text("#zoom-level"), "%")
	p.do(chromedp.Click(chromedp.CSS(`#zoom-fit`)))
	p.waitFor(`document.querySelector("#svg-box svg").dataset.scale === "` + scale + `"`)
	p.screenshot("picture.png")

	// Bigger pictures (four threads; a ten-instruction pipeline with its
	// asynchronous lanes) are scaled down to the box's width.
	for _, big := range []string{"examples/IRIW+fence.sc.litmus", "examples/idioms/Ring-mbarrier-phases.litmus"} {
		p.load(big)
		p.selectExec("1")
		name := strings.TrimSuffix(big[strings.LastIndex(big, "/")+1:], ".litmus")
		p.waitFor(`(document.querySelector("#svg-box svg text.title") || {textContent: ""}).textContent.startsWith("` + name + `: execution 1 of")`)
		own := js[float64](p, `document.querySelector("#svg-box svg").viewBox.baseVal.width`)
		box := js[float64](p, `document.querySelector("#svg-box").clientWidth`)
		shown := js[float64](p, `document.querySelector("#svg-box svg").getBoundingClientRect().width`)
		t.Logf("%s: picture %.0f wide, box %.0f, shown %.0f", big, own, box, shown)
		require.LessOrEqual(t, shown, box, "%s fits its box", big)
		require.Empty(t, labelOverlaps(p), "%s: labels that overlap", big)
		p.screenshot("fit-" + name + ".png")
		if own > box {
			require.Contains(t, p.text("#zoom-level"), "(fit)", big)
		}
	}
}

// labelOverlaps lists the edge labels of the picture shown that overlap
// another label or an event, as the browser draws them.
func labelOverlaps(p page) []string {
	p.t.Helper()
	return js[[]string](p, `(() => {
		const r = (el) => el.getBoundingClientRect();
		const labels = [...document.querySelectorAll("#svg-box g.edge-label text")];
		const events = [...document.querySelectorAll("#svg-box g.event rect")];
		const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
		const out = [];
		labels.forEach((a, i) => {
			labels.slice(i + 1).forEach((b) => { if (hit(r(a), r(b))) out.push(a.textContent + " / " + b.textContent); });
			events.forEach((e) => { if (hit(r(a), r(e))) out.push(a.textContent + " / an event"); });
		});
		return out;
	})()`)
}

// TestBrowserFiltersAndErrors: the filters keep what they say (consistent
// or forbidden executions; only those satisfying the condition are the
// consistent executions reaching it), Next and Previous stay within them;
// an error clears the last result; an execution every check accepts that
// is forbidden says why; an allowed outcome says why it is allowed.
func TestBrowserFiltersAndErrors(t *testing.T) {
	p := newBrowserPage(t, DefaultConfig())
	// MP: executions 1, 2 and 4 are consistent, 3 is forbidden. With
	// "consistent only", Next and Previous step 1, 2, 4 and back.
	p.load("examples/MP.litmus")
	setKind := func(kind string) {
		js[bool](p, `(() => { const k = document.querySelector("#exec-kind"); k.value = "`+kind+`"; k.dispatchEvent(new Event("change")); return true; })()`)
	}
	setKind("consistent")
	p.waitFor(`document.querySelectorAll("#exec-list tr").length === 3`)
	p.selectExec("1")
	for _, step := range []struct{ button, want string }{{"#next", "2"}, {"#next", "4"}, {"#prev", "2"}, {"#prev", "1"}} {
		p.do(chromedp.Click(chromedp.CSS(step.button)))
		p.waitFor(`document.querySelector("#exec-title").textContent.startsWith("` + step.want + ` of")`)
		require.Contains(t, p.text("#exec-title"), "consistent", step)
	}
	setKind("forbidden")
	p.waitFor(`document.querySelectorAll("#exec-list tr").length === 1`)
	require.Equal(t, "3", js[string](p, `document.querySelector("#exec-list tr").dataset.exec`))
	setKind("all")

	p.load("examples/MP+cta-scope.litmus")
	all := p.count(`#exec-list tr`)
	js[bool](p, `(() => { const c = document.querySelector("#only-satisfying"); c.checked = true; c.dispatchEvent(new Event("change")); return true; })()`)
	p.waitFor(`document.querySelectorAll("#exec-list tr").length < ` + itoa(all))
	rows := js[[]string](p, `[...document.querySelectorAll("#exec-list tr")].map((r) => r.textContent)`)
	require.NotEmpty(t, rows)
	for _, r := range rows {
		require.Contains(t, r, "consistent", "only consistent executions satisfy the condition")
		require.Contains(t, r, "★")
	}
	first := js[string](p, `document.querySelector("#exec-list tr").dataset.exec`)
	p.selectExec(first)
	require.Contains(t, p.text("#exec-pos"), "shown")
	// The allowed outcome is explained.
	p.waitFor(`!document.querySelector("#explanation-box").hidden`)
	require.Contains(t, p.text("#explanation"), "does not synchronize")
	require.Contains(t, p.text("#explanation"), "(.cta) does not include thread P1")
	p.screenshot("explanation.png")

	js[bool](p, `(() => { const c = document.querySelector("#only-satisfying"); c.checked = false; c.dispatchEvent(new Event("change")); return true; })()`)
	p.waitFor(`document.querySelectorAll("#exec-list tr").length === ` + itoa(all))

	// An error: the verdict and executions of the last run go, the error
	// takes their place.
	require.Equal(t, "Ok", p.text("#verdict-word"))
	js[bool](p, `(() => { const a = document.querySelector("#test-editor textarea"); a.value = a.value.replace("ld.weak", "ld.bogus"); a.dispatchEvent(new Event("input")); return true; })()`)
	p.do(chromedp.Click(chromedp.CSS(`#run`)))
	p.waitFor(`document.querySelector("#run-error") !== null`)
	require.Zero(t, p.count(`#verdict-word`))
	require.Zero(t, p.count(`#exec-list tr`))
	require.Zero(t, p.count(`#svg-box svg`))
	require.Zero(t, p.count(`#checks .check`))
	require.Contains(t, p.text("#run-error"), "No result")

	// Atomicity1's first candidate: every check holds, yet it is forbidden:
	// the page says why.
	p.load("examples/Atomicity1.litmus")
	p.selectExec("1")
	p.waitFor(`!document.querySelector("#exec-note").hidden`)
	require.Contains(t, p.text("#exec-note"), "no choice of the model's run-time orders")
	require.Zero(t, p.count(`#checks .fails`))
}

// TestBrowserLimitAdvice: a limit of the server tells the page's user
// what they can do, not only the server's flag.
func TestBrowserLimitAdvice(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Options.MaxCandidates = 3
	p := newBrowserPage(t, cfg)
	js[bool](p, `(() => { const s = document.querySelector("#example"); s.value = "examples/MP.litmus"; s.dispatchEvent(new Event("change")); return true; })()`)
	p.waitFor(`document.querySelector("#test-name").value === "MP.litmus"`)
	p.do(chromedp.Click(chromedp.CSS(`#run`)))
	p.waitFor(`document.querySelector("#test-errors li.advice") !== null`)
	advice := p.text("#test-errors li.advice")
	require.Contains(t, advice, "This server limits the number of candidate executions")
	require.Contains(t, advice, "make the test smaller")
	require.Contains(t, advice, "ptxmm check on your own machine")
}

// itoa prints n for a JavaScript expression.
func itoa(n int) string { return strconv.Itoa(n) }
