// The page of ptxmm serve: a thin client of the JSON API (docs/serve.md).
// Everything the server needs travels in each request (the test and the
// model as text, with the edits made here), so this file only keeps what
// the user is looking at, draws it, and encodes it in the URL fragment.
"use strict";

const $ = (sel) => document.querySelector(sel);

const state = {
  library: null,          // LibraryResponse
  originals: {},          // library path -> text, to keep share links short
  test: { name: "test.litmus", text: "", instance: 1 },
  model: { name: "spec.dl", text: "", extra: [], disabled: [] },
  run: null,              // the last RunResponse
  exec: 0,                // selected execution (from 1), 0 for none
  hidden: [],             // relations unticked in the picture
  added: [],              // relations drawn besides the default ones
  why: null,              // the pair whose derivation is shown: {rel, args}
  kind: "all",            // executions listed: "all", "consistent" or "forbidden"
  onlySatisfying: false,  // only those satisfying the condition (consistent ones, unless kind is "forbidden")
  condition: 0,
  zoom: 0,                // picture scale; 0: fit the box
};

// ---- small helpers ----

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function setStatus(text, isError) {
  const s = $("#status");
  s.textContent = text;
  s.classList.toggle("error", !!isError);
}

class APIError extends Error {
  constructor(status, body) {
    super(body.error || ("HTTP " + status));
    this.status = status;
    this.diagnostics = body.diagnostics || [];
    this.advice = body.advice || "";
  }
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  };
  const resp = await fetch(path, opts);
  const ct = resp.headers.get("Content-Type") || "";
  if (!ct.startsWith("application/json")) {
    if (!resp.ok) throw new APIError(resp.status, { error: await resp.text() });
    return resp.text();
  }
  const data = await resp.json();
  if (!resp.ok) throw new APIError(resp.status, data);
  return data;
}

function basename(p) { return p.slice(p.lastIndexOf("/") + 1); }

// ---- editors: a textarea with a line-number gutter that marks errors ----

class Editor {
  constructor(root) {
    this.area = root.querySelector("textarea");
    this.gutter = root.querySelector(".gutter");
    this.marks = new Map(); // line -> {severity, message}
    this.area.addEventListener("input", () => this.renderGutter());
    this.area.addEventListener("scroll", () => { this.gutter.scrollTop = this.area.scrollTop; });
  }
  get value() { return this.area.value; }
  set value(v) { this.area.value = v; this.marks.clear(); this.renderGutter(); }
  mark(diags) {
    this.marks.clear();
    for (const d of diags) {
      if (!d.line) continue;
      const old = this.marks.get(d.line);
      if (!old || old.severity === "warning") this.marks.set(d.line, d);
    }
    this.renderGutter();
  }
  renderGutter() {
    const n = this.area.value.split("\n").length;
    const frag = document.createDocumentFragment();
    for (let i = 1; i <= n; i++) {
      const m = this.marks.get(i);
      frag.append(el("span", m ? { class: m.severity, title: `${i}:${m.col}: ${m.message}` } : {}, String(i)));
    }
    this.gutter.replaceChildren(frag);
    this.gutter.scrollTop = this.area.scrollTop;
  }
  // goto puts the caret at line:col and scrolls there.
  goto(line, col) {
    const lines = this.area.value.split("\n");
    let off = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) off += lines[i].length + 1;
    off += Math.max(0, Math.min((col || 1) - 1, (lines[line - 1] || "").length));
    this.area.focus();
    this.area.setSelectionRange(off, off + 1);
    const lineH = 17;
    this.area.scrollTop = Math.max(0, (line - 4) * lineH);
  }
}

const editors = {};

