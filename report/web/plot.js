// rooftop report, part 1 of 2: what every chart and table is drawn with. Plain DOM and
// SVG, no library. Text from the data is only ever set as text (textContent, text
// nodes, attribute values), never parsed as markup; styles only through classes and the
// CSSOM, which the page's Content-Security-Policy allows.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2',
  '#17becf'];
// Kernel colours: the palette without its red, which flags points above a ceiling.
const KERNEL_COLORS = [0, 2, 3, 4, 5, 6, 7].map((i) => PALETTE[i]);

// An SVG element with attributes, appended to `parent` where given.
function svg(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

// An HTML element with attributes and text, appended to `parent` where given.
function html(tag, attrs, text, parent) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (parent) parent.appendChild(e);
  return e;
}

// SVG text at (x, y).
function label(parent, x, y, text, attrs) {
  const t = svg('text', Object.assign({x: x, y: y}, attrs || {}), parent);
  t.textContent = text;
  return t;
}

// Numbers as the tables print them: `digits` significant digits; integers (FLOPs,
// bytes) whole, with thousands separators.
function sig(v, digits) {
  if (v === null || v === undefined || !isFinite(v)) return '-';
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e-4 && a < 1e15) return String(Number(v.toPrecision(digits || 4)));
  return v.toExponential((digits || 4) - 1);
}
function whole(v) {
  if (v === null || v === undefined || !isFinite(v)) return '-';
  if (!Number.isInteger(v) || Math.abs(v) >= 1e21) return sig(v, 6);
  return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
function bytesText(v) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (v >= 1024 && i + 1 < units.length) v /= 1024, i++;
  return String(Number(v.toPrecision(3))) + ' ' + units[i];
}
function intensityText(x) {
  if (x >= 1) return String(Number(x.toPrecision(4)));
  const inverse = 1 / x;
  return Number.isInteger(inverse) ? '1/' + inverse : String(Number(x.toPrecision(3)));
}

// The one tooltip of the page: a title and rows of (name, value), beside `target`,
// shown on hover and on keyboard focus alike.
const Tooltip = {
  box: null,
  show(target, title, rows) {
    const box = this.box || (this.box = document.getElementById('tooltip'));
    box.replaceChildren();
    html('div', {class: 'tip-title'}, title, box);
    const table = html('table', {}, null, box);
    for (const [name, value, key] of rows) {
      const tr = html('tr', key ? {'data-key': key} : {}, null, table);
      html('th', {scope: 'row'}, name, tr);
      html('td', {}, value, tr);
    }
    box.hidden = false;
    target.setAttribute('aria-describedby', 'tooltip');
    const r = target.getBoundingClientRect();
    const w = box.offsetWidth, h = box.offsetHeight;
    let left = r.right + 12, top = r.top - 8;
    if (left + w > document.documentElement.clientWidth - 4) left = Math.max(4, r.left - 12 - w);
    if (top + h > window.innerHeight - 4) top = Math.max(4, window.innerHeight - 4 - h);
    box.style.left = (left + window.scrollX) + 'px';
    box.style.top = (top + window.scrollY) + 'px';
  },
  hide(target) {
    if (this.box) this.box.hidden = true;
    if (target) target.removeAttribute('aria-describedby');
  },
};

// Ticks of a log axis over [lo, hi]: powers of `base`, thinned to at most ~12 labels,
// or 1-2-5 steps where fewer than two powers fall inside (a deep zoom).
function logTicks(lo, hi, base) {
  const first = Math.ceil(Math.log(lo) / Math.log(base) - 1e-9);
  const last = Math.floor(Math.log(hi) / Math.log(base) + 1e-9);
  if (!isFinite(first) || !isFinite(last) || last - first > 400) return [];
  if (last - first >= 1) {
    const every = Math.max(1, Math.ceil((last - first + 1) / 12));
    const ticks = [];
    for (let e = first; e <= last; e++) if (e % every === 0) ticks.push(Math.pow(base, e));
    return ticks;
  }
  const ticks = [];
  for (let d = Math.floor(Math.log10(lo)); d <= Math.ceil(Math.log10(hi)); d++)
    for (const m of [1, 2, 5]) {
      const v = m * Math.pow(10, d);
      if (v >= lo && v <= hi) ticks.push(v);
    }
  return ticks;
}

