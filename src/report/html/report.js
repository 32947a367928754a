// arenaplan's interactive report. Everything it shows comes from the JSON embedded in the page
// (#arenaplan-data): the documents `arenaplan plan / size / solve --format json` print, plus the
// operator list of `inspect --format json`. Drawing is on canvas with culling, so 62k buffers stay
// interactive: each frame walks the buffers once (O(n)), hover hit-tests them once (O(n)).
(function () {
  'use strict';

  const DATA = JSON.parse(document.getElementById('arenaplan-data').textContent);
  const PALETTE = ['#5b8def', '#3fb68b', '#e9a23b', '#a97bd8', '#e0677a', '#4bb3c9', '#8fb347', '#d9824a',
                   '#6d7fd1', '#c768a9', '#57a773', '#b89b3e'];
  const SCRATCH_COLOR = '#f2b84b';
  const FIXED_COLOR = '#98a2b3';

  // ---------------------------------------------------------------- helpers
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === 'class') e.className = v;
      else if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }
  function bytes(n) {
    if (n === null || n === undefined) return 'n/a';
    return Number(n).toLocaleString('en-US') + ' B';
  }
  function short(n) {
    const a = Math.abs(n);
    if (a >= 1 << 30) return (n / (1 << 30)).toFixed(a >= 10 * (1 << 30) ? 0 : 1) + 'G';
    if (a >= 1 << 20) return (n / (1 << 20)).toFixed(a >= 10 * (1 << 20) ? 0 : 1) + 'M';
    if (a >= 1 << 10) return (n / (1 << 10)).toFixed(a >= 10 * (1 << 10) ? 0 : 1) + 'K';
    return String(Math.round(n));
  }
  function gap(value, bound) {
    if (!(bound > 0)) return 'n/a';
    const g = 100 * (value - bound) / bound;
    return (g >= 0 ? '+' : '') + g.toFixed(1) + ' %';
  }
  function hashColor(id) {
    let h = 2166136261;
    for (let i = 0; i < id.length; ++i) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
    return PALETTE[(h >>> 0) % PALETTE.length];
  }
  function niceStep(span, count) {
    const raw = span / Math.max(1, count);
    const p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-9))));
    for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
    return 10 * p;
  }

  // ---------------------------------------------------------------- data
  // One plan in one shape, whether it came from `plan` (first/last inclusive) or `solve`
  // (MiniMalloc's lower/upper, upper exclusive).
  function normalizePlan(doc) {
    const fromSolve = doc.height !== undefined;
    const buffers = doc.buffers.map((b, i) => ({
      i, id: String(b.id), name: b.name !== undefined ? b.name : String(b.id), size: b.size,
      first: fromSolve ? b.lower : b.first, last: fromSolve ? b.upper - 1 : b.last, offset: b.offset,
      subgraph: b.subgraph !== undefined ? b.subgraph : null, tensor: b.tensor !== undefined ? b.tensor : null,
      fixed: !!b.fixed, color: '#000',
    }));
    const colors = [];
    const n = buffers.length;
    // Struct of arrays for the per-frame loops: start step, end step (exclusive), offset, end offset.
    const geo = { x0: new Float64Array(n), x1: new Float64Array(n), y0: new Float64Array(n), y1: new Float64Array(n),
                  color: new Uint8Array(n) };
    for (const b of buffers) {
      b.color = b.fixed ? FIXED_COLOR : b.id.startsWith('scratch') ? SCRATCH_COLOR : hashColor(b.id);
      let c = colors.indexOf(b.color);
      if (c < 0) { c = colors.length; colors.push(b.color); }
      geo.x0[b.i] = b.first; geo.x1[b.i] = b.last + 1; geo.y0[b.i] = b.offset; geo.y1[b.i] = b.offset + b.size;
      geo.color[b.i] = c;
    }
    geo.colors = colors;
    return {
      doc, buffers, geo, planner: doc.planner, chosen: doc.chosen_planner, status: doc.status,
      seconds: doc.seconds, nodes: doc.nodes, arena: fromSolve ? doc.height : doc.arena_bytes,
      lowerBound: doc.lower_bound_bytes, peak: doc.peak || null,
    };
  }

  // Live bytes over time as a step function: value[k] holds on [steps[k], steps[k + 1]).
  function liveCurve(buffers) {
    const delta = new Map();
    for (const b of buffers) {
      delta.set(b.first, (delta.get(b.first) || 0) + b.size);
      delta.set(b.last + 1, (delta.get(b.last + 1) || 0) - b.size);
    }
    const steps = Array.from(delta.keys()).sort((a, b) => a - b);
    const value = new Float64Array(steps.length);
    let live = 0, max = -1, at = 0;
    steps.forEach((t, k) => {
      live += delta.get(t);
      value[k] = live;
      if (live > max) { max = live; at = t; }
    });
    return { steps, value, max: Math.max(max, 0), at };
  }

  // Producer and readers of every tensor, from the operator list.
  function graphIndex(graph) {
    const producer = new Map(), readers = new Map();
    if (!graph) return { producer, readers, singleSubgraph: false };
    for (const sg of graph.subgraphs) {
      for (const op of sg.operators) {
        for (const t of op.outputs) producer.set(sg.index + ':' + t, op);
        for (const t of op.inputs) {
          if (t < 0) continue;
          const key = sg.index + ':' + t;
          if (!readers.has(key)) readers.set(key, []);
          readers.get(key).push(op);
        }
      }
    }
    return { producer, readers, singleSubgraph: graph.subgraphs.length === 1 };
  }

  // ---------------------------------------------------------------- one model
  class ModelView {
    constructor(entry, index, scale) {
      this.entry = entry;
      this.index = index;
      this.plans = entry.plans.map(normalizePlan);
      // One address range for every planner of the model (and for both models when two are
      // compared), so that heights compare by eye.
      this.scale = Math.max(scale, ...this.plans.map(p => p.arena));
      this.graph = entry.graph || null;
      this.gi = graphIndex(this.graph);
      this.current = 0;
      this.hover = -1;
      this.pinned = -1;
      this.highlight = new Set();
      this.stats = { drawn: 0, frameMs: 0 };
      this.frame = 0;
      this.root = el('section', { class: 'model', id: 'model-' + index });
      this.build();
      this.select(this.bestPlanIndex());
    }

    get plan() { return this.plans[this.current]; }

    bestPlanIndex() {
      let best = 0;
      this.plans.forEach((p, k) => { if (p.arena < this.plans[best].arena) best = k; });
      return best;
    }

    build() {
      const e = this.entry;
      this.root.append(el('h2', { text: e.name + (e.role ? '  (' + e.role + ')' : '') }));
      this.cards = el('div', { class: 'cards' });
      this.root.append(this.cards);
      this.root.append(this.buildPlannerTable());
      this.root.append(this.buildTimeline());
      this.details = el('div', { class: 'panel details', hidden: '' });
      this.root.append(this.details);
      this.peakPanel = el('div', { class: 'panel' });
      this.root.append(this.peakPanel);
      if (e.size) this.root.append(this.buildTail(e.size));
      if (this.graph) this.root.append(this.buildOpList());
    }

    buildPlannerTable() {
      const maxArena = Math.max(...this.plans.map(p => p.arena), 1);
      const rows = this.plans.map((p, k) => {
        const tr = el('tr', { class: 'selectable', onclick: () => this.select(k) },
          el('td', { text: p.planner + (p.chosen && p.chosen !== p.planner ? ' \u2192 ' + p.chosen : '') }),
          el('td', { class: 'num', text: bytes(p.arena) }),
          el('td', { class: 'num', text: gap(p.arena, p.lowerBound) }),
          el('td', { text: p.status }),
          el('td', { class: 'num', text: (p.seconds || 0).toFixed(3) + ' s' }),
          el('td', {}, el('span', { class: 'bar', style: 'width:' + (160 * p.arena / maxArena).toFixed(1) + 'px' })));
        tr.dataset.planner = p.planner;
        return tr;
      });
      this.plannerRows = rows;
      const lb = this.plans[0].lowerBound;
      return el('div', { class: 'panel' }, el('h3', { text: 'Planners side by side' }),
        el('table', {}, el('thead', {}, el('tr', {}, el('th', { text: 'planner' }), el('th', { class: 'num', text: 'arena (head)' }),
          el('th', { class: 'num', text: 'gap to bound' }), el('th', { text: 'status' }), el('th', { class: 'num', text: 'time' }),
          el('th', { text: 'lower bound ' + bytes(lb) }))), el('tbody', {}, ...rows)));
    }

    buildTimeline() {
      this.rangeLabel = el('span', { class: 'range' });
      this.search = el('input', { type: 'search', placeholder: 'find a tensor\u2026', 'aria-label': 'find a tensor' });
      this.search.addEventListener('input', () => this.find(this.search.value));
      this.search.addEventListener('keydown', ev => {
        if (ev.key === 'Enter' && this.highlight.size) this.pin(this.highlight.values().next().value, true);
      });
      const bar = el('div', { class: 'toolbar' },
        el('button', { text: 'reset zoom', onclick: () => this.resetView() }),
        el('button', { text: 'zoom to peak', onclick: () => this.zoomToPeak() }),
        this.search, this.rangeLabel);
      this.canvas = el('canvas', { class: 'timeline', 'aria-label': 'memory timeline: time across, address down' });
      this.curve = el('canvas', { class: 'curve', 'aria-label': 'live bytes over time' });
      this.marker = el('div', { class: 'peak-marker' }, el('span', { class: 'label' }));
      this.dot = el('div', { class: 'peak-dot' });
      this.plot = el('div', { class: 'plot' }, this.canvas, this.curve, this.marker, this.dot);
      this.attachInput();
      return el('div', { class: 'panel' }, el('h3', { text: 'Memory timeline (time across, arena address down)' }), bar, this.plot);
    }

    buildTail(size) {
      const panel = el('div', { class: 'panel tail' }, el('h3', { text: 'Stock TFLM on ' + size.target + ' (planner ' + size.planner + ')' }));
      if (!size.allocates) {
        panel.append(el('p', { class: 'error', text: 'TFLM cannot allocate this model: ' + (size.error || '') }));
        return panel;
      }
      const cards = el('div', { class: 'cards' });
      const card = (label, value) => cards.append(el('div', { class: 'card' }, el('b', { text: bytes(value) }), el('span', { text: label })));
      card('head (planned tensors + scratch)', size.head_bytes);
      card('tail (persistent)', size.tail_bytes);
      card('arena_used_bytes', size.arena_used_bytes);
      card('smallest working arena', size.min_arena_bytes);
      panel.append(cards);
      if (!size.supported) panel.append(el('p', { class: 'error', text: 'Invoke fails: ' + (size.error || '') }));
      const cats = Object.entries(size.tail_breakdown || {});
      const maxCat = Math.max(1, ...cats.map(c => c[1]));
      panel.append(el('table', { class: 'tail-categories' }, el('thead', {}, el('tr', {}, el('th', { text: 'tail category' }),
        el('th', { class: 'num', text: 'bytes' }), el('th', { text: '' }))),
        el('tbody', {}, ...cats.map(([name, b]) => el('tr', {}, el('td', { text: name }), el('td', { class: 'num', text: bytes(b) }),
          el('td', {}, el('span', { class: 'bar', style: 'width:' + (160 * b / maxCat).toFixed(1) + 'px' })))))));
      const ops = (size.ops || []).slice().sort((a, b) => (b.option_bytes + b.kernel_bytes) - (a.option_bytes + a.kernel_bytes));
      const opsTable = el('table', {}, el('thead', {}, el('tr', {}, el('th', { text: 'op' }), el('th', { text: 'kernel' }),
        el('th', { class: 'num', text: 'option struct' }), el('th', { class: 'num', text: 'kernel data' }), el('th', { class: 'num', text: 'total' }))),
        el('tbody', {}, ...ops.map(o => el('tr', {}, el('td', { class: 'mono', text: (o.subgraph ? 's' + o.subgraph + ' ' : '') + 'op ' + o.op }),
          el('td', { text: o.name }), el('td', { class: 'num', text: bytes(o.option_bytes) }),
          el('td', { class: 'num', text: bytes(o.kernel_bytes) }), el('td', { class: 'num', text: bytes(o.option_bytes + o.kernel_bytes) })))));
      panel.append(el('details', {}, el('summary', { text: 'tail per op (' + ops.length + ' ops, largest first)' }),
        el('div', { class: 'scroll' }, opsTable)));
      return panel;
    }

    buildOpList() {
      const total = this.graph.subgraphs.reduce((n, sg) => n + sg.operators.length, 0);
      const body = el('div', { class: 'scroll' });
      const box = el('details', { class: 'panel oplist' }, el('summary', { text: 'Graph: ' + total + ' ops (inputs \u2192 outputs link to their buffers)' }), body);
      box.addEventListener('toggle', () => { if (box.open && !body.firstChild) body.append(this.opTable()); });
      this.opListBox = box;
      return box;
    }

    opTable() {
      const byTensor = new Map(this.plan.buffers.filter(b => b.tensor !== null).map(b => [b.subgraph + ':' + b.tensor, b]));
      const link = (sg, t) => {
        if (t < 0) return el('span', { class: 'muted', text: '-' });
        const tensor = sg.tensors[t];
        const name = tensor ? tensor.name : 't' + t;
        const b = byTensor.get(sg.index + ':' + t);
        if (!b) return el('span', { class: 'muted', title: tensor && tensor.constant ? 'constant (flash)' : 'not planned', text: name });
        return el('a', { class: 'buf', 'data-buffer': b.id, title: b.id + ', ' + bytes(b.size), text: name,
                         onclick: () => this.pin(b.i, true) });
      };
      const list = (sg, ts) => {
        const span = el('span', {});
        ts.forEach((t, k) => { if (k) span.append(', '); span.append(link(sg, t)); });
        return span;
      };
      const rows = [];
      for (const sg of this.graph.subgraphs) {
        for (const op of sg.operators) {
          rows.push(el('tr', { id: 'm' + this.index + '-op-' + sg.index + '-' + op.index },
            el('td', { class: 'mono', text: (this.graph.subgraphs.length > 1 ? 's' + sg.index + ' ' : '') + 'op ' + op.index }),
            el('td', { text: op.op }), el('td', {}, list(sg, op.inputs)), el('td', {}, list(sg, op.outputs))));
        }
      }
      return el('table', {}, el('thead', {}, el('tr', {}, el('th', { text: 'op' }), el('th', { text: 'kernel' }),
        el('th', { text: 'inputs' }), el('th', { text: 'outputs' }))), el('tbody', {}, ...rows));
    }

    // ------------------------------------------------------------ state
    select(k) {
      this.current = k;
      this.plannerRows.forEach((tr, j) => tr.classList.toggle('current', j === k));
      const p = this.plan;
      this.curveData = liveCurve(p.buffers);
      this.hover = -1;
      if (this.pinned >= p.buffers.length) this.pinned = -1;
      this.fillCards();
      this.fillPeak();
      if (this.opListBox && this.opListBox.open) {
        const body = this.opListBox.querySelector('.scroll');
        body.replaceChildren(this.opTable());
      }
      if (!this.view) this.resetView(); else this.draw();
      this.showDetails();
    }

    fillCards() {
      const p = this.plan;
      const card = (label, value) => el('div', { class: 'card' }, el('b', { text: value }), el('span', { text: label }));
      this.cards.replaceChildren(
        card('arena (' + (p.chosen || p.planner) + ')', bytes(p.arena)),
        card('lower bound (max live bytes)', bytes(p.lowerBound)),
        card('gap to bound', gap(p.arena, p.lowerBound)),
        card('planned buffers', p.buffers.length.toLocaleString('en-US')),
        card('peak step', p.peak ? String(p.peak.step) : 'n/a'));
    }

    fillPeak() {
      const p = this.plan;
      this.peakPanel.replaceChildren();
      if (!p.peak) return;
      const live = p.buffers.filter(b => b.first <= p.peak.step && p.peak.step <= b.last).sort((a, b) => b.size - a.size);
      const total = p.peak.live_bytes;
      const shown = live.slice(0, 200);
      const rows = shown.map(b => {
        const tr = el('tr', { class: 'selectable', onclick: () => this.pin(b.i, true),
                              onmouseenter: () => { this.highlight = new Set([b.i]); this.draw(); },
                              onmouseleave: () => { this.highlight = new Set(); this.draw(); } },
          el('td', { class: 'mono', text: b.id }), el('td', { text: b.name }), el('td', { class: 'num', text: bytes(b.size) }),
          el('td', { class: 'num', text: (100 * b.size / Math.max(1, total)).toFixed(1) + ' %' }),
          el('td', {}, el('span', { class: 'bar', style: 'width:' + (120 * b.size / Math.max(1, total)).toFixed(1) + 'px' })),
          el('td', { class: 'mono', text: '[' + b.first + ', ' + b.last + ']' }));
        return tr;
      });
      this.peakPanel.append(el('h3', { text: 'Alive at the peak: step ' + p.peak.step + ', ' + bytes(total) + ' in ' + live.length + ' buffers' +
                                              (live.length > shown.length ? ' (largest ' + shown.length + ' shown)' : '') }),
        el('div', { class: 'scroll' }, el('table', { class: 'peak-list' }, el('thead', {}, el('tr', {}, el('th', { text: 'id' }),
          el('th', { text: 'name' }), el('th', { class: 'num', text: 'size' }), el('th', { class: 'num', text: 'share' }),
          el('th', { text: '' }), el('th', { text: 'lifetime' }))), el('tbody', {}, ...rows))));
    }

    find(text) {
      const q = text.trim().toLowerCase();
      this.highlight = new Set();
      if (q) this.plan.buffers.forEach(b => { if (b.name.toLowerCase().includes(q) || b.id.toLowerCase() === q) this.highlight.add(b.i); });
      this.draw();
    }

    pin(i, reveal) {
      this.pinned = i;
      if (reveal && i >= 0) this.reveal(this.plan.buffers[i]);
      this.showDetails();
      this.draw();
    }

    describe(b, container) {
      const rows = [['id', b.id], ['size', bytes(b.size)], ['offset', bytes(b.offset) + ' \u2026 ' + bytes(b.offset + b.size)],
                    ['lifetime', 'steps ' + b.first + ' \u2026 ' + b.last + ' (' + (b.last - b.first + 1) + ')']];
      if (b.tensor !== null) {
        const key = b.subgraph + ':' + b.tensor;
        const prod = this.gi.producer.get(key);
        const rd = this.gi.readers.get(key) || [];
        rows.push(['produced by', prod ? 'op ' + prod.index + ' ' + prod.op : 'model input / none']);
        rows.push(['read by', rd.length ? rd.slice(0, 12).map(o => 'op ' + o.index + ' ' + o.op).join(', ') + (rd.length > 12 ? ', \u2026' : '') : 'none']);
      }
      if (b.fixed) rows.push(['placement', 'fixed (offline plan)']);
      container.replaceChildren(el('div', { class: 'name', text: b.name }),
        el('dl', { class: 'kv' }, ...rows.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: v })])));
    }

    showDetails() {
      if (this.pinned < 0) { this.details.hidden = true; return; }
      const b = this.plan.buffers[this.pinned];
      const body = el('div', {});
      this.describe(b, body);
      this.details.replaceChildren(el('h3', { text: 'Pinned buffer (click elsewhere on the timeline to unpin)' }), body);
      this.details.hidden = false;
    }

    // ------------------------------------------------------------ geometry
    extent() {
      const p = this.plan;
      let t0 = Infinity, t1 = -Infinity;
      for (const b of p.buffers) { if (b.first < t0) t0 = b.first; if (b.last > t1) t1 = b.last; }
      if (!isFinite(t0)) { t0 = 0; t1 = 1; }
      return { x0: t0, x1: t1 + 1, y0: 0, y1: Math.max(this.scale, p.arena, 1) };
    }
    resetView() { this.view = this.extent(); this.layout(); }
    zoomToPeak() {
      const p = this.plan;
      if (!p.peak) return;
      const e = this.extent(), span = Math.max(8, (e.x1 - e.x0) / 20);
      this.view = { x0: p.peak.step + 0.5 - span / 2, x1: p.peak.step + 0.5 + span / 2, y0: e.y0, y1: e.y1 };
      this.draw();
    }
    reveal(b) {
      const v = this.view, w = v.x1 - v.x0, h = v.y1 - v.y0;
      if (b.first < v.x0 || b.last + 1 > v.x1) { const c = (b.first + b.last + 1) / 2; v.x0 = c - w / 2; v.x1 = c + w / 2; }
      if (b.offset < v.y0 || b.offset + b.size > v.y1) { const c = b.offset + b.size / 2; v.y0 = c - h / 2; v.y1 = c + h / 2; }
      this.canvas.scrollIntoView({ block: 'nearest' });
    }

    layout() {
      const width = Math.max(320, Math.floor(this.plot.clientWidth || 800));
      const dpr = window.devicePixelRatio || 1;
      this.dpr = dpr;
      this.box = { left: 64, right: 10, top: 8, bottom: 6, w: width, h: 420, ch: 150, cbottom: 22 };
      for (const [c, h] of [[this.canvas, this.box.h], [this.curve, this.box.ch]]) {
        c.width = Math.round(width * dpr);
        c.height = Math.round(h * dpr);
        c.style.height = h + 'px';
        c.getContext('2d').setTransform(dpr, 0, 0, dpr, 0, 0);
      }
      this.draw();
    }

    px(x) { const b = this.box, v = this.view; return b.left + (x - v.x0) / (v.x1 - v.x0) * (b.w - b.left - b.right); }
    py(y) { const b = this.box, v = this.view; return b.top + (y - v.y0) / (v.y1 - v.y0) * (b.h - b.top - b.bottom); }
    wx(px) { const b = this.box, v = this.view; return v.x0 + (px - b.left) / (b.w - b.left - b.right) * (v.x1 - v.x0); }
    wy(py) { const b = this.box, v = this.view; return v.y0 + (py - b.top) / (b.h - b.top - b.bottom) * (v.y1 - v.y0); }
    cy(bytesValue) { const b = this.box; return b.ch - b.cbottom - bytesValue / this.curveMax() * (b.ch - b.cbottom - 8); }
    curveMax() { return Math.max(this.scale, this.plan.arena, this.curveData.max, 1); }

    // The pixel rectangle of a buffer as drawn (at least 1 x 1 px so that nothing disappears).
    pixelRect(b) {
      const x0 = this.px(b.first), x1 = this.px(b.last + 1), y0 = this.py(b.offset), y1 = this.py(b.offset + b.size);
      return { x: x0, y: y0, w: Math.max(1, x1 - x0), h: Math.max(1, y1 - y0) };
    }

    // ------------------------------------------------------------ drawing
    draw() {
      if (!this.box || this.frame) return;
      this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
    }

    render() {
      const t0 = performance.now();
      this.renderTimeline();
      this.renderCurve();
      this.placeMarker();
      const v = this.view;
      this.rangeLabel.textContent = 'steps ' + Math.max(0, Math.floor(v.x0)) + '\u2013' + Math.ceil(v.x1) +
        ', addresses ' + short(Math.max(0, v.y0)) + '\u2013' + short(v.y1);
      this.stats.frameMs = performance.now() - t0;
    }

    renderTimeline() {
      const ctx = this.canvas.getContext('2d'), box = this.box, v = this.view, p = this.plan;
      ctx.clearRect(0, 0, box.w, box.h);
      ctx.save();
      ctx.beginPath();
      ctx.rect(box.left, box.top, box.w - box.left - box.right, box.h - box.top - box.bottom);
      ctx.clip();
      const drawn = this.rasterize(ctx);
      this.stats.drawn = drawn;
      this.strokeBuffers(ctx, this.highlight, '#101828', 2);
      if (this.hover >= 0) this.strokeBuffers(ctx, [this.hover], '#101828', 2);
      if (this.pinned >= 0) this.strokeBuffers(ctx, [this.pinned], '#f79009', 3);
      // The arena's end and the lower bound.
      this.hline(ctx, this.py(p.arena), '#344054', [], 'arena ' + short(p.arena), 'right');
      if (p.lowerBound !== p.arena) this.hline(ctx, this.py(p.lowerBound), '#12b76a', [6, 4], 'lower bound ' + short(p.lowerBound), 'left');
      ctx.restore();
      this.axisY(ctx);
    }

    // Fills every visible buffer straight into the pixels of the plot area (device pixels, snapped,
    // at least 1 x 1): valid plans do not overlap, so the work is bounded by the plot's area plus one
    // pixel per buffer, whatever the count. Then outlines the buffers big enough to show one.
    rasterize(ctx) {
      const box = this.box, v = this.view, p = this.plan, g = p.geo, n = p.buffers.length, dpr = this.dpr;
      const left = Math.round(box.left * dpr), top = Math.round(box.top * dpr);
      const W = Math.max(1, Math.round((box.w - box.right) * dpr) - left), H = Math.max(1, Math.round((box.h - box.bottom) * dpr) - top);
      if (!this.image || this.image.width !== W || this.image.height !== H) {
        this.image = ctx.createImageData(W, H);
        this.pixels = new Uint32Array(this.image.data.buffer);
      }
      const px = this.pixels;
      px.fill(0);
      const rgba = g.colors.map(c => { const k = parseInt(c.slice(1), 16); return (0xff << 24 | (k & 0xff) << 16 | (k & 0xff00) | (k >> 16)) >>> 0; });
      const sx = W / (v.x1 - v.x0), sy = H / (v.y1 - v.y0);
      const outline = new Path2D();
      let drawn = 0, outlined = 0;
      for (let i = 0; i < n; ++i) {
        if (g.x1[i] < v.x0 || g.x0[i] > v.x1 || g.y1[i] < v.y0 || g.y0[i] > v.y1) continue;
        ++drawn;
        const fx0 = (g.x0[i] - v.x0) * sx, fx1 = (g.x1[i] - v.x0) * sx, fy0 = (g.y0[i] - v.y0) * sy, fy1 = (g.y1[i] - v.y0) * sy;
        let x0 = Math.round(fx0), x1 = Math.max(x0 + 1, Math.round(fx1)), y0 = Math.round(fy0), y1 = Math.max(y0 + 1, Math.round(fy1));
        if (x1 - x0 > 4 * dpr && y1 - y0 > 4 * dpr && outlined < 20000) {
          outline.rect(box.left + x0 / dpr + 0.5, box.top + y0 / dpr + 0.5, (x1 - x0) / dpr - 1, (y1 - y0) / dpr - 1);
          ++outlined;
        }
        x0 = Math.max(0, x0); x1 = Math.min(W, x1); y0 = Math.max(0, y0); y1 = Math.min(H, y1);
        const c = rgba[g.color[i]];
        for (let y = y0; y < y1; ++y) px.fill(c, y * W + x0, y * W + x1);
      }
      ctx.putImageData(this.image, left, top);
      ctx.strokeStyle = 'rgba(255,255,255,0.8)';
      ctx.lineWidth = 1;
      ctx.stroke(outline);
      return drawn;
    }

    strokeBuffers(ctx, indices, color, width) {
      ctx.strokeStyle = color;
      ctx.lineWidth = width;
      let k = 0;
      for (const i of indices) {
        if (++k > 5000) break;  // a search matching everything must not stall the frame
        const r = this.pixelRect(this.plan.buffers[i]);
        ctx.strokeRect(r.x - width / 2, r.y - width / 2, r.w + width, r.h + width);
      }
    }

    hline(ctx, y, color, dash, label, side) {
      const box = this.box;
      if (y < box.top || y > box.h) return;
      ctx.save();
      ctx.strokeStyle = color;
      ctx.setLineDash(dash);
      ctx.beginPath();
      ctx.moveTo(box.left, y);
      ctx.lineTo(box.w - box.right, y);
      ctx.stroke();
      ctx.fillStyle = color;
      ctx.font = '11px system-ui, sans-serif';
      ctx.textAlign = side;
      ctx.fillText(label, side === 'left' ? box.left + 4 : box.w - box.right - 4, y - 3);
      ctx.restore();
    }

    axisY(ctx) {
      const box = this.box, v = this.view;
      ctx.fillStyle = '#667085';
      ctx.font = '11px system-ui, sans-serif';
      ctx.textAlign = 'right';
      const step = niceStep(v.y1 - v.y0, 8);
      for (let y = Math.ceil(v.y0 / step) * step; y <= v.y1; y += step) {
        const py = this.py(y);
        ctx.fillText(short(y), box.left - 6, py + 4);
        ctx.fillRect(box.left - 3, py, 3, 1);
      }
    }

    renderCurve() {
      const ctx = this.curve.getContext('2d'), box = this.box, c = this.curveData, p = this.plan, v = this.view;
      const bottom = box.ch - box.cbottom, right = box.w - box.right;
      ctx.clearRect(0, 0, box.w, box.ch);
      ctx.save();
      ctx.beginPath();
      ctx.rect(box.left, 0, right - box.left, bottom);
      ctx.clip();
      // One column per pixel: the largest value whose segment touches it (a peak is never lost).
      const cols = Math.ceil(right - box.left) + 1;
      const colMax = new Float64Array(cols).fill(-1);
      for (let k = 0; k < c.steps.length; ++k) {
        const a = c.steps[k], b = k + 1 < c.steps.length ? c.steps[k + 1] : a + 1;
        if (b < v.x0 || a > v.x1) continue;
        const c0 = Math.max(0, Math.floor(this.px(a) - box.left)), c1 = Math.min(cols - 1, Math.ceil(this.px(b) - box.left) - 1);
        for (let q = c0; q <= Math.max(c0, c1); ++q) if (c.value[k] > colMax[q]) colMax[q] = c.value[k];
      }
      ctx.fillStyle = 'rgba(31,111,235,0.25)';
      ctx.strokeStyle = '#1f6feb';
      ctx.beginPath();
      ctx.moveTo(box.left, bottom);
      for (let q = 0; q < cols; ++q) {
        const y = colMax[q] < 0 ? bottom : this.cy(colMax[q]);
        ctx.lineTo(box.left + q, y);
        ctx.lineTo(box.left + q + 1, y);
      }
      ctx.lineTo(right, bottom);
      ctx.closePath();
      ctx.fill();
      ctx.stroke();
      ctx.restore();
      ctx.save();
      ctx.setLineDash([6, 4]);
      ctx.strokeStyle = '#12b76a';
      ctx.beginPath();
      ctx.moveTo(box.left, this.cy(p.lowerBound));
      ctx.lineTo(right, this.cy(p.lowerBound));
      ctx.stroke();
      ctx.restore();
      ctx.fillStyle = '#12b76a';
      ctx.font = '11px system-ui, sans-serif';
      ctx.fillText('lower bound ' + short(p.lowerBound), box.left + 4, Math.max(10, this.cy(p.lowerBound) - 3));
      // Axes: bytes at the left, time steps at the bottom.
      ctx.fillStyle = '#667085';
      ctx.textAlign = 'right';
      ctx.fillText(short(this.curveMax()), box.left - 6, 12);
      ctx.fillText('0', box.left - 6, bottom);
      ctx.textAlign = 'center';
      const step = Math.max(1, niceStep(v.x1 - v.x0, 10));
      for (let t = Math.ceil(v.x0 / step) * step; t <= v.x1; t += step) {
        const x = this.px(t + 0.5);
        if (x < box.left || x > right) continue;
        ctx.fillRect(x, bottom, 1, 3);
        ctx.fillText(String(t), x, bottom + 14);
      }
      ctx.textAlign = 'left';
      ctx.fillText('step', 4, bottom + 14);
      ctx.save();
      ctx.translate(12, bottom / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = 'center';
      ctx.fillText('live bytes', 0, 0);
      ctx.restore();
    }

    // The peak marker: a DOM element over both canvases at the plan's peak step (centre of the
    // step's column) and peak live bytes, carrying the figures as data attributes.
    placeMarker() {
      const p = this.plan;
      if (!p.peak) { this.marker.hidden = true; this.dot.hidden = true; return; }
      const x = this.px(p.peak.step + 0.5);
      const visible = x >= this.box.left && x <= this.box.w - this.box.right;
      this.marker.hidden = this.dot.hidden = !visible;
      const top = this.canvas.offsetTop, curveTop = this.curve.offsetTop;
      this.marker.style.left = x + 'px';
      this.marker.style.top = top + 'px';
      this.marker.style.height = (curveTop + this.box.ch - this.box.cbottom - top) + 'px';
      this.marker.dataset.step = p.peak.step;
      this.marker.dataset.bytes = p.peak.live_bytes;
      this.marker.firstChild.textContent = 'peak: step ' + p.peak.step + ', ' + bytes(p.peak.live_bytes);
      this.dot.style.left = x + 'px';
      this.dot.style.top = (curveTop + this.cy(p.peak.live_bytes)) + 'px';
    }

    // ------------------------------------------------------------ input
    // The buffer under the mouse: the one whose true rectangle contains the point, else the smallest
    // of those drawn within 1 px of it (small buffers are drawn 1 px wide or high). O(n).
    hitTest(mx, my) {
      const x = this.wx(mx), y = this.wy(my), g = this.plan.geo, n = this.plan.buffers.length;
      for (let i = 0; i < n; ++i) {
        if (g.x0[i] <= x && x < g.x1[i] && g.y0[i] <= y && y < g.y1[i]) return i;
      }
      const tx0 = this.wx(mx - 2), tx1 = this.wx(mx + 2), ty0 = this.wy(my - 2), ty1 = this.wy(my + 2);
      let best = -1, bestArea = Infinity;
      for (let i = 0; i < n; ++i) {
        if (g.x1[i] < tx0 || g.x0[i] > tx1 || g.y1[i] < ty0 || g.y0[i] > ty1) continue;
        const r = this.pixelRect(this.plan.buffers[i]);
        if (mx >= r.x - 1 && mx <= r.x + r.w + 1 && my >= r.y - 1 && my <= r.y + r.h + 1 && r.w * r.h < bestArea) {
          best = i;
          bestArea = r.w * r.h;
        }
      }
      return best;
    }

    attachInput() {
      const tip = document.getElementById('tooltip');
      let drag = null;
      const local = (ev, c) => { const r = c.getBoundingClientRect(); return { x: ev.clientX - r.left, y: ev.clientY - r.top }; };
      const onMove = (ev, c) => {
        const m = local(ev, c);
        if (drag) {
          const v = this.view, dx = (m.x - drag.x) / (this.box.w - this.box.left - this.box.right) * (v.x1 - v.x0);
          v.x0 -= dx; v.x1 -= dx;
          if (c === this.canvas) {
            const dy = (m.y - drag.y) / (this.box.h - this.box.top - this.box.bottom) * (v.y1 - v.y0);
            v.y0 -= dy; v.y1 -= dy;
          }
          drag.x = m.x; drag.y = m.y; drag.moved = true;
          tip.hidden = true;
          this.draw();
          return;
        }
        if (c !== this.canvas) return;
        const i = this.hitTest(m.x, m.y);
        if (i !== this.hover) { this.hover = i; this.draw(); }
        if (i < 0) { tip.hidden = true; return; }
        this.describe(this.plan.buffers[i], tip);
        tip.hidden = false;
        const w = tip.offsetWidth, h = tip.offsetHeight;
        tip.style.left = Math.min(ev.clientX + 14, window.innerWidth - w - 4) + 'px';
        tip.style.top = (ev.clientY + 14 + h > window.innerHeight ? ev.clientY - h - 8 : ev.clientY + 14) + 'px';
      };
      for (const c of [this.canvas, this.curve]) {
        c.addEventListener('pointerdown', ev => { const m = local(ev, c); drag = { x: m.x, y: m.y, moved: false }; c.setPointerCapture(ev.pointerId); });
        c.addEventListener('pointermove', ev => onMove(ev, c));
        c.addEventListener('pointerup', ev => {
          const moved = drag && drag.moved;
          drag = null;
          if (!moved && c === this.canvas) { const m = local(ev, c); this.pin(this.hitTest(m.x, m.y), false); }
        });
        c.addEventListener('pointerleave', () => { if (!drag) { tip.hidden = true; if (this.hover >= 0) { this.hover = -1; this.draw(); } } });
        c.addEventListener('dblclick', () => this.resetView());
        c.addEventListener('wheel', ev => {
          ev.preventDefault();
          const m = local(ev, c), f = Math.pow(1.0015, ev.deltaY), v = this.view;
          if (ev.shiftKey && c === this.canvas) {
            const y = this.wy(m.y), h = Math.max(16, (v.y1 - v.y0) * f);
            const k = (y - v.y0) / (v.y1 - v.y0);
            v.y0 = y - k * h; v.y1 = v.y0 + h;
          } else {
            const x = this.wx(m.x), w = Math.max(1, (v.x1 - v.x0) * f);
            const k = (x - v.x0) / (v.x1 - v.x0);
            v.x0 = x - k * w; v.x1 = v.x0 + w;
          }
          this.draw();
        }, { passive: false });
      }
    }

    // ------------------------------------------------------------ for checks and scripts
    // Viewport coordinates of the centre of buffer i's rectangle (after scrolling it into view).
    bufferClientCenter(i) {
      const r = this.pixelRect(this.plan.buffers[i]), c = this.canvas.getBoundingClientRect();
      return { x: c.left + r.x + r.w / 2, y: c.top + r.y + r.h / 2 };
    }
    // What the page shows, read back from the drawing: the marker's figures and the step and bytes
    // its pixel position stands for (so a check can compare them with `plan --format json`).
    summary() {
      const p = this.plan, m = this.marker, c = this.curveData, box = this.box;
      const plotH = box.ch - box.cbottom - 8;
      const markerX = m.getBoundingClientRect().left - this.canvas.getBoundingClientRect().left;
      const dotY = this.dot.getBoundingClientRect().top + this.dot.offsetHeight / 2 - this.curve.getBoundingClientRect().top;
      return {
        model: this.entry.name, planner: p.planner, buffers: p.buffers.length, drawn: this.stats.drawn,
        arena: p.arena, lower_bound: p.lowerBound, frame_ms: this.stats.frameMs,
        marker: { step: Number(m.dataset.step), bytes: Number(m.dataset.bytes), hidden: m.hidden,
                  step_at_x: Math.floor(this.wx(markerX)), steps_per_px: (this.view.x1 - this.view.x0) / (box.w - box.left - box.right),
                  bytes_at_dot: Math.round((box.ch - box.cbottom - dotY) / plotH * this.curveMax()),
                  bytes_per_px: this.curveMax() / plotH },
        curve_peak: { step: c.at, bytes: c.max },
      };
    }
  }

  // ---------------------------------------------------------------- page
  function main() {
    const app = document.getElementById('app');
    const entries = DATA.models || [];
    document.getElementById('subtitle').textContent = entries.map(e => e.name).join('  vs  ');
    // With two models (original and optimized) both timelines share one address scale.
    const scale = entries.length > 1 ? Math.max(...entries.flatMap(e => e.plans.map(p => p.arena_bytes !== undefined ? p.arena_bytes : p.height))) : 0;
    if (entries.length > 1) app.append(compareTable(entries));
    const grid = el('div', { class: 'models' + (entries.length === 2 ? ' two' : '') });
    app.append(grid);
    const views = entries.map((e, k) => new ModelView(e, k, scale));
    views.forEach(v => grid.append(v.root));
    views.forEach(v => v.layout());
    window.addEventListener('resize', () => views.forEach(v => v.layout()));
    window.arenaplanReport = { data: DATA, views, summary: () => views.map(v => v.summary()) };
    requestAnimationFrame(() => requestAnimationFrame(() => { document.body.dataset.ready = '1'; }));
  }

  function compareTable(entries) {
    const rows = entries.map(e => {
      const plans = e.plans.map(normalizePlan);
      const best = plans.reduce((a, b) => (b.arena < a.arena ? b : a));
      const tflm = e.size && e.size.allocates ? e.size.min_arena_bytes : null;
      return el('tr', {}, el('td', { text: (e.role ? e.role + ': ' : '') + e.name }), el('td', { class: 'num', text: bytes(best.arena) }),
        el('td', { class: 'num', text: bytes(best.lowerBound) }), el('td', { class: 'num', text: tflm === null ? 'n/a' : bytes(tflm) }));
    });
    return el('div', { class: 'panel' }, el('h3', { text: 'Side by side' }), el('table', {}, el('thead', {}, el('tr', {},
      el('th', { text: 'model' }), el('th', { class: 'num', text: 'lowest arena (head)' }), el('th', { class: 'num', text: 'lower bound' }),
      el('th', { class: 'num', text: 'TFLM smallest arena' }))), el('tbody', {}, ...rows)));
  }

  main();
})();
