// Opens htpscope HTML reports in headless Chromium and checks what a person
// would see: no console errors, no network request, overview figures equal
// to `htpscope summary --json`, sortable and filterable tables, timeline
// hover, hostile op names rendered as text.  Screenshots go to artifacts/.
//
//   HTPSCOPE_BUILD_DIR=build/werror node --test report.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openBrowser } from "./browser.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, "../..");
const BUILD = path.resolve(ROOT, process.env.HTPSCOPE_BUILD_DIR || "build/werror");
const HTPSCOPE = path.join(BUILD, "htpscope");
const SYNTH = path.join(BUILD, "tools/synth/htpscope-synth");
const CORPUS = path.resolve(ROOT, "../shared/corpus/qcom_htp");
const EXAMPLE = path.join(ROOT, "examples/synthetic_run");
const ARTIFACTS = path.join(HERE, "artifacts");
const WORK = mkdtempSync(path.join(tmpdir(), "htpscope-browser-"));
const LARGE_OPS = Number(process.env.HTPSCOPE_LARGE_OPS || 200000);

mkdirSync(ARTIFACTS, { recursive: true });
if (!existsSync(HTPSCOPE)) throw new Error(`no htpscope binary at ${HTPSCOPE}: build first`);

function htpscope(...args) {
  return execFileSync(HTPSCOPE, args, { encoding: "utf8", maxBuffer: 256 << 20, stdio: ["ignore", "pipe", "pipe"] });
}
function makeReport(run, name) {
  const out = path.join(WORK, `${name}.html`);
  htpscope("report", run, "-o", out);
  return out;
}
const groupDigits = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
function getPath(obj, p) {
  let v = obj;
  for (const k of p.split(".")) {
    if (v === null || v === undefined) return undefined;
    v = v[/^\d+$/.test(k) ? Number(k) : k];
  }
  return v;
}

let browser;
before(async () => { browser = await openBrowser(); });
after(async () => {
  if (browser) await browser.close();
  rmSync(WORK, { recursive: true, force: true });
});

// Opens `file` and records console errors, page errors, dialogs and any
// request that is not for the file itself.
async function open(file, options = {}) {
  const page = await browser.context.newPage();
  const problems = { console: [], errors: [], dialogs: [], requests: [] };
  page.on("console", (m) => { if (m.type() === "error") problems.console.push(m.text()); });
  page.on("pageerror", (e) => problems.errors.push(String(e)));
  page.on("dialog", async (d) => { problems.dialogs.push(d.message()); await d.dismiss(); });
  page.on("request", (r) => { if (r.url() !== pathToFileURL(file).href) problems.requests.push(r.url()); });
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  const started = Date.now();
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  await page.waitForFunction(() => window.htpscopeReport && window.htpscopeReport.sections.length > 0);
  const loadMs = Date.now() - started;
  return { page, problems, loadMs };
}
function assertClean(problems) {
  assert.deepEqual(problems.errors, [], "page errors");
  assert.deepEqual(problems.console, [], "console errors");
  assert.deepEqual(problems.dialogs, [], "dialogs opened");
  assert.deepEqual(problems.requests, [], "network requests");
}

// Numbers in a table column as shown (grouped digits, "—" for none).
async function columnValues(page, table, key) {
  return page.$$eval(`[data-table="${table}"] table`, ([t], k) => {
    const ths = [...t.querySelectorAll("thead tr.head th")];
    const i = ths.findIndex((th) => th.dataset.key === k);
    return [...t.querySelectorAll("tbody tr")].map((tr) => tr.children[i].textContent);
  }, key);
}
const toNumber = (s) => (s === "—" || s === "" ? null : Number(s.replace(/,/g, "")));