function showDiagnostics(err) {
  const byEditor = { test: [], model: [] };
  const other = [];
  for (const d of err.diagnostics || []) {
    if (d.source === "test" || d.source === "model") byEditor[d.source].push(d);
    else other.push(d);
  }
  for (const which of ["test", "model"]) {
    editors[which].mark(byEditor[which]);
    const list = $(`#${which}-errors`);
    list.replaceChildren(...byEditor[which].map((d) => el("li", {
      class: d.severity,
      title: "click to go there",
      onclick: () => editors[which].goto(d.line, d.col),
    }, `${d.line}:${d.col}: ${d.severity === "warning" ? "warning: " : ""}${d.message}`)));
  }
  // An error with no place in either editor (a limit, an include) goes
  // under the editor it concerns, or the test's.
  if (other.length || (!byEditor.test.length && !byEditor.model.length)) {
    const target = other.some((d) => d.source === "include" || d.source === "unticked") ? "#model-errors" : "#test-errors";
    const lines = other.length ? other.map((d) => `${d.file ? d.file + ":" : ""}${d.line ? d.line + ":" + d.col + ": " : ""}${d.message}`) : [err.message];
    $(target).append(...lines.map((t) => el("li", {}, t)));
  }
  // A limit of the server's: what the page's user can do about it.
  if (err.advice) $("#test-errors").append(el("li", { class: "advice" }, err.advice));
}

function clearDiagnostics() {
  for (const which of ["test", "model"]) {
    editors[which].mark([]);
    $(`#${which}-errors`).replaceChildren();
  }
}

// ---- the request's test and model ----

function currentTest() {
  state.test.name = $("#test-name").value.trim();
  state.test.text = editors.test.value;
  return { name: state.test.name, text: state.test.text, instance: state.test.instance || 1 };
}

function currentModel(extraOverride) {
  state.model.text = editors.model.value;
  return {
    name: state.model.name,
    text: state.model.text,
    extra: extraOverride || state.model.extra,
    disabled: state.model.disabled,
  };
}

// ---- library ----

async function loadLibrary() {
  const lib = await api("/api/library");
  state.library = lib;
  const sel = $("#example");
  const groups = new Map();
  for (const p of lib.examples) {
    const dir = p.slice(0, p.lastIndexOf("/"));
    if (!groups.has(dir)) groups.set(dir, el("optgroup", { label: dir + "/" }));
    groups.get(dir).append(el("option", { value: p }, p.slice(dir.length + 1)));
  }
  sel.append(...groups.values());
  const models = [...lib.models];
  if (!models.includes(lib.default.name)) models.unshift(lib.default.name);
  state.originals[lib.default.name] = lib.default.text;
  $("#model-select").replaceChildren(...models.map((m) => el("option", { value: m }, m)));
  $("#diff-model").replaceChildren(...models.map((m) => el("option", { value: m }, m)));
  const other = models.find((m) => m !== lib.default.name);
  if (other) $("#diff-model").value = other;
}

async function libraryText(path) {
  if (!(path in state.originals)) state.originals[path] = await api("/api/file?path=" + encodeURIComponent(path));
  return state.originals[path];
}

async function pickExample(path) {
  if (!path) return;
  const text = await libraryText(path);
  editors.test.value = text;
  $("#test-name").value = basename(path);
  state.test.instance = 1;
  state.exec = 0;
  clearDiagnostics();
  setStatus(`loaded ${path}: press Run`);
}

async function pickModel(name) {
  const text = name === state.library.default.name ? state.library.default.text : await libraryText(name);
  state.model = { name, text, extra: [], disabled: [] };
  editors.model.value = text;
  $("#model-select").value = name;
  $("#model-name").textContent = name;
  renderExtras();
  clearDiagnostics();
}

// ---- run ----

let runSeq = 0;

async function run(opts) {
  opts = opts || {};
  const seq = ++runSeq;
  setStatus("running…");
  $("#run").disabled = true;
  try {
    const resp = await api("/api/run", { test: currentTest(), model: currentModel() });
    if (seq !== runSeq) return;
    clearDiagnostics();
    state.run = resp;
    renderRun(resp);
    let k = opts.exec || state.exec;
    if (!(k >= 1 && k <= resp.executions.length) || opts.fresh) k = firstInteresting(resp);
    const same = k === state.exec;
    await selectExec(k);
    // The derivation shown is redone under the new model.
    if (same && state.why) await why(state.why.rel, state.why.args);
    setStatus(`${resp.candidates} candidate(s), ${resp.consistent} consistent${resp.cached ? " (cached)" : ""}, ${resp.elapsed_ms.toFixed(1)} ms`);
  } catch (err) {
    if (seq !== runSeq) return;
    setStatus(err.message.split("\n")[0], true);
    clearResult(err);
    if (err instanceof APIError) showDiagnostics(err); else throw err;
  } finally {
    $("#run").disabled = false;
  }
}