// A log-log chart that zooms (wheel, buttons) and pans (drag), redrawn from its data on
// every change: `draw(plot, layer)` adds what the chart shows inside the plotting area.
class LogPlot {
  constructor(parent, options) {
    this.o = Object.assign({width: 900, height: 520, left: 80, right: 20, top: 36, bottom: 56},
                           options);
    // {x: [lo, hi], y: [lo, hi]}; a damaged file's infinities or zeros fall back to a
    // usual range rather than drawing nothing.
    const usable = (r) => r.every((v) => isFinite(v) && v > 0) && r[0] < r[1];
    this.home = {x: usable(options.domain.x) ? options.domain.x : [1 / 64, 1024],
      y: usable(options.domain.y) ? options.domain.y : [0.1, 1e4]};
    this.view = {x: this.home.x.slice(), y: this.home.y.slice()};
    this.figure = html('figure', {class: 'chart'}, null, parent);
    const bar = html('div', {class: 'zoom', role: 'group', 'aria-label': 'zoom'}, null,
                     this.figure);
    for (const [text, what, f] of [['+', 'Zoom in', 1 / 1.6], ['\u2212', 'Zoom out', 1.6],
                                   ['Reset', 'Reset zoom', 0]]) {
      const b = html('button', {type: 'button', 'aria-label': what, title: what}, text, bar);
      b.addEventListener('click', () => f ? this.zoom(f, 0.5, 0.5) : this.reset());
    }
    const o = this.o;
    this.svg = svg('svg', {viewBox: `0 0 ${o.width} ${o.height}`, class: 'plot-svg',
                           role: 'group', 'aria-label': options.title}, this.figure);
    if (options.caption) html('figcaption', {}, options.caption, this.figure);
    this.w = o.width - o.left - o.right;
    this.h = o.height - o.top - o.bottom;
    this.listen();
    this.render();
  }
  px(x) {
    const [a, b] = this.view.x;
    return this.o.left + this.w * Math.log(x / a) / Math.log(b / a);
  }
  py(y) {
    const [a, b] = this.view.y;
    return this.o.top + this.h - this.h * Math.log(y / a) / Math.log(b / a);
  }
  // Whether a box lies inside the plotting area, where a label is seen (the rest is
  // clipped, and the frame's own labels lie outside).
  contains(b) {
    return b.x0 >= this.o.left && b.x1 <= this.o.left + this.w && b.y0 >= this.o.top &&
        b.y1 <= this.o.top + this.h;
  }
  // Zoom by `f` about the point at fractions (fx, fy) of the plotting area.
  zoom(f, fx, fy) {
    const scale = (range, t) => {
      const [a, b] = range.map(Math.log);
      const c = a + (b - a) * t;
      return [Math.exp(c - (c - a) * f), Math.exp(c + (b - c) * f)];
    };
    this.view = {x: scale(this.view.x, fx), y: scale(this.view.y, 1 - fy)};
    this.render();
  }
  reset() {
    this.view = {x: this.home.x.slice(), y: this.home.y.slice()};
    this.render();
  }
  // Where an event falls, as fractions of the plotting area.
  fraction(event) {
    const r = this.svg.getBoundingClientRect();
    const k = this.o.width / r.width;
    return [((event.clientX - r.left) * k - this.o.left) / this.w,
      ((event.clientY - r.top) * k - this.o.top) / this.h];
  }
  listen() {
    this.svg.addEventListener('wheel', (e) => {
      const [fx, fy] = this.fraction(e);
      if (fx < 0 || fx > 1 || fy < 0 || fy > 1) return;
      e.preventDefault();
      this.zoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY * 0.002))), fx, fy);
    }, {passive: false});
    let drag = null;
    this.svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || e.target.closest('.point')) return;
      drag = {start: this.fraction(e), view: {x: this.view.x.slice(), y: this.view.y.slice()}};
    });
    window.addEventListener('pointerup', () => { drag = null; });
    this.svg.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const [fx, fy] = this.fraction(e);
      const shift = (range, t) => {
        const k = Math.pow(range[1] / range[0], t);
        return [range[0] * k, range[1] * k];
      };
      this.view = {x: shift(drag.view.x, drag.start[0] - fx), y: shift(drag.view.y, fy - drag.start[1])};
      this.render();
    });
  }
  render() {
    const o = this.o, s = this.svg;
    s.replaceChildren();
    label(s, o.left + this.w / 2, 22, this.o.title, {class: 'title', 'text-anchor': 'middle'});
    label(s, o.left + this.w / 2, o.height - 12, this.o.xlabel, {'text-anchor': 'middle'});
    label(s, 0, 0, this.o.ylabel, {'text-anchor': 'middle',
      transform: `translate(18,${o.top + this.h / 2}) rotate(-90)`});
    const grid = svg('g', {class: 'grid'}, s);
    for (const x of logTicks(this.view.x[0], this.view.x[1], this.o.xbytes ? 4 : 2)) {
      const X = this.px(x);
      svg('line', {x1: X, x2: X, y1: o.top, y2: o.top + this.h}, grid);
      label(grid, X, o.top + this.h + 16, this.o.xbytes ? bytesText(x) : intensityText(x),
            {'text-anchor': 'middle'});
    }
    for (const y of logTicks(this.view.y[0], this.view.y[1], 10)) {
      const Y = this.py(y);
      svg('line', {x1: o.left, x2: o.left + this.w, y1: Y, y2: Y}, grid);
      label(grid, o.left - 6, Y + 4, sig(y, 3), {'text-anchor': 'end'});
    }
    const id = 'clip-' + Math.random().toString(36).slice(2);
    const clip = svg('clipPath', {id: id}, svg('defs', {}, s));
    svg('rect', {x: o.left, y: o.top, width: this.w, height: this.h}, clip);
    if (this.o.defs) this.o.defs(s.querySelector('defs'));
    const layer = svg('g', {'clip-path': `url(#${id})`}, s);
    svg('rect', {class: 'frame', x: o.left, y: o.top, width: this.w, height: this.h}, s);
    this.o.draw(this, layer);
  }
}

// Keeps labels apart: boxes placed so far, and whether a new one would overlap them.
class Boxes {
  constructor() { this.list = []; }
  free(b) {
    return this.list.every((t) => b.x1 <= t.x0 || b.x0 >= t.x1 || b.y1 <= t.y0 || b.y0 >= t.y1);
  }
  add(b) { this.list.push(b); }
}