async function checkOverview(page, summary) {
  const figures = await page.$$eval("[data-figure]", (cards) =>
    cards.map((c) => ({ path: c.dataset.figure, value: JSON.parse(c.dataset.value), text: c.querySelector(".value").textContent })));
  const paths = figures.map((f) => f.path);
  for (const p of ["graph_wall_cycles", "work_cycles", "domain_cycles", "dpc_sum_cycles", "peak_vtcm_bytes",
                   "steady_state.qnn_accelerator_us.median", "executions.0.qnn_accelerator_us"])
    assert.ok(paths.includes(p), `overview shows ${p}`);
  for (const f of figures) {
    const expected = getPath(summary, f.path);
    assert.equal(f.value, expected === undefined ? null : expected, `overview ${f.path}`);
    if (Number.isInteger(f.value) && !f.path.endsWith("_bytes"))
      assert.ok(f.text.includes(groupDigits(f.value)), `${f.path} shows ${groupDigits(f.value)}: "${f.text}"`);
  }
  // Each figure card says what its figure is in the figure registry's words,
  // which the page's data carries (the work card shows the traced execution's).
  const cardFigures = {
    "steady_state.qnn_accelerator_us.median": "wall_us", "executions.0.qnn_accelerator_us": "cold_wall_us",
    "steady_state.accelerator_us.median": "compute_busy_us", "steady_state.overhead_us.median": "overhead_us",
    graph_wall_cycles: "graph_wall_cycles", domain_cycles: "domain_cycles", work_cycles: "traced_work_cycles",
    dpc_sum_cycles: "dpc_sum_cycles", peak_vtcm_bytes: "peak_vtcm_bytes",
  };
  const cards = await page.evaluate((figures) => {
    const described = JSON.parse(document.getElementById("data").textContent).figure_descriptions || {};
    return Object.entries(figures).map(([p, name]) => ({ p, description: described[name] || "",
      what: document.querySelector(`[data-figure="${p}"] .what`).textContent }));
  }, cardFigures);
  for (const { p, description, what } of cards) {
    assert.ok(description.length > 0, `the page's data describes the figure of ${p}`);
    assert.ok(what.startsWith(description[0].toUpperCase() + description.slice(1)), `${p} card: "${what}"`);
  }
  const codes = await page.$$eval("[data-section=overview] ul.warnings li", (lis) => lis.map((li) => li.dataset.code));
  assert.deepEqual(codes, summary.warnings.map((w) => w.code), "every warning is shown");
  return figures.length;
}

async function checkSorting(page, table, numericKey, textKey) {
  const header = (k) => page.locator(`[data-table="${table}"] th[data-key="${k}"] button`);
  await header(numericKey).click();
  let v = (await columnValues(page, table, numericKey)).map(toNumber).filter((x) => x !== null);
  assert.ok(v.length > 1, "rows to sort");
  for (let i = 1; i < v.length; i++) assert.ok(v[i - 1] >= v[i], `${numericKey} descending after one click`);
  await header(numericKey).click();
  v = (await columnValues(page, table, numericKey)).map(toNumber).filter((x) => x !== null);
  for (let i = 1; i < v.length; i++) assert.ok(v[i - 1] <= v[i], `${numericKey} ascending after two clicks`);
  assert.equal(await page.locator(`[data-table="${table}"] th[data-key="${numericKey}"]`).getAttribute("aria-sort"), "ascending");
  await header(textKey).click();
  const names = await columnValues(page, table, textKey);
  for (let i = 1; i < names.length; i++) assert.ok(!(names[i - 1] > names[i]), `${textKey} ascending`);
}