// clearResult empties the verdict, the executions and the picture of the
// last run, which no longer describe the test or the model after an
// error, and says so where the verdict was.
function clearResult(err) {
  state.run = null;
  state.exec = 0;
  state.why = null;
  $("#verdict").replaceChildren(el("div", { class: "fails", id: "run-error" },
    "No result: " + err.message.split("\n")[0] + " (see the messages under the editors)."));
  $("#herd").textContent = "";
  $("#unticked").hidden = true;
  $("#exec-list tbody").replaceChildren();
  $("#exec-pos").textContent = "no execution";
  $("#prev").disabled = true;
  $("#next").disabled = true;
  $("#exec-title").textContent = "";
  $("#relations").replaceChildren();
  $("#svg-box").replaceChildren(el("p", { class: "hint" }, "Fix the error and press Run."));
  $("#checks").replaceChildren();
  $("#exec-note").hidden = true;
  $("#explanation-box").hidden = true;
  $("#derivation-box").hidden = true;
}

// firstInteresting picks the first execution reaching the condition, or
// the first one.
function firstInteresting(resp) {
  const i = resp.executions.findIndex((e) => e.satisfies[0]);
  return resp.executions.length ? (i >= 0 ? i + 1 : 1) : 0;
}

function renderRun(resp) {
  const v = $("#verdict");
  v.replaceChildren();
  if (resp.verdict) {
    v.append(el("span", { class: "verdict " + (resp.verdict === "Ok" ? "ok" : "no"), id: "verdict-word" }, resp.verdict),
      el("span", { class: "mono" }, resp.test.conditions[0]),
      el("div", { id: "observation" }, `Observation ${resp.test.name} ${resp.observation} ${resp.positive} ${resp.negative}`,
        ` — ${resp.states.length} final state(s) allowed, ${resp.consistent} of ${resp.candidates} candidate execution(s) consistent`));
  } else {
    v.append(el("div", {}, `${resp.test.name}: ${resp.consistent} of ${resp.candidates} candidate execution(s) consistent`));
    for (const a of resp.assertions || []) {
      v.append(el("div", { class: "mono" },
        el("span", { class: "verdict " + (a.holds ? "ok" : "no") }, a.holds ? "holds" : "fails"),
        `${a.kind} ${a.name}: ${a.condition}`));
    }
  }
  $("#herd").textContent = resp.herd;
  // Template rows of a .test file.
  const inst = $("#instance");
  $("#instance-label").hidden = resp.test.instances <= 1;
  inst.replaceChildren(...Array.from({ length: resp.test.instances }, (_, i) => el("option", { value: i + 1 }, String(i + 1))));
  inst.value = String(resp.test.instance);
  // Conditions for the filter.
  $("#condition").replaceChildren(...resp.test.conditions.map((c, i) => el("option", { value: i }, c)));
  state.condition = Math.min(state.condition, Math.max(0, resp.test.conditions.length - 1));
  $("#condition").value = String(state.condition);
  renderAxioms(resp.model);
  renderUnticked(resp.unticked);
  renderExecList();
}

function renderAxioms(model) {
  const box = $("#axioms");
  box.replaceChildren(...model.checks.map((c) => el("label", {},
    el("input", {
      type: "checkbox", "data-check": c, checked: !model.disabled.includes(c),
      onchange: (ev) => toggleAxiom(c, ev.target.checked),
    }), c)));
}

