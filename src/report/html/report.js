"use strict";
// htpscope HTML report: renders every section from the JSON data model in
// <script id="data"> (schema htpscope.report/1, docs/report.md).
//
// Safety contract: strings from the data are only ever written with
// textContent / createTextNode / setAttribute of inert attributes, or drawn on
// a canvas; never as markup.  No eval, no inline handlers.
(function () {
  const model = JSON.parse(document.getElementById("data").textContent);
  const SVG_NS = "http://www.w3.org/2000/svg";

  // ---------------------------------------------------------------- helpers
  // el("div", {class: "x"}, child, "text", ...): children that are strings
  // become text nodes.
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }
  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG_NS, tag);
    setAttrs(node, attrs);
    append(node, children);
    return node;
  }
  function setAttrs(node, attrs) {
    if (!attrs) return;
    for (const [k, v] of Object.entries(attrs)) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith("on")) throw new Error("no event attributes");
      node.setAttribute(k, v === true ? "" : String(v));
    }
  }
  function append(node, children) {
    for (const c of children) {
      if (c === null || c === undefined || c === false) continue;
      if (Array.isArray(c)) append(node, c);
      else if (c instanceof Node) node.appendChild(c);
      else node.appendChild(document.createTextNode(String(c)));
    }
  }
  const isNum = (v) => typeof v === "number" && isFinite(v);
  function groupDigits(n) {
    const neg = n < 0;
    const s = String(Math.abs(Math.round(n)));
    return (neg ? "-" : "") + s.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  }
  function fmtNumber(v, decimals) {
    if (!isNum(v)) return "—";
    if (Number.isInteger(v) && decimals === undefined) return groupDigits(v);
    const d = decimals === undefined ? 2 : decimals;
    const fixed = v.toFixed(d);
    const [i, f] = fixed.split(".");
    const frac = decimals === undefined && f ? f.replace(/0+$/, "") : f;
    return (v < 0 && Number(i) === 0 ? "-" : "") + groupDigits(Number(i)) + (frac ? "." + frac : "");
  }
  function fmtBytes(v) {
    if (!isNum(v)) return "—";
    const units = ["B", "KiB", "MiB", "GiB"];
    let x = v, u = 0;
    while (Math.abs(x) >= 1024 && u < units.length - 1) { x /= 1024; u++; }
    return u === 0 ? groupDigits(v) + " B" : x.toFixed(1) + " " + units[u];
  }
  function fmtShort(v) {  // axis labels: 1.2M, 340k
    const a = Math.abs(v);
    if (a >= 1e9) return (v / 1e9).toFixed(a >= 1e10 ? 0 : 1) + "G";
    if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M";
    if (a >= 1e3) return (v / 1e3).toFixed(a >= 1e4 ? 0 : 1) + "k";
    return String(Math.round(v));
  }
  // Formats a value by its column type / key suffix.
  function fmtTyped(v, type) {
    if (v === null || v === undefined) return "—";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (!isNum(v)) return typeof v === "object" ? JSON.stringify(v) : String(v);
    switch (type) {
      case "pct": return v.toFixed(1);
      case "bytes": return fmtBytes(v);
      case "ghz": return v.toFixed(3);
      case "us": return Number.isInteger(v) ? groupDigits(v) : fmtNumber(v);
      default: return Number.isInteger(v) ? groupDigits(v) : fmtNumber(v);
    }
  }
  function typeOfKey(key) {
    if (/_pct$/.test(key)) return "pct";
    if (/_bytes$/.test(key)) return "bytes";
    if (/_ghz$/.test(key)) return "ghz";
    if (/_us$/.test(key)) return "us";
    if (/_cycles?$/.test(key) || /_ticks$/.test(key)) return "cycles";
    return "";
  }
  function humanKey(key) { return String(key).replace(/_/g, " "); }
  function cssVar(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }
  const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                   "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#bcbd22"];
  const CATEGORY_COLOURS = { compute: "#4e79a7", system_service: "#f28e2b", boundary: "#b07aa1" };
  const FLAG_NAMES = [[1, "dma"], [2, "dma_set"], [4, "dma_wait"], [8, "uses_hmx"],
                      [16, "uses_hvx"], [32, "sync"], [64, "other"]];
  const flagText = (f) => FLAG_NAMES.filter(([b]) => f & b).map(([, n]) => n).join(" ") || "—";

  const tooltip = document.getElementById("tooltip");
  function showTooltip(x, y, title, rows, note) {
    tooltip.replaceChildren();
    tooltip.appendChild(el("div", { class: "tt-title" }, title));
    const t = el("table");
    for (const [k, v] of rows) t.appendChild(el("tr", null, el("td", null, k), el("td", null, v)));
    tooltip.appendChild(t);
    if (note) tooltip.appendChild(el("div", { class: "help" }, note));
    tooltip.hidden = false;
    const w = tooltip.offsetWidth, h = tooltip.offsetHeight;
    let left = x + 14, top = y + 14;
    if (left + w > window.innerWidth - 4) left = Math.max(4, x - w - 14);
    if (top + h > window.innerHeight - 4) top = Math.max(4, y - h - 14);
    tooltip.style.left = left + "px";
    tooltip.style.top = top + "px";
  }
  function hideTooltip() { tooltip.hidden = true; }

  // ------------------------------------------------------ sortable tables
  // spec: {title, help, columns: [{key, label, type, help}], rows: [[...]],
  //        total_rows, kept, row_classes}; row_classes[i]: row i's class.
  // Sort by clicking a header, filter per column (text: substring; numbers:
  // "> 1000", "<=5", "=3" or a substring), share chart of a numeric column
  // over the rows that pass the filters.
  const PAGE_ROWS = 200;
  function isNumericType(t) { return ["cycles", "offset", "pct", "count", "bytes", "us", "ghz", "num"].includes(t); }
  // Columns whose values add up, so that a share of their sum means something.
  function isSummableType(t) { return ["cycles", "count", "bytes", "us", "num"].includes(t); }
  // options.share: offer a share chart (default: when the table has a
  // summable column); spec.share_column: the key charted first.
  function makeTable(spec, id, options) {
    const opts = options || {};
    const cols = spec.columns;
    const rows = spec.rows;
    const wrap = el("div", { class: "table-wrap", "data-table": id });
    if (spec.title) wrap.appendChild(el("h3", null, spec.title));
    if (spec.help) wrap.appendChild(el("p", { class: "help" }, spec.help));
    const total = spec.total_rows !== undefined ? spec.total_rows : rows.length;
    if (rows.length < total)
      wrap.appendChild(el("p", { class: "help" },
        `Showing ${groupDigits(rows.length)} of ${groupDigits(total)} rows: ${spec.kept || "the first ones"}.`));
    const state = { sortCol: -1, dir: 1, filters: cols.map(() => ""), limit: PAGE_ROWS, view: [] };

    const tools = el("div", { class: "table-tools" });
    const count = el("span", { class: "count help" });
    const summable = cols.map((c, i) => [c, i]).filter(([c]) => isSummableType(c.type));
    let shareSelect = null;
    const shareBox = el("div", { class: "share" });
    if (summable.length && rows.length > 1 && opts.share !== false) {
      shareSelect = el("select", { "aria-label": "share chart column", "data-role": "share-column" },
        el("option", { value: "" }, "none"),
        summable.map(([c, i]) => el("option", { value: i }, c.label)));
      const first = summable.find(([c]) => c.key === spec.share_column) ||
                    summable.find(([c]) => c.type === "cycles" || c.type === "bytes");
      if (first && opts.shareOff !== true) shareSelect.value = String(first[1]);
      shareSelect.addEventListener("change", () => drawShare());
      tools.appendChild(el("label", null, "share chart of ", shareSelect));
    }
    tools.appendChild(count);
    wrap.appendChild(tools);
    wrap.appendChild(shareBox);

    const table = el("table", { class: "data" });
    const headRow = el("tr", { class: "head" });
    const filterRow = el("tr", { class: "filters" });
    cols.forEach((c, i) => {
      const numeric = isNumericType(c.type);
      const button = el("button", { class: "sort", type: "button", title: c.help || "sort" }, c.label);
      const th = el("th", { "data-key": c.key, class: numeric ? "num" : null, scope: "col" }, button);
      button.addEventListener("click", () => {
        if (state.sortCol === i) state.dir = -state.dir;
        else { state.sortCol = i; state.dir = numeric ? -1 : 1; }
        for (const h of headRow.children) h.removeAttribute("aria-sort");
        th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
        state.limit = PAGE_ROWS;
        update();
      });
      headRow.appendChild(th);
      const input = el("input", { class: "filter", type: "search", "data-key": c.key,
                                  placeholder: numeric ? "> 0" : "filter", "aria-label": "filter " + c.label });
      input.addEventListener("input", () => { state.filters[i] = input.value.trim(); state.limit = PAGE_ROWS; update(); });
      filterRow.appendChild(el("th", null, input));
    });
    table.appendChild(el("thead", null, headRow, filterRow));
    const tbody = el("tbody");
    table.appendChild(tbody);
    wrap.appendChild(el("div", { class: "table-scroll" }, table));
    const more = el("button", { class: "more", type: "button" });
    more.addEventListener("click", () => { state.limit += PAGE_ROWS * 5; render(); });
    wrap.appendChild(more);

    function matcher(text, col) {
      if (!text) return null;
      const numeric = isNumericType(col.type);
      const m = numeric && /^(<=|>=|<|>|=)\s*(-?[\d.,eE+]+)$/.exec(text);
      if (m) {
        const x = Number(m[2].replace(/,/g, ""));
        const op = m[1];
        return (v) => isNum(v) && (op === "<" ? v < x : op === ">" ? v > x : op === "<=" ? v <= x : op === ">=" ? v >= x : v === x);
      }
      const needle = text.toLowerCase();
      return (v) => {
        if (v === null || v === undefined) return false;
        const raw = String(v).toLowerCase();
        return raw.includes(needle) || fmtTyped(v, col.type).toLowerCase().includes(needle);
      };
    }
    function update() {
      const tests = state.filters.map((f, i) => [i, matcher(f, cols[i])]).filter(([, t]) => t);
      let view = rows.map((r, i) => i);
      if (tests.length) view = view.filter((ri) => tests.every(([ci, t]) => t(rows[ri][ci])));
      if (state.sortCol >= 0) {
        const c = state.sortCol, dir = state.dir;
        view.sort((a, b) => {
          const x = rows[a][c], y = rows[b][c];
          const xn = x === null || x === undefined, yn = y === null || y === undefined;
          if (xn || yn) return xn === yn ? a - b : xn ? 1 : -1;  // absent values last
          if (x < y) return -dir;
          if (x > y) return dir;
          return a - b;
        });
      }
      state.view = view;
      render();
      drawShare();
    }
    function render() {
      const frag = document.createDocumentFragment();
      const n = Math.min(state.view.length, state.limit);
      for (let k = 0; k < n; k++) {
        const r = rows[state.view[k]];
        const tr = document.createElement("tr");
        const rowClass = spec.row_classes && spec.row_classes[state.view[k]];
        if (rowClass) tr.className = rowClass;
        cols.forEach((c, i) => {
          const td = document.createElement("td");
          const v = r[i];
          td.className = isNumericType(c.type) ? "num" : c.type === "id" ? "id" : "text";
          if (c.type === "bool") td.textContent = v ? "yes" : "";
          else td.textContent = fmtTyped(v, c.type);
          if (c.type === "bytes" && isNum(v)) td.title = groupDigits(v) + " bytes";
          tr.appendChild(td);
        });
        frag.appendChild(tr);
      }
      tbody.replaceChildren(frag);
      count.textContent = `${groupDigits(state.view.length)} of ${groupDigits(rows.length)} rows match`;
      more.hidden = state.view.length <= state.limit;
      more.textContent = `show ${groupDigits(Math.min(PAGE_ROWS * 5, state.view.length - state.limit))} more rows`;
    }
    function drawShare() {
      shareBox.replaceChildren();
      if (!shareSelect || shareSelect.value === "") return;
      const ci = Number(shareSelect.value);
      const labelCol = cols.findIndex((c) => c.type === "text" || c.type === "id");
      const items = state.view.map((ri) => [rows[ri][labelCol], rows[ri][ci]]).filter(([, v]) => isNum(v) && v > 0);
      items.sort((a, b) => b[1] - a[1]);
      const sum = items.reduce((s, [, v]) => s + v, 0);
      if (!(sum > 0)) { shareBox.appendChild(el("p", { class: "help" }, "nothing to chart")); return; }
      const top = items.slice(0, 10);
      const rest = items.slice(10).reduce((s, [, v]) => s + v, 0);
      if (rest > 0) top.push([`other (${groupDigits(items.length - 10)} rows)`, rest, true]);
      shareBox.appendChild(pieChart(top, sum, cols[ci]));
    }
    update();
    return wrap;
  }
  function pieChart(items, sum, col) {
    const size = 150, r = 70, c = 75;
    const chart = svg("svg", { width: size, height: size, viewBox: `0 0 ${size} ${size}`, role: "img",
                               "aria-label": "share of " + col.label });
    let angle = -Math.PI / 2;
    const legend = el("ol");
    items.forEach(([label, v, isOther], k) => {
      const colour = isOther ? cssVar("--other") : PALETTE[k % PALETTE.length];
      const frac = v / sum;
      const a2 = angle + frac * 2 * Math.PI;
      let shape;
      if (frac >= 0.9999) shape = svg("circle", { cx: c, cy: c, r, fill: colour });
      else {
        const large = a2 - angle > Math.PI ? 1 : 0;
        const d = `M${c},${c} L${c + r * Math.cos(angle)},${c + r * Math.sin(angle)} A${r},${r} 0 ${large} 1 ${c + r * Math.cos(a2)},${c + r * Math.sin(a2)} Z`;
        shape = svg("path", { d, fill: colour });
      }
      shape.appendChild(svg("title", null, `${label}: ${fmtTyped(v, col.type)} (${(frac * 100).toFixed(1)} %)`));
      chart.appendChild(shape);
      angle = a2;
      const sw = el("span", { class: "swatch" });
      sw.style.background = colour;
      legend.appendChild(el("li", null, sw, String(label === null || label === undefined ? "—" : label),
        ` — ${fmtTyped(v, col.type)} (${(frac * 100).toFixed(1)} %)`));
    });
    return el("div", { class: "share" }, chart,
      el("div", null, el("div", { class: "help" }, `share of ${col.label} over the rows shown (Σ ${fmtTyped(sum, col.type)})`), legend));
  }
  // A table whose rows are built here, without a share chart: `columns` as
  // [key, label, type] triples.
  function builtTable(id, title, help, columns, rows) {
    return makeTable({ title, help, columns: columns.map(([key, label, type]) => ({ key, label, type })), rows },
                     id, { share: false });
  }
  // Table spec from an array of objects (columns: the union of scalar keys).
  function tableFromObjects(objects, title, help) {
    const keys = [];
    for (const o of objects) for (const k of Object.keys(o)) if (!keys.includes(k)) keys.push(k);
    const columns = keys.map((k) => {
      const sample = objects.map((o) => o[k]).find((v) => v !== null && v !== undefined);
      let type = typeOfKey(k);
      if (!type) type = isNum(sample) ? "num" : typeof sample === "boolean" ? "bool" : "text";
      return { key: k, label: humanKey(k), type };
    });
    const rows = objects.map((o) => keys.map((k) => {
      const v = o[k];
      if (v !== null && typeof v === "object") return Array.isArray(v) && v.every((x) => typeof x !== "object") ? v.join(", ") : JSON.stringify(v);
      return v === undefined ? null : v;
    }));
    return { title, help, columns, rows };
  }
  let tableCounter = 0;

  // ----------------------------------------------------------- overview
  // What each warning code means, from the warning registry (model/warning_codes.h).
  const WARNING_EXPLANATIONS = model.warning_explanations || {};
  // What each run-level figure is, from the figure registry (model/figures.h),
  // as a sentence under its card.
  const FIGURE_DESCRIPTIONS = model.figure_descriptions || {};
  function figureText(name) {
    const s = FIGURE_DESCRIPTIONS[name] || "";
    return s ? s[0].toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? "" : ".") : "";
  }
  function getPath(obj, path) {
    let v = obj;
    for (const p of path.split(".")) {
      if (v === null || v === undefined) return undefined;
      v = v[/^\d+$/.test(p) ? Number(p) : p];
    }
    return v;
  }
  function card(label, path, value, unit, what, display) {
    const present = isNum(value);
    const node = el("div", { class: present ? "card" : "card absent", "data-figure": path,
                             "data-value": present ? JSON.stringify(value) : "null" },
      el("div", { class: "label" }, label),
      el("div", { class: "value" }, present ? (display || fmtTyped(value, typeOfKey(path))) : "not available",
        present && unit ? el("span", { class: "unit" }, unit) : null),
      el("div", { class: "what" }, what));
    return node;
  }
  function renderOverview(body, o) {
    const lines = [];
    if (o.artifacts && o.artifacts.length) {
      const ul = el("ul", { class: "mono" });
      for (const a of o.artifacts) ul.appendChild(el("li", null, `${a.kind}: ${a.path}`));
      lines.push(el("details", { class: "sub" }, el("summary", null, `Artifacts read (${o.artifacts.length})`), ul,
        (o.skipped || []).length ? el("p", { class: "help" }, "Skipped: " + o.skipped.join("; ")) : null));
    }
    const exec = o.executions || [];
    const cold = exec[0];
    const steady = o.steady_state;
    const cards = el("div", { class: "cards" });
    const steadyN = steady ? `executions ${steady.first_index}..${exec.length ? exec[exec.length - 1].index : ""}` : "";
    cards.appendChild(card("Graph wall, steady median", "steady_state.qnn_accelerator_us.median",
      steady && steady.qnn_accelerator_us ? steady.qnn_accelerator_us.median : null, "µs",
      figureText("wall_us") + (steady ? ` Median of ${steadyN}.` : " Needs two or more executions.")));
    cards.appendChild(card("Graph wall, cold (execution 1)", "executions.0.qnn_accelerator_us",
      cold ? cold.qnn_accelerator_us : null, "µs", figureText("cold_wall_us")));
    cards.appendChild(card("Compute-busy, steady median", "steady_state.accelerator_us.median",
      steady && steady.accelerator_us ? steady.accelerator_us.median : null, "µs", figureText("compute_busy_us")));
    cards.appendChild(card("Overhead, steady median", "steady_state.overhead_us.median",
      steady && steady.overhead_us ? steady.overhead_us.median : null, "µs", figureText("overhead_us")));
    cards.appendChild(card("Graph wall (traced)", "graph_wall_cycles", o.graph_wall_cycles, "cycles",
      figureText("graph_wall_cycles") + (o.fine_source ? ` From the ${o.fine_source}.` : "")));
    cards.appendChild(card("Domain", "domain_cycles", o.domain_cycles, "cycles",
      figureText("domain_cycles") + (isNum(o.domain_tid) ? ` Here: tid ${o.domain_tid}.` : "")));
    // The overview's work_cycles is the traced execution's work: the registry's traced_work_cycles.
    cards.appendChild(card("Work (thread-aggregate)", "work_cycles", o.work_cycles, "cycles", figureText("traced_work_cycles")));
    cards.appendChild(card("Dominant path (Σ DPC)", "dpc_sum_cycles", o.dpc_sum_cycles, "cycles", figureText("dpc_sum_cycles")));
    cards.appendChild(card("Peak VTCM", "peak_vtcm_bytes", o.peak_vtcm_bytes, "", figureText("peak_vtcm_bytes") +
      (isNum(o.peak_vtcm_bytes) ? ` ${groupDigits(o.peak_vtcm_bytes)} bytes.` : ""), fmtBytes(o.peak_vtcm_bytes)));
    // The clock is no figure of the run (the reference the clock sanity check
    // compares with: --clock-ghz, runtrace, QHAS or a default): the page says so itself.
    if (o.clock) cards.appendChild(card("Plausible clock", "clock.plausible_ghz", o.clock.plausible_ghz, "GHz",
      `Clock used for the cycles ÷ µs sanity check. Source: ${o.clock.source}.`));
    lines.push(cards);

    const warnings = o.warnings || [];
    lines.push(el("h3", null, `Warnings (${warnings.length})`));
    if (warnings.length) {
      const ul = el("ul", { class: "warnings" });
      for (const w of warnings)
        ul.appendChild(el("li", { "data-code": w.code }, el("span", { class: "code-badge" }, w.code), w.message,
          WARNING_EXPLANATIONS[w.code] ? el("span", { class: "explain" }, WARNING_EXPLANATIONS[w.code]) : null));
      lines.push(ul);
    } else lines.push(el("p", { class: "help" }, "none"));

    if (exec.length) {
      lines.push(makeTable({
        title: "Cold vs steady state: every execution",
        help: "From the profile viewer (µs as printed). Execution 1 is cold; the steady state is executions 2..N. " +
              "Work cycles are thread-aggregate: implied GHz above the plausible clock flags them.",
        columns: [
          { key: "index", label: "execution", type: "count" },
          { key: "cold", label: "cold", type: "bool" },
          { key: "qnn_accelerator_us", label: "graph wall µs", type: "us" },
          { key: "accelerator_us", label: "compute-busy µs", type: "us" },
          { key: "overhead_us", label: "overhead µs", type: "us" },
          { key: "overhead_pct", label: "overhead %", type: "pct" },
          { key: "rpc_us", label: "RPC µs", type: "us" },
          { key: "accelerator_cycles", label: "work cycles", type: "cycles" },
          { key: "implied_ghz", label: "implied GHz", type: "ghz" },
          { key: "aggregate_cycles", label: "aggregate", type: "bool" },
        ],
        rows: exec.map((e) => [e.index, e.cold, e.qnn_accelerator_us, e.accelerator_us, e.overhead_us,
                               e.overhead_pct, e.rpc_us, e.accelerator_cycles, e.implied_ghz, e.aggregate_cycles]),
      }, "executions", { share: false }));
    }
    if (steady) {
      const stats = [["graph wall µs", steady.qnn_accelerator_us], ["compute-busy µs", steady.accelerator_us],
                     ["overhead µs", steady.overhead_us], ["work cycles", steady.accelerator_cycles]].filter(([, s]) => s);
      lines.push(builtTable("steady_state", `Steady state (${steadyN})`,
        "median of an even count is the mean of the middle two; MAD = median absolute deviation",
        [["figure", "figure", "text"], ["median", "median", "num"], ["min", "min", "num"], ["max", "max", "num"],
         ["mad", "MAD", "num"], ["n", "n", "count"]],
        stats.map(([n, s]) => [n, s.median, s.min, s.max, s.mad, s.n])));
    }
    // Less central facts fold away; a disagreeing cross-check stays open.
    const fold = (title, open, ...content) =>
      el("details", { class: "sub", open }, el("summary", null, title), ...content);
    const fi = o.first_inference;
    if (fi) {
      const from = (f) => (f ? (f.name === "NetRun" ? f.source : `${f.source} ${f.name}`) : "");
      const rows = [];
      const add = (phase, f) => { if (f) rows.push([phase, f.us, from(f)]); };
      const within = fi.init_spans_compose_and_finalize === true;
      add(within ? "init (spans compose and finalize)" : "init", fi.init);
      if (isNum(fi.init_alone_us)) rows.push(["  init alone", fi.init_alone_us, "init − compose − finalize"]);
      add(within ? "compose graphs (within init)" : "compose graphs", fi.compose);
      for (const g of fi.graphs || []) {
        add(`finalize ${g.graph}${within ? " (within init)" : ""}`, g.finalize);
        for (const st of g.finalize_stages || []) rows.push([`  ${st.name}`, st.us, "stage of finalize"]);
      }
      for (const g of fi.graphs || []) {
        add(`cold execute ${g.graph}`, g.cold_execute);
        if (isNum(g.power_on_us)) rows.push(["  HVX + HMX power on and acquire", g.power_on_us,
          `reported with it, not part of it; steady median ${isNum(g.steady_power_on_us) ? g.steady_power_on_us : "-"}`]);
        if (isNum(g.vtcm_acquire_us)) rows.push(["  initial VTCM acquire", g.vtcm_acquire_us,
          `reported with it, not part of it; steady median ${isNum(g.steady_vtcm_acquire_us) ? g.steady_vtcm_acquire_us : "-"}`]);
      }
      if (isNum(fi.total_us)) rows.push(["to the first inference", fi.total_us,
        (within ? "init + cold execute: the viewer's INIT spans compose and finalize" : "Σ of the phases printed, not a clock reading") + ((fi.missing || []).length ? ` (none printed for: ${fi.missing.join(", ")})` : "")]);
      add("de-init", fi.deinit);
      lines.push(fold(isNum(fi.total_us) ? `Time to first inference: ${fmtTyped(fi.total_us)} µs` : "Phases before the first inference", true,
        builtTable("first_inference", null,
          "From the profile (µs as printed): NetRun's wall time of each phase where printed, else the Backend's; " +
          "finalize stages are sub-events of QNN (finalize) time (docs/metrics.md).",
          [["phase", "phase", "text"], ["us", "µs", "us"], ["from", "from", "text"]], rows)));
    }
    const steadyOps = o.op_steady_state || [];
    if (steadyOps.length && o.fine_source !== "optrace" && o.fine_source !== "qhas")
      lines.push(fold("Per-op steady state: profile per-node cycles", true, makeTable(tableFromObjects(steadyOps, null,
        "No optrace or QHAS: no DPC. Each op's per-node cycles: cold = execution 1; median, min, max and MAD over executions 2..N; " +
        "share % = steady median ÷ the steady median Accelerator (execute) time (cycles)" +
        (o.op_steady_state_total_rows ? `; the ${steadyOps.length} of ${o.op_steady_state_total_rows} ops with the most steady cycles per graph` : "")),
        "op_steady_state", { share: false })));
    if ((o.categories || []).length)
      lines.push(fold("By kind: compute, system service, boundary", false, makeTable(tableFromObjects(o.categories, null,
        "system_service and boundary ops belong to no model op (docs/metrics.md)"), "categories", { shareOff: true })));
    const byUnit = o.dominant_path_by_unit;
    if (byUnit && byUnit.total) {
      const units = ["hmx", "hvx", "dma", "dma_wait", "sync", "other", "idle"];
      lines.push(fold(`Dominant path by hardware (${byUnit.source})`, false,
        builtTable("path_by_unit", null,
          "Each dominant-path segment goes to the unit of the op holding it (its flags: uses_hmx, uses_hvx, " +
          "dma or dma_set, dma_wait, sync; other = none). The units sum to the path, which is the graph wall.",
          [["unit", "unit", "text"], ["cycles", "path cycles", "cycles"], ["pct", "% path", "pct"]],
          units.map((u) => [u.replace("_", " "), byUnit.total[u + "_cycles"], (byUnit.share_of_path || {})[u + "_pct"]])),
        makeTable(tableFromObjects(byUnit.ops || [], "Per QNN op", "cycles of the op's dominant-path segments, by unit" +
          (byUnit.ops_total_rows ? ` (the ${byUnit.ops.length} of ${byUnit.ops_total_rows} ops with the most path cycles)` : "")),
          "path_by_unit_ops", { share: false })));
    }
    const rollup = o.op_rollup;
    if (rollup && (rollup.ops || []).length)
      lines.push(fold("Compute / staging / DMA per QNN op", false,
        makeTable(tableFromObjects(rollup.ops.concat([Object.assign({ name: "all ops" }, rollup.total)]), null,
          "work (Σ over threads) and dominant-path cycles by class: compute = HMX/HVX ops; staging = format changes, " +
          "reference ops, slices and other boundary ops; DMA = dma, dma_set, dma_wait; other = sync and unflagged (docs/metrics.md)" +
          (rollup.ops_total_rows ? `; the ${rollup.ops.length} of ${rollup.ops_total_rows} ops with the most work` : "")),
          "op_rollup", { share: false })));
    const hits = o.vtcm_read_hits;
    if (hits && (hits.ops || []).length) {
      const all = isNum(hits.vtcm_read_hit_pct) ? `${hits.vtcm_read_hit_pct.toFixed(1)} %` : "no reads";
      lines.push(fold(`VTCM read hit ratio per QNN op (all ops: ${all})`, false,
        makeTable(tableFromObjects(hits.ops.concat([{ name: "all ops", dram_read_bytes: hits.dram_read_bytes,
          vtcm_read_bytes: hits.vtcm_read_bytes, vtcm_read_hit_pct: hits.vtcm_read_hit_pct }]), null,
          "VTCM hit = VTCM read ÷ (VTCM read + DRAM read): the share of bytes read that VTCM served; " +
          `dram share = the op's share of all DRAM bytes (read + write); from ${hits.source}` +
          (hits.ops_total_rows ? `; the ${hits.ops.length} of ${hits.ops_total_rows} ops with the most DRAM bytes read` : "")),
          "vtcm_read_hits", { share: false })));
    }
    if ((o.qhas_cores || []).length > 1)
      lines.push(fold(`HTP cores (${o.qhas_cores.length})`, true,
        makeTable(tableFromObjects(o.qhas_cores, null, "QHAS htp_overall_summary and dominant_path_htp_N, core by core"),
          "qhas_cores", { share: false })));
    const graphs = o.graphs || [];
    if (graphs.length > 1)
      for (const g of graphs)
        if ((g.executions || []).length)
          lines.push(fold(`Executions of graph ${g.name || "(unnamed)"} (${g.executions.length})`, false,
            makeTable(tableFromObjects(g.executions, null, "From the profile viewer, this graph's executions in file order; " +
              "execution 1 is cold."), "graph_executions", { share: false })));
    if ((o.cross_checks || []).length) {
      const t = el("table", { class: "data" });
      t.appendChild(el("thead", null, el("tr", { class: "head" }, ["", "figure", "A", "value", "B", "value", "note"].map((h) => el("th", null, h)))));
      const tb = el("tbody");
      for (const c of o.cross_checks)
        tb.appendChild(el("tr", null,
          el("td", { class: c.agree ? "agree" : "disagree" }, c.agree ? "agree" : "DIFFER"),
          el("td", null, `${c.name} (${c.unit})`), el("td", null, c.a_source), el("td", { class: "num" }, fmtTyped(c.a)),
          el("td", null, c.b_source), el("td", { class: "num" }, fmtTyped(c.b)), el("td", { class: "text" }, c.note || "")));
      t.appendChild(tb);
      const differ = o.cross_checks.filter((c) => !c.agree).length;
      lines.push(fold(`Cross-checks between artifacts: ${o.cross_checks.length - differ} agree, ${differ} differ`, differ > 0,
        el("p", { class: "help" }, "Where two artifacts give the same figure, both values are shown and compared."),
        el("div", { class: "table-scroll" }, t)));
    }
    if ((o.runtrace_phases || []).length)
      lines.push(fold("Runtrace phases", false, makeTable(tableFromObjects(o.runtrace_phases, null,
        "Real wall phases; each has its own clock (wall cycles ÷ wall µs)." +
        (isNum(o.traced_execution) ? ` The optrace lies inside execution ${o.traced_execution}.` : "")), "phases", { shareOff: true })));
    if ((o.profile_statistics || []).length)
      lines.push(fold("Profile-viewer statistics", false,
        makeTable(tableFromObjects(o.profile_statistics), "profile_statistics", { share: false })));
    if ((o.missing || []).length) {
      const ul = el("ul");
      for (const m of o.missing) ul.appendChild(el("li", null, el("strong", null, m.artifact), ": withholds " + m.withholds));
      lines.push(fold(`Not given (${o.missing.length})`, true, ul));
    }
    append(body, lines);
  }

  // ------------------------------------------------------------ timeline
  function renderTimeline(body, tl) {
    const S = tl.strings;
    const threads = tl.threads;
    const wall = tl.wall_cycles;
    const descriptions = new Map(tl.descriptions || []);
    const rowH = 26, axisH = 26, gutter = 150, padR = 10;
    const state = { v0: 0, v1: wall, colorBy: "htp", drawn: [] };

    // Colour keys ranked by busy cycles.
    function rankKeys(field) {
      const busy = new Map();
      for (const th of threads) for (const b of th.bars) busy.set(b[field], (busy.get(b[field]) || 0) + b[2]);
      return [...busy.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    }
    const ranked = { htp: rankKeys(6), qnn: rankKeys(4) };
    function colourMaps() {
      const maps = {};
      for (const key of ["htp", "qnn"]) {
        const m = new Map();
        ranked[key].slice(0, PALETTE.length).forEach((k, i) => m.set(k, PALETTE[i]));
        maps[key] = m;
      }
      return maps;
    }
    const colours = colourMaps();
    function colourOf(b, other) {
      if (state.colorBy === "category") return CATEGORY_COLOURS[b[9]] || other;
      const m = state.colorBy === "qnn" ? colours.qnn : colours.htp;
      return m.get(state.colorBy === "qnn" ? b[4] : b[6]) || other;
    }

    const tools = el("div", { class: "timeline-tools" });
    const zoomIn = el("button", { type: "button", title: "zoom in" }, "+ zoom in");
    const zoomOut = el("button", { type: "button", title: "zoom out" }, "− zoom out");
    const reset = el("button", { type: "button", title: "whole graph" }, "reset");
    const colourSelect = el("select", { "aria-label": "colour bars by" },
      el("option", { value: "htp" }, "HTP op type"), el("option", { value: "category" }, "kind (compute / system / boundary)"),
      el("option", { value: "qnn" }, "QNN op"));
    const range = el("span", { class: "help" });
    append(tools, [zoomIn, zoomOut, reset, el("label", null, "colour by ", colourSelect), range]);
    const canvas = el("canvas", { class: "timeline-canvas", tabindex: "0", role: "img",
      "aria-label": "Per-thread timeline of the traced execution. Hover a bar for its op." });
    const legend = el("div", { class: "legend" });
    const merged = threads.reduce((n, th) => n + th.bars.filter((b) => b[3] > 1).length, 0);
    append(body, [
      el("p", { class: "help" },
        `One row per hardware thread; x = cycles since the first op (graph wall ${groupDigits(wall)} cycles). ` +
        `${groupDigits(tl.slices)} slices drawn as ${groupDigits(tl.bars)} bars: slices narrower than one pixel at ` +
        `${groupDigits(tl.base_width_px)} px across the wall (${fmtNumber(tl.pixel_cycles, 1)} cycles) are merged per pixel into "N ops" bars` +
        (merged ? ` (${groupDigits(merged)} such bars).` : " (none here).") +
        " Ctrl+wheel or the buttons zoom, drag pans, double-click zooms in, Escape resets."),
      tools, canvas, legend]);

    function updateLegend() {
      legend.replaceChildren();
      const other = cssVar("--other");
      if (state.colorBy === "category") {
        for (const [k, c] of Object.entries(CATEGORY_COLOURS)) {
          const sw = el("span", { class: "swatch" }); sw.style.background = c;
          legend.appendChild(el("span", { class: "item" }, sw, k));
        }
      } else {
        const key = state.colorBy === "qnn" ? "qnn" : "htp";
        const shown = ranked[key].slice(0, PALETTE.length);
        shown.forEach((k) => {
          const sw = el("span", { class: "swatch" }); sw.style.background = colours[key].get(k);
          legend.appendChild(el("span", { class: "item" }, sw, S[k] === "" ? "(unnamed)" : S[k]));
        });
        if (ranked[key].length > shown.length) {
          const sw = el("span", { class: "swatch" }); sw.style.background = other;
          legend.appendChild(el("span", { class: "item" }, sw, `other (${ranked[key].length - shown.length})`));
        }
      }
      legend.appendChild(el("span", { class: "item" }, el("span", { class: "swatch hatched" }), "hatched: boundary op"));
      legend.appendChild(el("span", { class: "item" }, el("span", { class: "swatch thin" }), "thin: system-service op"));
      legend.appendChild(el("span", { class: "item" }, el("span", { class: "swatch faded" }), "faded: N ops merged"));
    }

    let hatch = null;
    function hatchPattern(ctx) {
      const c = document.createElement("canvas");
      c.width = c.height = 6;
      const g = c.getContext("2d");
      g.strokeStyle = cssVar("--hatch");
      g.lineWidth = 1.4;
      g.beginPath(); g.moveTo(0, 6); g.lineTo(6, 0); g.moveTo(-1, 1); g.lineTo(1, -1); g.moveTo(5, 7); g.lineTo(7, 5); g.stroke();
      return ctx.createPattern(c, "repeat");
    }
    function niceStep(span, px) {
      const raw = span / Math.max(px / 110, 1);
      const p = Math.pow(10, Math.floor(Math.log10(raw)));
      for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
      return 10 * p;
    }
    function draw() {
      const cssW = Math.max(canvas.clientWidth, 300);
      const cssH = axisH + threads.length * rowH + 4;
      canvas.style.height = cssH + "px";
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(cssW * dpr);
      canvas.height = Math.round(cssH * dpr);
      const ctx = canvas.getContext("2d");
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const fg = cssVar("--fg"), muted = cssVar("--muted"), grid = cssVar("--grid"), other = cssVar("--other");
      hatch = hatchPattern(ctx);
      ctx.fillStyle = cssVar("--bg");
      ctx.fillRect(0, 0, cssW, cssH);
      const plotW = cssW - gutter - padR;
      const span = state.v1 - state.v0;
      const scale = plotW / span;
      // axis and grid
      ctx.font = "11px system-ui, sans-serif";
      ctx.textBaseline = "middle";
      const step = niceStep(span, plotW);
      ctx.strokeStyle = grid;
      ctx.fillStyle = muted;
      for (let t = Math.ceil(state.v0 / step) * step; t <= state.v1; t += step) {
        const x = gutter + (t - state.v0) * scale;
        ctx.beginPath(); ctx.moveTo(x + 0.5, axisH - 6); ctx.lineTo(x + 0.5, cssH); ctx.stroke();
        ctx.fillText(fmtShort(t), x + 3, axisH / 2 - 2);
      }
      ctx.fillText("cycles", 6, axisH / 2 - 2);
      state.drawn = [];
      threads.forEach((th, r) => {
        const y = axisH + r * rowH;
        ctx.fillStyle = r % 2 ? cssVar("--panel") : cssVar("--bg");
        ctx.fillRect(gutter, y, plotW, rowH);
        ctx.fillStyle = fg;
        ctx.fillText(`${th.kind} ${th.tid}`, 6, y + rowH / 2);
        const drawn = [];
        const bars = th.bars;
        for (let i = 0; i < bars.length; i++) {
          const b = bars[i];
          const s = b[0], e = b[0] + b[1];
          if (e < state.v0 || s > state.v1) continue;
          let x0 = gutter + (s - state.v0) * scale, x1 = gutter + (e - state.v0) * scale;
          if (x0 < gutter) x0 = gutter;
          if (x1 > gutter + plotW) x1 = gutter + plotW;
          if (x1 - x0 < 1) x1 = x0 + 1;
          const system = b[9] === "system_service";
          const top = system ? y + rowH * 0.55 : y + 3, h = system ? rowH * 0.4 - 2 : rowH - 6;
          ctx.globalAlpha = b[3] > 1 ? 0.5 : 1;
          ctx.fillStyle = colourOf(b, other);
          ctx.fillRect(x0, top, x1 - x0, h);
          if (b[9] === "boundary" && x1 - x0 >= 3) { ctx.fillStyle = hatch; ctx.fillRect(x0, top, x1 - x0, h); }
          ctx.globalAlpha = 1;
          drawn.push(x0, x1, i);
        }
        state.drawn[r] = drawn;
      });
      ctx.strokeStyle = cssVar("--line");
      ctx.beginPath(); ctx.moveTo(gutter - 0.5, axisH); ctx.lineTo(gutter - 0.5, cssH); ctx.stroke();
      range.textContent = `showing cycles ${groupDigits(state.v0)} – ${groupDigits(state.v1)} (${(100 * span / wall).toFixed(span < wall ? 2 : 0)} % of the wall)`;
    }
    // The bar under canvas-relative (x, y): the narrowest drawn bar covering x.
    function hit(x, y) {
      const r = Math.floor((y - axisH) / rowH);
      if (r < 0 || r >= threads.length || x < gutter) return null;
      const d = state.drawn[r] || [];
      let best = -1, bestW = Infinity;
      for (let k = 0; k < d.length; k += 3) {
        if (d[k] - 1 <= x && x <= d[k + 1] + 1) {
          const w = d[k + 1] - d[k];
          if (w < bestW || (w === bestW)) { best = d[k + 2]; bestW = w; }
        }
      }
      return best < 0 ? null : { thread: threads[r], bar: threads[r].bars[best] };
    }
    function describe(th, b) {
      const rows = [];
      if (b[3] > 1) {
        rows.push(["ops", `${groupDigits(b[3])} slices merged (each narrower than one base pixel)`],
          ["busy", groupDigits(b[2]) + " cycles"], ["span", `${groupDigits(b[0])} – ${groupDigits(b[0] + b[1])}`],
          ["largest", `${S[b[4]]} (${S[b[6]]}), DPC ${groupDigits(b[7])}`]);
        rows.push(["thread", `${th.kind} ${th.tid}`]);
        return { title: `${groupDigits(b[3])} ops`, rows };
      }
      rows.push(["QNN op type", S[b[5]] || "—"], ["HTP op type", S[b[6]] || "—"], ["cycles", groupDigits(b[1])],
        ["start", groupDigits(b[0]) + " cycles since the first op"], ["DPC", groupDigits(b[7]) + " cycles"],
        ["flags", flagText(b[8])], ["kind", b[9]], ["op ID", b[10]], ["thread", `${th.kind} ${th.tid}`]);
      const desc = descriptions.get(b[6]);
      return { title: S[b[4]] === "" ? "(unnamed op)" : S[b[4]], rows, note: desc !== undefined ? S[desc] : null };
    }
    function zoomAt(factor, centreX) {
      const plotW = canvas.clientWidth - gutter - padR;
      const span = state.v1 - state.v0;
      const frac = centreX === undefined ? 0.5 : Math.min(Math.max((centreX - gutter) / plotW, 0), 1);
      const t = state.v0 + frac * span;
      let ns = Math.min(Math.max(span / factor, 10), wall);
      let v0 = t - frac * ns;
      v0 = Math.min(Math.max(v0, 0), wall - ns);
      state.v0 = v0; state.v1 = v0 + ns;
      draw();
    }
    zoomIn.addEventListener("click", () => zoomAt(2));
    zoomOut.addEventListener("click", () => zoomAt(0.5));
    reset.addEventListener("click", () => { state.v0 = 0; state.v1 = wall; draw(); });
    colourSelect.addEventListener("change", () => { state.colorBy = colourSelect.value; updateLegend(); draw(); });
    canvas.addEventListener("wheel", (ev) => {
      if (ev.ctrlKey || ev.metaKey) {
        ev.preventDefault();
        const rect = canvas.getBoundingClientRect();
        zoomAt(ev.deltaY < 0 ? 1.25 : 0.8, ev.clientX - rect.left);
      } else if (Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
        ev.preventDefault();
        pan(ev.deltaX);
      }
    }, { passive: false });
    function pan(dxPx) {
      const plotW = canvas.clientWidth - gutter - padR;
      const span = state.v1 - state.v0;
      let v0 = state.v0 + dxPx * span / plotW;
      v0 = Math.min(Math.max(v0, 0), wall - span);
      state.v0 = v0; state.v1 = v0 + span;
      draw();
    }
    let drag = null;
    canvas.addEventListener("pointerdown", (ev) => {
      drag = { x: ev.clientX };
      canvas.setPointerCapture(ev.pointerId);
      canvas.classList.add("dragging");
    });
    canvas.addEventListener("pointerup", (ev) => {
      drag = null;
      canvas.releasePointerCapture(ev.pointerId);
      canvas.classList.remove("dragging");
    });
    canvas.addEventListener("pointermove", (ev) => {
      const rect = canvas.getBoundingClientRect();
      if (drag) {
        pan(drag.x - ev.clientX);
        drag.x = ev.clientX;
        hideTooltip();
        return;
      }
      const h = hit(ev.clientX - rect.left, ev.clientY - rect.top);
      if (!h) { hideTooltip(); return; }
      const d = describe(h.thread, h.bar);
      showTooltip(ev.clientX, ev.clientY, d.title, d.rows, d.note);
    });
    canvas.addEventListener("pointerleave", hideTooltip);
    canvas.addEventListener("dblclick", (ev) => {
      const rect = canvas.getBoundingClientRect();
      zoomAt(2, ev.clientX - rect.left);
    });
    canvas.addEventListener("keydown", (ev) => {
      if (ev.key === "+" || ev.key === "=") zoomAt(2);
      else if (ev.key === "-") zoomAt(0.5);
      else if (ev.key === "ArrowLeft") pan(-60);
      else if (ev.key === "ArrowRight") pan(60);
      else if (ev.key === "Escape") { state.v0 = 0; state.v1 = wall; draw(); }
      else return;
      ev.preventDefault();
    });
    updateLegend();
    const redraw = () => { updateLegend(); draw(); };
    new ResizeObserver(() => draw()).observe(canvas);
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", redraw);
    draw();

    // For tests and scripting: the viewport point of the first drawn exact
    // bar that `pred(fields, thread)` accepts (fields as in tl.bar_fields,
    // strings resolved), or null.
    // A drawn bar at least 3 px wide for which pred(fields) holds: an exact
    // bar (one slice), or with merged = true a bar of merged slices.
    api.timelineBarPoint = (pred, merged = false) => {
      canvas.scrollIntoView({ block: "center" });
      const rect = canvas.getBoundingClientRect();
      for (let r = 0; r < threads.length; r++) {
        const d = state.drawn[r] || [];
        for (let k = 0; k < d.length; k += 3) {
          const b = threads[r].bars[d[k + 2]];
          if (merged ? b[3] <= 1 : b[3] !== 1) continue;
          const fields = { start: b[0], cycles: b[1], merged_slices: b[3], name: S[b[4]], qnn_op_type: S[b[5]], htp_op_type: S[b[6]],
                           dpc: b[7], category: b[9], op_id: b[10], tid: threads[r].tid };
          if (d[k + 1] - d[k] < 3 || !pred(fields)) continue;
          return { x: rect.left + (d[k] + d[k + 1]) / 2, y: rect.top + axisH + r * rowH + rowH / 2, bar: fields };
        }
      }
      return null;
    };
  }

  // ---------------------------------------------------- units and memory
  function renderUnitsMemory(body, um) {
    const units = um.units || [];
    if (units.length) {
      body.appendChild(el("h3", null, "Hardware-thread utilization"));
      body.appendChild(el("p", { class: "help" },
        "cycles_used = union of the thread's busy intervals; utilization = cycles_used ÷ graph wall cycles. " +
        "tid 256 is the HMX thread and also the main sequencer: it carries all DMA and sync ops."));
      const grid = el("div", { class: "units" });
      for (const u of units) {
        const fill = el("div", { class: "fill" });
        fill.style.width = Math.min(Math.max(u.utilization_pct, 0), 100) + "%";
        append(grid, [el("span", { class: "mono" }, `${u.kind} ${u.tid}`),
          el("div", { class: "track", title: `${u.utilization_pct.toFixed(1)} %` }, fill),
          el("span", { class: "figure", "data-tid": u.tid },
            `${u.utilization_pct.toFixed(1)} % · ${groupDigits(u.cycles_used)} cycles used · ${groupDigits(u.slices)} slices`)]);
      }
      body.appendChild(grid);
    }
    body.appendChild(el("h3", null, "VTCM"));
    body.appendChild(el("p", null, "Peak VTCM allocation: ",
      el("strong", null, isNum(um.peak_vtcm_bytes) ? `${fmtBytes(um.peak_vtcm_bytes)} (${groupDigits(um.peak_vtcm_bytes)} bytes)` : "not available"),
      isNum(um.peak_vtcm_offset_cycles) ? ` at cycle ${groupDigits(um.peak_vtcm_offset_cycles)} since the first op` : ""));
    const counters = um.counters || [];
    const order = ["VTCM alloc", "DRAM read", "DRAM write", "VTCM read", "VTCM write"];
    counters.sort((a, b) => (order.indexOf(a.name) + 99) % 99 - (order.indexOf(b.name) + 99) % 99);
    if (counters.length)
      body.appendChild(el("p", { class: "help" },
        "Counter tracks of the optrace over the traced execution (x = cycles since the first op). " +
        "\"VTCM alloc\" is the running allocation; the read/write tracks are the bytes of the ops active at that cycle, not bandwidth. " +
        "Each pixel column shows the highest sample in it."));
    for (const c of counters) body.appendChild(counterChart(c, isNum(um.graph_wall_cycles) ? um.graph_wall_cycles : null));
    if (um.traffic) {
      const t = um.traffic;
      body.appendChild(el("h3", null, "DRAM and VTCM traffic (totals)"));
      body.appendChild(el("p", { class: "help" }, t.source));
      const dl = el("dl", { class: "kv" });
      for (const k of ["dram_read_bytes", "dram_write_bytes", "vtcm_read_bytes", "vtcm_write_bytes"])
        if (isNum(t[k])) append(dl, [el("dt", null, humanKey(k).replace(/ bytes$/, "")), el("dd", null, `${fmtBytes(t[k])} (${groupDigits(t[k])} bytes)`)]);
      body.appendChild(dl);
    }
  }
  function counterChart(c, wall) {
    const W = 1000, H = 115, L = 70, R = 10, T = 18, B = 22;
    const pts = c.points;
    const tMax = Math.max(wall || 0, pts.length ? pts[pts.length - 1][0] : 1, 1);
    const tMin = Math.min(0, pts.length ? pts[0][0] : 0);
    const vMax = Math.max(c.peak_bytes, 1);
    const X = (t) => L + (t - tMin) / (tMax - tMin) * (W - L - R);
    const Y = (v) => T + (1 - v / vMax) * (H - T - B);
    let d = `M${X(pts.length ? pts[0][0] : 0)},${Y(0)}`;
    let prev = 0;
    for (const p of pts) {
      const x = X(p[0]);
      d += ` L${x.toFixed(1)},${Y(prev).toFixed(1)} L${x.toFixed(1)},${Y(p[2]).toFixed(1)}`;
      prev = p[3];
      if (p[2] !== p[3]) d += ` L${(x + 0.5).toFixed(1)},${Y(p[3]).toFixed(1)}`;
    }
    d += ` L${X(tMax)},${Y(prev)} L${X(tMax)},${Y(0)} Z`;
    const chart = svg("svg", { class: "chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": c.name + " over time" });
    chart.appendChild(svg("text", { x: L, y: 12 }, `${c.name} — peak ${fmtBytes(c.peak_bytes)} (${groupDigits(c.peak_bytes)} bytes), ${groupDigits(c.samples)} samples`));
    chart.appendChild(svg("line", { class: "axis", x1: L, y1: Y(0), x2: W - R, y2: Y(0) }));
    chart.appendChild(svg("line", { class: "axis", x1: L, y1: T, x2: L, y2: Y(0) }));
    chart.appendChild(svg("text", { x: L - 6, y: T + 4, "text-anchor": "end" }, fmtBytes(vMax)));
    chart.appendChild(svg("text", { x: L - 6, y: Y(0), "text-anchor": "end" }, "0"));
    for (let k = 0; k <= 4; k++) {
      const t = tMin + (tMax - tMin) * k / 4;
      chart.appendChild(svg("text", { x: X(t), y: H - 6, "text-anchor": k === 0 ? "start" : k === 4 ? "end" : "middle" }, fmtShort(t)));
    }
    chart.appendChild(svg("path", { class: "area", d }));
    const peakPoint = pts.find((p) => p[2] === c.peak_bytes);
    if (peakPoint) {
      chart.appendChild(svg("line", { class: "peak", x1: X(peakPoint[0]), y1: T, x2: X(peakPoint[0]), y2: Y(0) }));
      chart.appendChild(svg("text", { class: "peak-label", x: X(peakPoint[0]) + 4, y: T + 10 }, `peak at ${fmtShort(peakPoint[0])}`));
    }
    return chart;
  }

  // ------------------------------------------------------------- tables
  function renderTables(body, tables) {
    for (const key of ["qnn_ops", "htp_op_types", "instances"]) {
      if (tables[key]) body.appendChild(makeTable(tables[key], key));
    }
    for (const [key, t] of Object.entries(tables))
      if (!["qnn_ops", "htp_op_types", "instances"].includes(key) && t && t.columns) body.appendChild(makeTable(t, key));
  }

  // ----------------------------------------- other analyses, generically
  // Renders any analysis JSON: scalars as a key/value list, arrays of
  // objects as sortable tables, {code, message} lists as warnings, nested
  // objects as sub-sections.  layout.order: keys drawn first, in that order;
  // layout.folded: keys drawn closed.  An object's "_truncated" ({key: total})
  // says which lists the report cut.
  function renderGeneric(body, value, depth, layout) {
    const lay = layout || {};
    if (value === null || typeof value !== "object") {
      body.appendChild(el("p", null, fmtTyped(value)));
      return;
    }
    if (Array.isArray(value)) { renderGenericArray(body, value, "items", depth, null, false); return; }
    const truncated = value._truncated || {};
    const dl = el("dl", { class: "kv" });
    const nested = [];
    for (const [k, v] of Object.entries(value)) {
      if (k === "_truncated") continue;
      if (v === null || typeof v !== "object") {
        append(dl, [el("dt", null, humanKey(k)), el("dd", null, typeOfKey(k) === "bytes" && isNum(v)
          ? `${fmtBytes(v)} (${groupDigits(v)} bytes)` : fmtTyped(v, typeOfKey(k)))]);
      } else if (Array.isArray(v) && v.every((x) => x === null || typeof x !== "object") &&
                 v.length <= 32 && !truncated[k]) {
        append(dl, [el("dt", null, humanKey(k)), el("dd", null, v.length ? v.map((x) => fmtTyped(x)).join(", ") : "none")]);
      } else nested.push([k, v]);
    }
    if (dl.children.length) body.appendChild(dl);
    const order = lay.order || [];
    const rank = (k) => (order.includes(k) ? order.indexOf(k) : order.length);
    nested.sort((a, b) => rank(a[0]) - rank(b[0]));
    for (const [k, v] of nested) {
      const folded = (lay.folded || []).includes(k);
      if (Array.isArray(v)) renderGenericArray(body, v, k, depth, truncated[k], folded);
      else {
        const sub = el("details", { class: "sub", open: depth < 2 && !folded, "data-key": k }, el("summary", null, humanKey(k)));
        renderGeneric(sub, v, depth + 1);
        body.appendChild(sub);
      }
    }
  }
  function renderGenericArray(body, arr, key, depth, total, folded) {
    const target = folded
      ? body.appendChild(el("details", { class: "sub", "data-key": key },
          el("summary", null, `${humanKey(key)} (${groupDigits(total || arr.length)})`)))
      : body;
    if (!arr.length) { target.appendChild(el("p", { class: "help" }, humanKey(key) + ": none")); return; }
    const note = total ? el("p", { class: "help" }, `The report keeps the first ${groupDigits(arr.length)} of ${groupDigits(total)}.`) : null;
    const objects = arr.every((x) => x && typeof x === "object" && !Array.isArray(x));
    if (objects && arr.every((x) => typeof x.message === "string" && (x.code || x.rule))) {
      target.appendChild(el("h3", null, `${humanKey(key)} (${groupDigits(total || arr.length)})`));
      const ul = el("ul", { class: "warnings" });
      for (const w of arr) ul.appendChild(el("li", { "data-code": w.code || w.rule }, el("span", { class: "code-badge" }, w.code || w.rule), w.message));
      append(target, [ul, note]);
      return;
    }
    if (objects) {
      const spec = tableFromObjects(arr, folded ? null : humanKey(key));
      if (total) spec.total_rows = total;
      spec.kept = "the first ones";
      target.appendChild(makeTable(spec, `${key}-${++tableCounter}`, { shareOff: true }));
      return;
    }
    if (arr.every((x) => x === null || typeof x !== "object")) {
      append(target, [el("p", { class: "mono" }, arr.map((x) => fmtTyped(x)).join(", ")), note]);
      return;
    }
    arr.forEach((v, i) => {
      const sub = el("details", { class: "sub", open: depth < 2 }, el("summary", null, `${humanKey(key)} ${i + 1}`));
      renderGeneric(sub, v, depth + 1);
      target.appendChild(sub);
    });
    if (note) target.appendChild(note);
  }
  const GRAPH_LAYOUT = {
    order: ["warnings", "shared_tensors", "critical_path", "what_if", "critical_path_vs_qhas", "dominant_path", "expect"],
    folded: ["nodes", "edges", "producer_map", "sources", "critical_path_vs_qhas", "dominant_path"],
  };


  // ----------------------------------------------------------- modules
  // An icicle of the model's own modules (docs/modules.md): one row per
  // depth, each module as wide as its share of its parent's time.  Click a
  // module to zoom into it; click the top bar to zoom out.
  function renderModules(body, m) {
    body.appendChild(el("p", { class: "help" },
      `Time: ${m.basis_label} (${m.time_unit}); from the ${m.source}. ` +
      "Click a module to zoom into it, the top bar to zoom out."));
    const byPath = new Map();
    for (const n of m.nodes) { n.kids = []; byPath.set(n.path, n); }
    for (const n of m.nodes) if (n.parent !== null && byPath.has(n.parent)) byPath.get(n.parent).kids.push(n);
    const root = byPath.get("");
    if (!root) return;
    const W = 1000, ROW = 24, MAX_ROWS = 10;
    const crumb = el("div", { class: "help", id: "modules-focus" });
    const holder = el("div", { class: "icicle" });
    body.append(crumb, holder);
    const palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f"];
    const colourOf = (n) => n.unplaced ? "#bab0ac" : palette[(n.depth + (n.block ? n.block.index : 0)) % palette.length];
    function draw(focus) {
      holder.replaceChildren();
      crumb.textContent = "Showing " + (focus.path || "(all)") + ": " + fmtNumber(focus.time) + " " + m.time_unit;
      const items = [];
      (function lay(n, x, w, d) {
        if (d >= MAX_ROWS || w < 0.5) return;
        items.push({ n, x, w, d });
        let cx = x;
        for (const k of n.kids) {
          const kw = n.time > 0 ? w * k.time / n.time : 0;
          lay(k, cx, kw, d + 1);
          cx += kw;
        }
      })(focus, 0, W, 0);
      const rows = items.reduce((a, it) => Math.max(a, it.d + 1), 1);
      const chart = svg("svg", { viewBox: `0 0 ${W} ${rows * ROW}`, width: "100%", role: "img",
                                 "aria-label": "module icicle" });
      for (const it of items) {
        const n = it.n;
        const g = svg("g", { class: "module", "data-path": n.path, cursor: "pointer" });
        g.appendChild(svg("rect", { x: it.x.toFixed(2), y: it.d * ROW, width: Math.max(0, it.w - 1).toFixed(2),
                                    height: ROW - 2, fill: colourOf(n) }));
        const name = it.d === 0 ? (n.path || "(all)") : n.name;
        if (it.w > 36) {
          const label = name.length * 7 > it.w - 6 ? name.slice(0, Math.max(1, Math.floor((it.w - 6) / 7) - 1)) + "…" : name;
          g.appendChild(svg("text", { x: (it.x + 4).toFixed(2), y: it.d * ROW + 16, fill: "#fff",
                                      "font-size": 12, "pointer-events": "none" }, label));
        }
        g.addEventListener("click", () => {
          if (n === focus) { if (n.parent !== null && byPath.has(n.parent)) draw(byPath.get(n.parent)); }
          else draw(n);
        });
        g.addEventListener("mousemove", (e) => {
          const top = n.top_ops && n.top_ops.length ? n.top_ops[0].name : "—";
          showTooltip(e.clientX, e.clientY, n.path || "(all)", [
            ["time", fmtNumber(n.time) + " " + m.time_unit],
            ["share", n.share_pct === null ? "—" : fmtNumber(n.share_pct, 1) + " %"],
            ["ops", fmtNumber(n.ops)],
            ["longest op", top],
          ], n.unplaced ? "ops whose names carry no module" : null);
        });
        g.addEventListener("mouseleave", hideTooltip);
        chart.appendChild(g);
      }
      holder.appendChild(chart);
    }
    draw(root);
    api.modulesZoom = (path) => { if (byPath.has(path)) draw(byPath.get(path)); };
    if (m.findings && m.findings.length) {
      body.appendChild(el("h3", null, "Blocks far from their siblings"));
      body.appendChild(el("ul", null, m.findings.map((f) => el("li", null,
        `${f.path}: ${fmtNumber(f.ratio_to_median, 2)} × its family's median (${f.finding})` +
        (f.same_structure ? "" : "; its ops differ from the others'")))));
    }
    for (const f of m.families || []) {
      const rows = f.blocks.map((b) => ({ block: b.path, time: b.time, ratio_to_median: b.ratio_to_median,
                                          ops: b.ops, finding: b.finding, same_structure: b.same_structure }));
      const spec = tableFromObjects(rows, `${f.parent ? f.parent + "/" : ""}${f.keyword}.N`,
        `median ${fmtNumber(f.median)}, min ${fmtNumber(f.min)}, max ${fmtNumber(f.max)} ${m.time_unit}; ` +
        (f.judged ? `${f.alike} alike: judged`
          : f.blocks.length < 3 ? "not judged: fewer than 3 blocks" : "not judged: no structure most blocks share"));
      body.appendChild(makeTable(spec, "modules-" + (tableCounter++)));
    }
  }

  // --------------------------------------------------- device profiles
  // An AI Hub or Genie profile or a runner's log given with the run: the
  // view the device-only page prints too (DeviceProfileViews in
  // device_profile_report.h), its headings, notes and tables in order.
  function renderDeviceProfile(body, view) {
    for (const b of view.blocks) {
      if (b.kind === "heading") body.appendChild(el("h3", null, b.text));
      else if (b.kind === "note") body.appendChild(el("p", { class: "help" }, b.text));
      else if (b.kind === "table")
        body.appendChild(makeTable(b.table, b.table.id, { share: b.table.share_column ? undefined : false }));
    }
  }

  // ----------------------------------------------------------- sections
  // One renderer per data-model key; a section is drawn only when its data
  // is present (heading: its title from the data, else title).  A new view
  // plugs in with one line here.
  const SECTIONS = [
    { key: "overview", title: "Overview", render: renderOverview },
    { key: "timeline", title: "Timeline", render: renderTimeline },
    { key: "tables", title: "Ops", render: renderTables },
    { key: "units_memory", title: "Units and memory", render: renderUnitsMemory },
    { key: "modules", title: "Modules", render: renderModules },
    { key: "aihub", title: "AI Hub profile", heading: (v) => v.title, render: renderDeviceProfile },
    { key: "genie", title: "Genie profile", heading: (v) => v.title, render: renderDeviceProfile },
    { key: "llm_runner", title: "LLM runner log", heading: (v) => v.title, render: renderDeviceProfile },
    { key: "graph", title: "Graph checks and critical path", render: (b, v) => renderGeneric(b, v, 0, GRAPH_LAYOUT) },
    { key: "lint", title: "Lint: main-thread bottlenecks", render: (b, v) => renderGeneric(b, v, 0) },
    { key: "memory", title: "Memory", render: (b, v) => renderGeneric(b, v, 0) },
    { key: "heap", title: "DSP heap", render: (b, v) => renderGeneric(b, v, 0) },
    { key: "numerics", title: "Numerics", render: (b, v) => renderGeneric(b, v, 0) },
    { key: "diff", title: "Diff", render: (b, v) => renderGeneric(b, v, 0) },
  ];
  const api = { model, sections: [] };
  window.htpscopeReport = api;

  document.getElementById("title").textContent = model.title || "htpscope report";
  const nav = document.getElementById("nav");
  const main = document.getElementById("sections");
  for (const s of SECTIONS) {
    const data = model[s.key];
    if (data === undefined || data === null) continue;
    const id = "section-" + s.key;
    const body = el("div", { class: "section-body" });
    const section = el("details", { class: "section", id, open: true, "data-section": s.key },
      el("summary", null, el("h2", null, s.heading ? s.heading(data) : s.title)), body);
    main.appendChild(section);
    nav.appendChild(el("a", { href: "#" + id }, s.title));
    api.sections.push(s.key);
    try {
      s.render(body, data);
    } catch (err) {
      body.appendChild(el("p", { class: "section-error" }, "This section could not be drawn: " + err.message));
      console.error(err);
    }
  }
  main.appendChild(el("footer", null, `htpscope report · schema ${model.schema || "?"} · works offline; no data leaves this file`));
  // Printing shows every section, opened.
  window.addEventListener("beforeprint", () => {
    for (const d of document.querySelectorAll("details")) d.open = true;
  });
})();