async function checkFilter(page, table, key) {
  const before = await columnValues(page, table, key);
  // A keyword that some rows have and others lack: a piece of a name.
  const counts = new Map();
  for (const n of before)
    for (const w of n.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3)) counts.set(w, (counts.get(w) || 0) + 1);
  const word = [...counts.entries()].filter(([, c]) => c < before.length).sort((a, b) => b[1] - a[1])[0];
  assert.ok(word, `a keyword to filter ${table}.${key} by`);
  const input = page.locator(`[data-table="${table}"] input.filter[data-key="${key}"]`);
  await input.fill(word[0]);
  const afterRows = await columnValues(page, table, key);
  assert.ok(afterRows.length > 0 && afterRows.length < before.length, `filter "${word[0]}" hides rows (${before.length} -> ${afterRows.length})`);
  for (const n of afterRows) assert.ok(n.toLowerCase().includes(word[0]), `"${n}" matches "${word[0]}"`);
  await input.fill("");
  assert.equal((await columnValues(page, table, key)).length, before.length, "clearing the filter restores the rows");
}

// Hovers the first drawn exact bar (named `match.name` when given).
async function checkHover(page, match = {}) {
  const point = await page.evaluate((m) => window.htpscopeReport.timelineBarPoint(
    (b) => b.cycles > 0 && (m.name === undefined || b.name === m.name)), match);
  assert.ok(point, "a drawn timeline bar to hover");
  await page.mouse.move(point.x, point.y);
  const tooltip = page.locator("#tooltip");
  await tooltip.waitFor({ state: "visible", timeout: 3000 });
  const text = await tooltip.textContent();
  assert.ok(text.includes(point.bar.name), `tooltip names the op ${point.bar.name}: ${text}`);
  assert.ok(text.includes(point.bar.htp_op_type), "tooltip names the HTP op type");
  assert.ok(text.includes(groupDigits(point.bar.cycles)), "tooltip gives the cycles");
  assert.ok(text.includes(point.bar.op_id), "tooltip gives the op ID");
  await page.mouse.move(1, 1);
  return point.bar;
}

// Hovers the first drawn bar of merged slices: zoomed out on a large run,
// narrow slices are merged and the tooltip says how many.
async function checkMergedHover(page) {
  // Zoomed out, thousands of bars share a few hundred pixels: zoom in until
  // a merged bar is wide enough to aim at.
  let point = null;
  for (let zooms = 0; zooms < 12 && !point; zooms++) {
    point = await page.evaluate(() => window.htpscopeReport.timelineBarPoint(() => true, true));
    if (!point) await page.locator('button[title="zoom in"]').click();
  }
  assert.ok(point, "a drawn bar of merged slices to hover");
  await page.mouse.move(point.x, point.y);
  const tooltip = page.locator("#tooltip");
  await tooltip.waitFor({ state: "visible", timeout: 3000 });
  const text = await tooltip.textContent();
  assert.ok(text.includes(`${groupDigits(point.bar.merged_slices)} slices merged`),
    `tooltip counts the ${point.bar.merged_slices} merged slices: ${text}`);
  assert.ok(text.includes(point.bar.name), `tooltip names the largest op ${point.bar.name}: ${text}`);
  await page.mouse.move(1, 1);
  return point.bar;
}