function toggleAxiom(name, on) {
  const d = new Set(state.model.disabled);
  if (on) d.delete(name); else d.add(name);
  state.model.disabled = [...d].sort();
  run();
}

function renderUnticked(info) {
  const box = $("#unticked");
  box.hidden = !info;
  if (!info) return;
  box.replaceChildren(`Without ${info.checks.join(", ")}: `);
  if (info.now_allowed.length === 0) box.append("no outcome becomes allowed; the other axioms forbid everything these would.");
  else box.append("now allowed ", ...info.now_allowed.map((s) => el("code", {}, s + " ")),
    `(forbidden by ${info.checks.join(", ")} alone)`);
}

// ---- executions ----

// visibleExecs are the executions the filters keep: by kind, and those
// satisfying the selected condition, which are consistent ones (an outcome
// the condition asks about) unless forbidden ones are asked for.
function visibleExecs() {
  if (!state.run) return [];
  return state.run.executions.filter((e) =>
    (state.kind !== "consistent" || e.consistent) &&
    (state.kind !== "forbidden" || !e.consistent) &&
    (!state.onlySatisfying || (e.satisfies[state.condition] && (e.consistent || state.kind === "forbidden") && !e.no_final_state)));
}

function execVerdict(e) {
  if (e.consistent) return e.unticked && e.unticked.length ? `allowed only without ${e.unticked.join(", ")}` : "consistent";
  return e.failures.length ? "forbidden: " + e.failures.join(", ") : "forbidden";
}

// maxRows bounds the rows of the execution list; the list says how many
// more there are, and Previous/Next and the filters reach them.
const maxRows = 1000;

function renderExecList() {
  const body = $("#exec-list tbody");
  let shown = visibleExecs();
  const more = shown.length - maxRows;
  if (more > 0) {
    const sel = shown.findIndex((e) => e.index === state.exec);
    shown = shown.slice(0, maxRows).concat(sel >= maxRows ? [shown[sel]] : []);
  }
  const rows = shown.map((e) => el("tr", {
    class: (e.consistent ? "consistent" : "forbidden") + (e.index === state.exec ? " selected" : ""),
    "data-exec": e.index,
    onclick: () => selectExec(e.index),
  },
  el("td", {}, "#" + e.index),
  el("td", { class: "verdict-cell" }, execVerdict(e)),
  el("td", { class: "mark", title: "satisfies the selected condition" }, e.satisfies[state.condition] ? "★" : ""),
  el("td", {}, e.state)));
  if (more > 0) rows.push(el("tr", { class: "more" }, el("td", { colspan: 4 }, `… and ${more} more: use the filters, or Previous and Next`)));
  body.replaceChildren(...rows);
  const vis = visibleExecs();
  const pos = vis.findIndex((e) => e.index === state.exec);
  $("#exec-pos").textContent = state.run && state.run.executions.length
    ? `execution ${state.exec} of ${state.run.executions.length}` + (vis.length !== state.run.executions.length ? ` (${vis.length} shown)` : "")
    : "no execution";
  $("#prev").disabled = vis.length === 0 || pos === 0;
  $("#next").disabled = vis.length === 0 || pos === vis.length - 1;
  const sel = body.querySelector("tr.selected");
  if (sel) sel.scrollIntoView({ block: "nearest" });
}

function step(dir) {
  const vis = visibleExecs();
  if (!vis.length) return;
  let pos = vis.findIndex((e) => e.index === state.exec);
  if (pos === -1) pos = dir > 0 ? -1 : vis.length;
  const next = vis[pos + dir];
  if (next) selectExec(next.index);
}

let execSeq = 0;

async function selectExec(k) {
  if (k !== state.exec) {
    state.why = null;
    $("#derivation-box").hidden = true;
  }
  state.exec = k;
  renderExecList();
  updateHash();
  if (!k) {
    $("#svg-box").replaceChildren(el("p", { class: "hint" }, "This test has no candidate execution."));
    $("#checks").replaceChildren();
    $("#relations").replaceChildren();
    return;
  }
  const seq = ++execSeq;
  try {
    const resp = await api("/api/execution", {
      test: currentTest(), model: currentModel(), exec: k, hidden: state.hidden, added: state.added,
    });
    if (seq !== execSeq) return;
    renderExec(resp);
  } catch (err) {
    if (seq !== execSeq) return;
    setStatus(err.message.split("\n")[0], true);
  }
}