async function checkRunReport(name, runDir) {
  const summary = JSON.parse(htpscope("summary", "--json", runDir));
  const file = makeReport(runDir, name);
  const { page, problems, loadMs } = await open(file);
  try {
    const sections = await page.evaluate(() => window.htpscopeReport.sections);
    assert.ok(sections.includes("overview"));
    await checkOverview(page, summary);
    if (summary.ops.length > 1) {
      await checkSorting(page, "qnn_ops", "work_cycles", "name");
      await checkFilter(page, "qnn_ops", "name");
    }
    const byUnit = summary.dominant_path_by_unit;
    if (byUnit) {
      // The hardware split of the dominant path shows summary --json's totals.
      const text = await page.locator("[data-table=path_by_unit]").textContent();
      for (const unit of ["hmx", "hvx", "dma", "idle"])
        assert.ok(text.includes(groupDigits(byUnit.total[`${unit}_cycles`])),
          `path by unit shows ${unit} ${byUnit.total[`${unit}_cycles`]}: ${text}`);
    }
    if (summary.op_rollup && summary.op_rollup.ops.length) {
      const text = await page.locator("[data-table=op_rollup]").textContent();
      assert.ok(text.includes(groupDigits(summary.op_rollup.total.staging_work_cycles)), `roll-up total: ${text}`);
    }
    const hits = summary.vtcm_read_hits;
    if (hits && hits.ops.length) {
      // The VTCM hit table's "all ops" row shows summary --json's totals.
      const text = await page.locator("[data-table=vtcm_read_hits]").textContent();
      if (hits.vtcm_read_hit_pct !== null)
        assert.ok(text.includes(hits.vtcm_read_hit_pct.toFixed(1)), `VTCM hit ${hits.vtcm_read_hit_pct}: ${text}`);
      assert.ok(text.includes(hits.ops[0].name), `VTCM hit table lists ${hits.ops[0].name}: ${text}`);
    }
    if (summary.fine_source === "optrace") {
      assert.ok(sections.includes("timeline") && sections.includes("units_memory"));
      await checkHover(page);
      const range = page.locator("[data-section=timeline] .timeline-tools .help");
      const before = await range.textContent();
      await page.getByRole("button", { name: "+ zoom in" }).click();
      assert.notEqual(await range.textContent(), before, "zooming in narrows the range shown");
    }
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
    assertClean(problems);
    return { file, loadMs };
  } finally {
    await page.close();
  }
}

describe("corpus runs", { skip: !existsSync(CORPUS) && "../shared/corpus absent" }, () => {
  for (const run of ["v8c8_256", "native_256", "gdn_hvx_int16", "chain8_archive"]) {
    const dir = path.join(CORPUS, run);
    test(run, { skip: !existsSync(dir) && `${run} absent`, timeout: 60000 }, async () => {
      await checkRunReport(run, dir);
    });
  }
  test("dark scheme keeps text readable", { timeout: 60000 }, async () => {
    const file = makeReport(path.join(CORPUS, "v8c8_256"), "v8c8_256-dark");
    const { page, problems } = await open(file, { colorScheme: "dark" });
    try {
      const [bg, fg] = await page.evaluate(() => {
        const s = getComputedStyle(document.body);
        return [getComputedStyle(document.documentElement).backgroundColor, s.color];
      });
      assert.equal(bg, "rgb(20, 23, 29)");
      assert.equal(fg, "rgb(227, 231, 238)");
      await page.screenshot({ path: path.join(ARTIFACTS, "v8c8_256-dark.png"), fullPage: false });
      assertClean(problems);
    } finally {
      await page.close();
    }
  });
});

test("examples/synthetic_run", { skip: !existsSync(EXAMPLE) && "examples/synthetic_run absent", timeout: 60000 }, async () => {
  await checkRunReport("synthetic_run", EXAMPLE);
});

// A profile CSV given with an AI Hub profile, a Genie profile and a runner's
// log: the page draws each profile's section beside the run's, with the
// figures of those files (src/formats/testdata).
test("a mixed run shows its device profiles", { timeout: 60000 }, async () => {
  const testdata = path.join(ROOT, "src/formats/testdata");
  const out = path.join(WORK, "mixed.html");
  htpscope("report", ...["netrun_phases.csv", "aihub_profile.json", "genie_profile.json",
    "llm_runner_stats.log"].map((f) => path.join(testdata, f)), "-o", out);
  const { page, problems } = await open(out);
  try {
    const sections = await page.evaluate(() => window.htpscopeReport.sections);
    for (const s of ["overview", "aihub", "genie", "llm_runner"]) assert.ok(sections.includes(s), `section ${s}`);
    assert.equal(await page.locator("[data-section=aihub] > summary h2").textContent(), "AI Hub profile (qai_hub layout)");
    const text = async (table) => page.locator(`[data-table=${table}]`).textContent();
    // all_inference_times [10003, 4205, 4180, 4230, 4198]: cold 10,003, steady median 4,201.5.
    const inference = await text("aihub_inference");
    for (const s of ["3,652", "10,003", "4,201.5", "4,180", "4,230"]) assert.ok(inference.includes(s), `inference shows ${s}: ${inference}`);
    const stages = await text("aihub_stages");
    for (const s of ["1,374,293", "159.0 MiB", "68.9 MiB – 78.2 MiB"]) assert.ok(stages.includes(s), `stages show ${s}: ${stages}`);
    // CPU: 2 of 8 layers (25.0 %), 23 + 2,900 = 2,923 µs of 5,018 (58.3 %).
    assert.deepEqual(await columnValues(page, "aihub_coverage", "time_us"), ["845", "1,250", "2,923"]);
    assert.deepEqual(await columnValues(page, "aihub_coverage", "time_pct"), ["16.8", "24.9", "58.3"]);
    assert.deepEqual(await columnValues(page, "aihub_coverage", "layers_pct"), ["62.5", "12.5", "25.0"]);
    assert.deepEqual(await columnValues(page, "aihub_fallbacks", "name"), ["model/tf.math.divide/truediv", "resize", "softmax"]);
    assert.deepEqual(await columnValues(page, "aihub_fallbacks", "time_us"), ["23", "1,250", "2,900"]);
    assert.equal(await page.locator("[data-table=aihub_layers] tbody tr.fallback").count(), 3, "the layers off the NPU are marked");
    await checkSorting(page, "aihub_layers", "time_us", "name");
    // Genie: the cold query apart from the steady state of queries 2..3.
    assert.deepEqual(await columnValues(page, "genie_0_queries", "run"), ["cold", "steady", "steady"]);
    assert.deepEqual(await columnValues(page, "genie_0_queries", "ttft_us"), ["29,090", "25,100", "24,800"]);
    assert.deepEqual(await columnValues(page, "genie_0_queries", "prompt_rate_tps"), ["412.5", "478.1", "483.9"]);
    assert.deepEqual(await columnValues(page, "genie_0_steady", "median"), ["24,950", "481", "24.05", "4,600,000"]);
    // The runner: TTFT first_token − inference_start, in µs.
    assert.deepEqual(await columnValues(page, "llm_runner_generations", "ttft_us"), ["214,000", "161,000", "158,000"]);
    assert.ok((await page.locator("[data-section=llm_runner]").textContent()).includes("Model load 1,978,000 µs (generation 1)."));
    await page.screenshot({ path: path.join(ARTIFACTS, "mixed.png"), fullPage: true });
    assertClean(problems);
  } finally {
    await page.close();
  }
});

// An optrace whose op name, types, description and run directory are markup.
const HOSTILE_NAME = "<img src=x onerror=alert(1)>";
function writeHostileRun() {
  const dir = path.join(WORK, "hostile<svg onload=alert(5)>");
  mkdirSync(dir, { recursive: true });
  const op = (id, ts, dur, name, tid) => ({
    name, ph: "X", pid: 0, tid, ts, dur,
    args: {
      ID: `0x00000001000000${id}`, "HTP Op Type": "<script>alert(2)</script>",
      Description: "<b onmouseover=alert(3)>bold</b>", Flags: ["uses_hvx"],
      "QNN Op Type": "<iframe srcdoc=x>", "QNN Op Name": name,
      "Start Cycle": 1000 + ts, "Duration (cycles)": dur, "Dominant Path Cycles": dur,
    },
  });
  const trace = {
    header: { header_version: { major: 1, minor: 0, patch: 0 }, version: { major: 1, minor: 1, patch: 0 }, artifact_type: "OP_TRACE" },
    traceEvents: [
      { name: "thread_name", ph: "M", pid: 0, tid: 512, args: { name: "<img src=y onerror=alert(6)>" } },
      op("01", 0, 5000, HOSTILE_NAME, 512),
      op("02", 5000, 3000, "benign_op", 512),
      { name: "VTCM alloc", ph: "C", pid: 0, tid: 0, ts: 0, args: { "": 4096 } },
    ],
  };
  writeFileSync(path.join(dir, "chrometrace.json"), JSON.stringify(trace));
  return dir;
}