function renderExec(resp) {
  $("#exec-title").textContent = `${resp.index} of ${resp.count}: ${resp.consistent ? "consistent" : "forbidden"} — ${resp.state}`;
  $("#exec-note").hidden = !resp.note;
  $("#exec-note").textContent = resp.note || "";
  const ex = resp.explanation || [];
  $("#explanation-box").hidden = ex.length === 0;
  $("#explanation").textContent = ex.join("\n");
  // Relations empty in this execution are not offered as boxes (they
  // stay in the list below): they would draw nothing.
  const offeredRels = resp.relations.filter((r) => r.pairs > 0 || r.shown || r.witness);
  const empty = resp.relations.length - offeredRels.length;
  $("#relations-empty").textContent = empty > 0 ? `${empty} relation(s) empty here are not listed` : "";
  const rels = $("#relations");
  rels.replaceChildren(...offeredRels.map((r) => {
    const sw = el("span", { class: "swatch" });
    sw.style.background = r.color;
    return el("label", { title: `${r.pairs} pair(s)${r.witness ? ", in a witness" : ""}` },
      el("input", { type: "checkbox", "data-rel": r.name, checked: r.shown, onchange: (ev) => toggleRelation(r.name, ev.target.checked) }),
      sw, `${r.name} (${r.pairs})`);
  }));
  const add = $("#add-relation");
  const offered = new Set(offeredRels.map((r) => r.name));
  add.replaceChildren(el("option", { value: "" }, "(choose)"),
    ...resp.all_relations.filter((n) => !offered.has(n)).map((n) => el("option", { value: n }, n)));
  const box = $("#svg-box");
  box.innerHTML = resp.svg; // SVG drawn by the server from escaped text
  for (const g of box.querySelectorAll("g.edge, g.edge-hit, g.edge-label")) {
    g.addEventListener("click", () => why(g.dataset.rel, [+g.dataset.from, +g.dataset.to]));
  }
  applyZoom();
  markClicked();
  const checks = $("#checks");
  checks.replaceChildren(...resp.checks.map((c) => el("div", { class: "check", "data-check": c.name },
    el("span", { class: c.unticked ? "unticked" : (c.holds ? "holds" : "fails") },
      `${c.holds ? "✓" : "✗"} ${c.name}${c.unticked ? " (unticked)" : ""} ${c.holds ? "holds" : "fails"}`),
    c.chain ? el("div", { class: "chain" }, c.chain) : null)));
  if (resp.order_note) checks.append(el("div", { class: "hint" }, "(" + resp.order_note + ")"));
}

function toggleRelation(name, on) {
  const hidden = new Set(state.hidden);
  const added = new Set(state.added);
  if (on) { hidden.delete(name); added.add(name); } else { hidden.add(name); added.delete(name); }
  state.hidden = [...hidden].sort();
  state.added = [...added].sort();
  selectExec(state.exec);
}

// ---- zoom and pan of the picture ----

// svgSize is the picture's own size, from its viewBox.
function svgSize(svg) {
  const vb = svg.viewBox.baseVal;
  return vb && vb.width ? { w: vb.width, h: vb.height } : { w: svg.width.baseVal.value, h: svg.height.baseVal.value };
}

// fitScale is the scale at which the picture fits the box's width (never
// larger than its own size).
function fitScale(svg) {
  const box = $("#svg-box");
  return Math.min(1, (box.clientWidth - 4) / svgSize(svg).w);
}