test("a hostile op name renders as text and creates no element", { timeout: 60000 }, async () => {
  const dir = writeHostileRun();
  const file = makeReport(dir, "hostile");
  const { page, problems } = await open(file);
  try {
    assert.equal(await page.title(), `htpscope report — ${dir}`);
    assert.equal(await page.locator("#title").textContent(), `htpscope report — ${dir}`);
    const injected = await page.evaluate(() => {
      const found = [...document.querySelectorAll("img, iframe, object, embed, b, script:not(#data)")].map((e) => e.tagName);
      for (const e of document.querySelectorAll("*"))
        for (const a of e.getAttributeNames()) if (a.startsWith("on")) found.push(`${e.tagName}[${a}]`);
      return found;
    });
    // The page's own scripts are the only script elements.
    assert.deepEqual(injected, ["SCRIPT"]);
    const cells = await columnValues(page, "qnn_ops", "name");
    assert.ok(cells.includes(HOSTILE_NAME), "the op name shows as text in the QNN op table");
    assert.ok((await page.locator("body").innerText()).includes(HOSTILE_NAME));
    const bar = await checkHover(page, { name: HOSTILE_NAME });
    assert.equal(bar.htp_op_type, "<script>alert(2)</script>");
    await page.screenshot({ path: path.join(ARTIFACTS, "hostile.png"), fullPage: true });
    assertClean(problems);
  } finally {
    await page.close();
  }
});

test(`a large generated run (${LARGE_OPS} ops) gives a small report that opens fast`,
  { skip: !existsSync(SYNTH) && "htpscope-synth not built", timeout: 180000 }, async () => {
    const dir = path.join(WORK, "large_run");
    let t = Date.now();
    execFileSync(SYNTH, ["-o", dir, "--ops", String(LARGE_OPS), "--tiled-share", "0.3", "--branches", "4"],
      { stdio: ["ignore", "ignore", "pipe"] });  // a failure shows the generator's error
    const synthMs = Date.now() - t;
    t = Date.now();
    const file = makeReport(dir, "large");
    const reportMs = Date.now() - t;
    const traceBytes = statSync(path.join(dir, "chrometrace.json")).size;
    const reportBytes = statSync(file).size;
    const { page, problems, loadMs } = await open(file);
    try {
      const tl = await page.evaluate(() => {
        const t = window.htpscopeReport.model.timeline;
        return { slices: t.slices, bars: t.bars, threads: t.threads.length, width: t.base_width_px };
      });
      console.log(`# large run: ${LARGE_OPS} ops, trace ${(traceBytes / 1048576).toFixed(1)} MiB, ` +
        `${tl.slices} slices -> ${tl.bars} bars, report ${(reportBytes / 1048576).toFixed(2)} MiB; ` +
        `synth ${synthMs} ms, report ${reportMs} ms, browser load ${loadMs} ms`);
      // 1 GB of trace must stay under ~20 MB of report: scale the bound.
      assert.ok(reportBytes < Math.max(20 * 1048576 * traceBytes / 1e9, 4 * 1048576) && reportBytes < 20 * 1048576,
        `report ${reportBytes} bytes for a ${traceBytes}-byte trace`);
      assert.ok(tl.bars <= tl.threads * (2 * tl.width + 2), `bars bounded: ${tl.bars}`);
      assert.ok(tl.bars < tl.slices, "narrow slices were merged");
      assert.ok(loadMs < 5000, `opens in ${loadMs} ms`);
      await checkMergedHover(page);
      await checkSorting(page, "instances", "dpc_cycles", "qnn_op_name");
      await checkFilter(page, "instances", "qnn_op_name");
      await page.screenshot({ path: path.join(ARTIFACTS, "large.png"), fullPage: false });
      assertClean(problems);
    } finally {
      await page.close();
    }
  });