// applyZoom draws the picture at the chosen scale: it fits the box by
// default, and the zoom buttons, Ctrl and the mouse wheel change that.
function applyZoom() {
  const svg = $("#svg-box svg");
  if (!svg) return;
  const scale = state.zoom || fitScale(svg);
  const size = svgSize(svg);
  svg.setAttribute("width", String(Math.round(size.w * scale)));
  svg.setAttribute("height", String(Math.round(size.h * scale)));
  svg.dataset.scale = scale.toFixed(3);
  $("#zoom-level").textContent = Math.round(scale * 100) + "%" + (state.zoom ? "" : " (fit)");
}

function zoomBy(f) {
  const svg = $("#svg-box svg");
  if (!svg) return;
  state.zoom = Math.min(4, Math.max(0.1, (state.zoom || fitScale(svg)) * f));
  applyZoom();
}

// panWithMouse lets the picture be dragged within its box, and zoomed with
// Ctrl and the wheel.
function panWithMouse(box) {
  let drag = null;
  box.addEventListener("mousedown", (ev) => {
    if (ev.button !== 0 || ev.target.closest("g.edge, g.edge-hit, g.edge-label")) return;
    drag = { x: ev.clientX, y: ev.clientY, left: box.scrollLeft, top: box.scrollTop };
    box.classList.add("panning");
    ev.preventDefault();
  });
  window.addEventListener("mousemove", (ev) => {
    if (!drag) return;
    box.scrollLeft = drag.left - (ev.clientX - drag.x);
    box.scrollTop = drag.top - (ev.clientY - drag.y);
  });
  window.addEventListener("mouseup", () => { drag = null; box.classList.remove("panning"); });
  box.addEventListener("wheel", (ev) => {
    if (!ev.ctrlKey) return;
    ev.preventDefault();
    zoomBy(ev.deltaY < 0 ? 1.1 : 1 / 1.1);
  }, { passive: false });
  window.addEventListener("resize", () => { if (!state.zoom) applyZoom(); });
}

// ---- derivations ----

// markClicked marks the edge whose derivation is shown.
function markClicked() {
  for (const old of document.querySelectorAll("#svg-box g.clicked")) old.classList.remove("clicked");
  const w = state.why;
  if (!w || w.args.length !== 2) return;
  for (const g of document.querySelectorAll(`#svg-box g.edge[data-rel="${CSS.escape(w.rel)}"][data-from="${w.args[0]}"][data-to="${w.args[1]}"]`)) {
    g.classList.add("clicked");
  }
}

async function why(rel, args) {
  state.why = { rel, args };
  markClicked();
  updateHash();
  const title = `${rel}(${args.map((a) => "e" + a).join(", ")})`;
  $("#derivation-box").hidden = false;
  $("#derivation-title").textContent = title;
  try {
    const resp = await api("/api/why", { test: currentTest(), model: currentModel(), exec: state.exec, rel, args });
    $("#derivation").replaceChildren(el("ul", {}, derivationItem(resp.tree)),
      el("div", { class: "events" }, ...resp.events.map((e) => el("div", {}, `e${e.id} ${e.label}`))));
    return resp;
  } catch (err) {
    $("#derivation").replaceChildren(el("div", { class: "fails" }, err.message));
    return null;
  }
}

function derivationItem(n) {
  const head = `${n.rel}(${n.args.map((a) => "e" + a).join(", ")})`;
  return el("li", {},
    el("span", { class: "tuple" }, head), " ",
    n.base ? el("span", { class: "base" }, "[base]") : el("span", { class: "rule" }, `[${n.rule}]`),
    n.children && n.children.length ? el("ul", {}, ...n.children.map(derivationItem)) : null);
}

// ---- the query box (the REPL's lines) ----

async function replLine(line) {
  const out = $("#repl-output");
  line = line.trim();
  if (!line) return;
  const echo = `ptxmm> ${line}\n`;
  try {
    if (line.startsWith("?-") || line.startsWith(":show")) {
      const resp = await api("/api/query", { test: currentTest(), model: currentModel(), exec: state.exec, query: line });
      out.textContent = echo + resp.text;
    } else if (line.startsWith(":why")) {
      const m = line.match(/^:why\s+([A-Za-z_][\w]*)\s*\(([^)]*)\)\s*$/);
      if (!m) throw new Error("usage: :why REL(eA, eB)");
      const args = m[2].split(",").map((s) => parseInt(s.trim().replace(/^e/, ""), 10));
      if (args.some(isNaN)) throw new Error("write events as eN, as the picture numbers them");
      const resp = await why(m[1], args);
      out.textContent = echo + (resp ? resp.text : "see the derivation panel\n");
    } else if (line.startsWith(":")) {
      throw new Error("the query box takes ?- queries, :show REL, :why REL(eA, eB), and model text");
    } else {
      await addToModel(line, echo);
    }
  } catch (err) {
    const diag = (err.diagnostics || []).filter((d) => d.source === "extra")
      .map((d) => `  at column ${d.col}: ${d.message}\n`).join("");
    out.textContent = echo + "error: " + err.message + "\n" + diag;
  }
}

// addToModel adds a rule, definition or check and reports, with the diff
// of the model before and after, which outcomes change.
async function addToModel(line, echo) {
  const before = currentModel();
  const after = currentModel([...state.model.extra, line]);
  const diff = await api("/api/diff", { test: currentTest(), a: before, b: after });
  state.model.extra = after.extra;
  renderExtras();
  let text = echo + "added to the model\n";
  for (const o of diff.only_b) text += `  now allowed:   ${o.state}\n`;
  for (const o of diff.only_a) text += `  now forbidden: ${o.state}\n`;
  if (!diff.only_a.length && !diff.only_b.length) text += "  no outcome changed\n";
  $("#repl-output").textContent = text;
  await run();
}

function renderExtras() {
  $("#extras-box").hidden = state.model.extra.length === 0;
  $("#extras").replaceChildren(...state.model.extra.map((x, i) => el("li", {}, x,
    el("button", { title: "remove from the model", onclick: () => { state.model.extra.splice(i, 1); renderExtras(); run(); } }, "×"))));
}

// ---- diff of two models ----

async function diffModels() {
  const name = $("#diff-model").value;
  const text = name === state.library.default.name ? state.library.default.text : await libraryText(name);
  const out = $("#diff-output");
  out.textContent = "comparing…";
  try {
    const resp = await api("/api/diff", { test: currentTest(), a: currentModel(), b: { name, text } });
    out.textContent = resp.text;
  } catch (err) {
    out.textContent = "error: " + err.message;
  }
}

// ---- shareable links: the state, deflated, in the URL fragment ----

function b64url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function pipeThrough(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

async function encodeState() {
  const m = currentModel();
  const t = currentTest();
  const snap = {
    v: 1,
    t: { n: t.name, x: t.text, i: t.instance },
    m: { n: m.name, e: m.extra, d: m.disabled },
    x: state.exec, h: state.hidden, a: state.added, w: state.why,
    f: [{ all: 0, forbidden: 1, consistent: 2 }[state.kind], state.onlySatisfying ? 1 : 0, state.condition],
  };
  // A built-in model as the library has it travels by name only; any
  // other model (an edited one, or another server's -model) with its text.
  if (!state.library.models.includes(m.name) || state.originals[m.name] !== m.text) snap.m.x = m.text;
  const json = new TextEncoder().encode(JSON.stringify(snap));
  return b64url(await pipeThrough(json, new CompressionStream("deflate-raw")));
}

async function decodeState(text) {
  const json = await pipeThrough(unb64url(text), new DecompressionStream("deflate-raw"));
  const snap = JSON.parse(new TextDecoder().decode(json));
  if (snap.v !== 1) throw new Error("this link was made by another version of ptxmm serve");
  return snap;
}

async function applySnapshot(snap) {
  $("#test-name").value = snap.t.n;
  editors.test.value = snap.t.x;
  state.test.instance = snap.t.i || 1;
  let text = snap.m.x;
  if (text === undefined) {
    text = snap.m.n === state.library.default.name ? state.library.default.text : await libraryText(snap.m.n);
  }
  state.model = { name: snap.m.n, text, extra: snap.m.e || [], disabled: snap.m.d || [] };
  editors.model.value = text;
  const known = [...$("#model-select").options].some((o) => o.value === snap.m.n);
  if (!known) $("#model-select").append(el("option", { value: snap.m.n }, snap.m.n));
  $("#model-select").value = snap.m.n;
  $("#model-name").textContent = snap.m.n;
  renderExtras();
  state.hidden = snap.h || [];
  state.added = snap.a || [];
  const f = snap.f || [0, 0, 0];
  state.kind = ["all", "forbidden", "consistent"][f[0]] || "all";
  state.onlySatisfying = !!f[1];
  state.condition = f[2] || 0;
  $("#exec-kind").value = state.kind;
  $("#only-satisfying").checked = state.onlySatisfying;
  state.exec = snap.x || 0;
  state.why = snap.w || null;
  await run({ exec: snap.x });
}

let hashTimer = null;

// updateHash keeps the address bar shareable as the state changes.
function updateHash() {
  clearTimeout(hashTimer);
  hashTimer = setTimeout(async () => {
    try {
      history.replaceState(null, "", "#s=" + await encodeState());
    } catch (err) {
      setStatus("cannot encode the link: " + err.message, true);
    }
  }, 150);
}

async function share() {
  const link = location.origin + location.pathname + "#s=" + await encodeState();
  history.replaceState(null, "", link);
  const box = $("#share-url");
  box.value = link;
  box.select();
  try { await navigator.clipboard.writeText(link); setStatus("link copied"); } catch { setStatus("link ready: copy it from the box"); }
}

// ---- wiring ----

async function main() {
  editors.test = new Editor($("#test-editor"));
  editors.model = new Editor($("#model-editor"));
  await loadLibrary();
  $("#example").addEventListener("change", (ev) => pickExample(ev.target.value));
  $("#model-select").addEventListener("change", (ev) => { pickModel(ev.target.value).then(() => run({ fresh: false })); });
  $("#instance").addEventListener("change", (ev) => { state.test.instance = +ev.target.value; run({ fresh: true }); });
  $("#run").addEventListener("click", () => run());
  $("#share").addEventListener("click", share);
  $("#prev").addEventListener("click", () => step(-1));
  $("#next").addEventListener("click", () => step(1));
  $("#exec-kind").addEventListener("change", (ev) => { state.kind = ev.target.value; renderExecList(); updateHash(); });
  $("#zoom-in").addEventListener("click", () => zoomBy(1.25));
  $("#zoom-out").addEventListener("click", () => zoomBy(0.8));
  $("#zoom-fit").addEventListener("click", () => { state.zoom = 0; applyZoom(); });
  $("#zoom-1").addEventListener("click", () => { state.zoom = 1; applyZoom(); });
  panWithMouse($("#svg-box"));
  $("#only-satisfying").addEventListener("change", (ev) => { state.onlySatisfying = ev.target.checked; renderExecList(); updateHash(); });
  $("#condition").addEventListener("change", (ev) => { state.condition = +ev.target.value; renderExecList(); updateHash(); });
  $("#add-relation").addEventListener("change", (ev) => { if (ev.target.value) toggleRelation(ev.target.value, true); });
  $("#repl-form").addEventListener("submit", (ev) => { ev.preventDefault(); replLine($("#repl-input").value); });
  $("#diff-run").addEventListener("click", diffModels);
  for (const ed of Object.values(editors)) {
    ed.area.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) { ev.preventDefault(); run(); }
    });
  }
  const hash = location.hash.match(/^#s=(.+)$/);
  if (hash) {
    try {
      await applySnapshot(await decodeState(hash[1]));
      return;
    } catch (err) {
      setStatus("cannot read the link: " + err.message, true);
    }
  }
  await pickModel(state.library.default.name);
  const mp = state.library.examples.find((p) => basename(p) === "MP.litmus") || state.library.examples[0];
  if (mp) { $("#example").value = mp; await pickExample(mp); }
}

main().catch((err) => setStatus(err.message, true));
