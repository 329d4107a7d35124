// rooftop report, part 2 of 2: the page, built from the JSON embedded in it (the same
// numbers as rooftop's JSON outputs): machines and provenance, the roofline with every
// ceiling and the kernels as one point per memory level, the sortable kernels table
// linked to the points, the comparison, and per file the ceilings table and the
// bandwidth sweep.
(function () {
  const data = JSON.parse(document.getElementById('rooftop-data').textContent);
  const main = document.getElementById('report');
  const files = data.files;
  const several = files.length > 1;
  const off = new Set();  // 'level:l2', 'precision:fp32', 'file:1', 'steps'
  const rankOf = (level) => {
    const i = data.levels.indexOf(level);
    return i < 0 ? data.levels.length : i;
  };
  const tag = (fi) => several ? '[' + (fi + 1) + '] ' : '';
  const fileColor = (fi) => PALETTE[fi % PALETTE.length];
  const precisionOf = (ceiling) => ceiling.precision || ceiling.name.split('_')[0];

  // Every kernel of every file, and its points: one per level with a positive intensity,
  // for kernels with a time and FLOPs.
  const kernels = [];
  files.forEach((f, fi) => f.kernels.forEach((k, ki) => {
    const timed = k.gflop_per_s !== null && k.flops > 0;
    const levels = Object.keys(k.ai).filter((l) => timed && k.ai[l] > 0)
        .sort((a, b) => rankOf(a) - rankOf(b));
    kernels.push({key: fi + ':' + ki, fi: fi, k: k, id: k.id || '#' + (ki + 1), levels: levels,
      rateOnly: timed && levels.length === 0,
      color: KERNEL_COLORS[kernels.filter((x) => x.levels.length).length % KERNEL_COLORS.length]});
  }));
  const kernelLevels = [...new Set(kernels.flatMap((x) => x.levels))].sort(
      (a, b) => rankOf(a) - rankOf(b));
  const visible = (x, level) => !off.has('file:' + x.fi) && !off.has('level:' + level) &&
      !(x.k.precision && off.has('precision:' + x.k.precision));

  // One marker shape per level, centred on the origin (as the SVG chart draws them).
  const SHAPES = ['M5.5,0A5.5,5.5 0 1 1 -5.5,0A5.5,5.5 0 1 1 5.5,0Z', 'M0,6.5L6.5,-4.5L-6.5,-4.5Z',
    'M-5,-5H5V5H-5Z', 'M0,-6.5L6.5,4.5L-6.5,4.5Z', 'M0,-7L7,0L0,7L-7,0Z',
    'M-2,-6H2V-2H6V2H2V6H-2V2H-6V-2H-2Z'];
  const shape = (level) => SHAPES[Math.min(rankOf(level), SHAPES.length - 1)];
  const icon = (level, parent) => {
    const s = svg('svg', {width: 16, height: 16, viewBox: '-8 -8 16 16', 'aria-hidden': 'true'},
                  parent);
    svg('path', {d: shape(level), class: 'icon'}, s);
  };

  // Highlight one kernel's points and its row together.
  function highlight(key) {
    document.querySelectorAll('.hl').forEach((e) => e.classList.remove('hl'));
    document.querySelectorAll('.has-hl').forEach((e) => e.classList.remove('has-hl'));
    if (key === null) return;
    document.querySelectorAll('[data-key="' + CSS.escape(key) + '"]').forEach((e) => {
      e.classList.add('hl');
      const chart = e.closest('svg');
      if (chart) chart.classList.add('has-hl');
    });
  }

  function kernelRows(x, level) {
    const k = x.k, rows = [];
    if (several) rows.push(['file', tag(x.fi) + files[x.fi].label, 'file']);
    if (level) rows.push(['memory level', level, 'level']);
    rows.push(['FLOPs', whole(k.flops), 'flops']);
    for (const l of Object.keys(k.bytes).sort((a, b) => rankOf(a) - rankOf(b)))
      rows.push(['bytes ' + l, whole(k.bytes[l]), 'bytes-' + l]);
    for (const l of Object.keys(k.ai).sort((a, b) => rankOf(a) - rankOf(b)))
      rows.push(['FLOP/byte ' + l, sig(k.ai[l], 4), 'ai-' + l]);
    rows.push(['time (s)', sig(k.time_s, 4), 'time']);
    rows.push(['GFLOP/s', sig(k.gflop_per_s, 4), 'gflops']);
    rows.push(['limiter', k.limiter || '-', 'limiter']);
    rows.push(['attainable GFLOP/s', sig(k.attainable_gflop_per_s, 4), 'attainable']);
    rows.push(['of roof', k.fraction_of_roof === null ? '-' : sig(100 * k.fraction_of_roof, 3) + '%',
      'fraction']);
    if (k.above) rows.push(['above', k.above, 'above']);
    if (k.check) rows.push(['check', k.check, 'check']);
    return rows;
  }
  // Hover shows the tooltip; so does keyboard focus where `key` names a kernel or the
  // element is made focusable (Chromium lets any SVG element with a focus listener take
  // the focus, so listeners go only where a tab stop is meant).
  function bindTip(e, title, rows, key, focusable) {
    const enter = () => { Tooltip.show(e, title(), rows()); if (key) highlight(key); };
    const leave = () => { Tooltip.hide(e); if (key) highlight(null); };
    e.addEventListener('mouseenter', enter);
    e.addEventListener('mouseleave', leave);
    if (!key && !focusable) return;
    e.addEventListener('focus', enter);
    e.addEventListener('blur', leave);
  }

  // Header: the files and their machines.
  const head = html('section', {class: 'files'}, null, main);
  html('h2', {}, several ? 'Machines compared' : 'Machine', head);
  const fileList = html('ul', {class: 'file-list'}, null, head);
  files.forEach((f, fi) => {
    const li = html('li', {}, null, fileList);
    if (several) html('span', {class: 'swatch c' + (fi % PALETTE.length)}, null, li);
    html('strong', {}, tag(fi) + f.machine_name, li);
    li.appendChild(document.createTextNode(' \u2014 ' + f.label + ', ' +
        (f.ceilings.created_utc || 'no date') + ', ' + f.kernels.length + ' kernels'));
  });

  // Files with the same ceilings (a ceilings file and the kernels files placed on it)
  // share one set of roofs, tagged with all their numbers.
  const roofsOf = files.map((f, fi) => (f.roofs_of === undefined ? fi : f.roofs_of));
  const sharing = (fi) => files.map((f, gi) => gi).filter((gi) => roofsOf[gi] === fi);

  // The precision of a matrix unit's figure: the table's (tc_tf32: fp32), else the one its
  // name holds (tc_fp16_acc16: fp16, amx_bf16: bf16), else none.
  const matrixPrecision = (name) => (data.matrix_precisions || {})[name] ||
      data.precisions.find((p) => name.split('_').includes(p));

  // A file's roofs: its ceilings, and each matrix unit's figure (tensor cores, a CPU's
  // dot-product instructions) that a kernel of the files sharing them is placed against,
  // drawn as a compute roof under the precision of the kernels placed on it.
  const roofRows = (fi) => {
    const placed = new Map();
    for (const gi of sharing(fi))
      for (const k of files[gi].kernels)
        if (k.limiter && !placed.has(k.limiter)) placed.set(k.limiter, k.precision);
    const matrix = (files[fi].ceilings.matrix || {figures: []}).figures
        .filter((c) => placed.has(c.name))
        .map((c) => Object.assign({}, c, {kind: 'compute', precision: matrixPrecision(c.name) ||
                                                                       placed.get(c.name) || undefined}));
    return files[fi].ceilings.ceilings.concat(matrix).filter((c) => c.value > 0);
  };

  // The roofline: every roof of every file, the trace, and the kernels.
  function rooflineDomain() {
    let peak = 1, bwMax = 1, bwMin = 0, aiLo = 0, aiHi = 0, rateLo = 0, rateHi = 0;
    for (let fi = 0; fi < files.length; ++fi)
      for (const c of roofRows(fi)) {
        if (!(c.value > 0)) continue;
        if (c.kind === 'compute') peak = Math.max(peak, c.value);
        else bwMax = Math.max(bwMax, c.value), bwMin = bwMin ? Math.min(bwMin, c.value) : c.value;
      }
    for (const x of kernels) {
      const r = x.k.gflop_per_s;
      for (const l of x.levels) {
        aiLo = aiLo ? Math.min(aiLo, x.k.ai[l]) : x.k.ai[l];
        aiHi = Math.max(aiHi, x.k.ai[l]);
      }
      if (x.levels.length || x.rateOnly)
        rateLo = rateLo ? Math.min(rateLo, r) : r, rateHi = Math.max(rateHi, r);
    }
    let xlo = 1 / 64, xhi = 1024;
    if (aiLo > 0) {
      xlo = Math.min(xlo, Math.pow(2, Math.floor(Math.log2(aiLo / 1.4))));
      xhi = Math.max(xhi, Math.pow(2, Math.ceil(Math.log2(aiHi * 1.4))));
    }
    const yhi = Math.pow(10, Math.ceil(Math.log10(Math.max(peak, rateHi) * 1.6)));
    let low = Math.min((bwMin || 1) * xlo, peak / 100);
    if (rateLo > 0) low = Math.min(low, rateLo / 1.6);
    return {x: [xlo, xhi], y: [Math.pow(10, Math.floor(Math.log10(low))), yhi]};
  }

  const roofTag = (fi) => several ? '[' + sharing(fi).map((gi) => gi + 1).join(',') + '] ' : '';

  // A label's box as the charts estimate it (text_box in report/src/svg.cpp): its measured
  // width, from the cap height above the baseline to the descenders below.
  const textBox = (x, y, width, anchor) => {
    const left = anchor === 'end' ? x - width : anchor === 'middle' ? x - width / 2 : x;
    return {x0: left, y0: y - 8.8, x1: left + width, y1: y + 2.42};
  };

  function roofs(plot, layer, boxes) {
    const o = plot.o, right = o.left + plot.w;
    const angle = Math.atan((plot.h / Math.log(plot.view.y[1] / plot.view.y[0])) /
                            (plot.w / Math.log(plot.view.x[1] / plot.view.x[0])));
    const computeLabels = [], bandwidthLabels = [];
    files.forEach((f, fi) => {
      if (roofsOf[fi] !== fi || sharing(fi).every((gi) => off.has('file:' + gi))) return;
      const cs = roofRows(fi);
      const peak = Math.max(1, ...cs.filter((c) => c.kind === 'compute').map((c) => c.value));
      const bwMax = Math.max(1, ...cs.filter((c) => c.kind !== 'compute').map((c) => c.value));
      let i = 0;
      for (const c of cs) {
        const compute = c.kind === 'compute';
        const color = several ? fileColor(fi) : compute ? PALETTE[i++ % PALETTE.length] : '#555';
        if (off.has(compute ? 'precision:' + precisionOf(c) : 'level:' + c.name)) continue;
        const dash = !c.measured ? '2,3' : c.name.indexOf('nofma') >= 0 ? '6,3' : '';
        const x1 = compute ? c.value / bwMax : 1e-12, x2 = compute ? 1e12 : peak / c.value;
        const line = svg('line', {class: 'roof ' + c.kind, x1: plot.px(x1), x2: plot.px(x2),
          y1: plot.py(compute ? c.value : x1 * c.value), y2: plot.py(compute ? c.value : x2 * c.value),
          stroke: color, 'stroke-dasharray': dash, 'data-ceiling': c.name, tabindex: 0,
          role: 'img'}, layer);
        const text = roofTag(fi) + c.name + ' ' + sig(c.value, 4) + ' ' + c.units +
            (c.measured ? '' : ' (theoretical)');
        line.setAttribute('aria-label', 'ceiling ' + text);
        bindTip(line, () => roofTag(fi) + c.name, () => [['value', sig(c.value, 4) + ' ' + c.units],
          ['theoretical', c.theoretical === null ? '-' : sig(c.theoretical, 4) + ' ' + c.units],
          ['fraction of theoretical', sig(c.fraction_of_theoretical, 3)],
          ['samples', String(c.samples)], ['pattern', c.pattern || '-']], null, true);
        if (compute) computeLabels.push({y: plot.py(c.value), text: text, color: color});
        else bandwidthLabels.push({c: c, x2: x2, text: text, color: color});
      }
    });
    // The compute ceilings' labels first, at the right edge: 13 px apart at least; each
    // run of labels that would touch is centred on the lines it labels (several machines'
    // ceilings crowd one band), below the run above it.
    computeLabels.sort((a, b) => a.y - b.y);
    let floor = o.top + 10, run = [];
    const settle = () => {
      const shift = run.reduce((sum, l) => sum + l.at - (l.y - 4), 0) / run.length;
      const up = Math.max(0, Math.min(shift, run[0].at - floor));
      for (const l of run) l.at -= up;
      floor = run[run.length - 1].at + 13;
      run = [];
    };
    for (const l of computeLabels) {
      if (run.length && l.y - 4 >= run[run.length - 1].at + 13) settle();
      l.at = run.length ? run[run.length - 1].at + 13 : Math.max(l.y - 4, floor);
      run.push(l);
    }
    if (run.length) settle();
    for (const l of computeLabels) {
      const t = label(layer, right - 4, l.at, l.text, {class: 'roof-label', fill: l.color,
        'text-anchor': 'end'});
      const b = textBox(right - 4, l.at, t.getComputedTextLength(), 'end');
      if (boxes.free(b) && plot.contains(b)) boxes.add(b); else t.remove();
    }
    // Then each bandwidth ceiling's, along its line at the first place where it covers no
    // other label; left out where there is none (the line's tooltip names it).
    for (const {c, x2, text, color} of bandwidthLabels) {
      const g = svg('g', {class: 'roof-label'}, layer);
      const band = svg('rect', {class: 'band', x: -2, y: -10, height: 13}, g);
      const width = label(g, 0, 0, text, {fill: color}).getComputedTextLength();
      band.setAttribute('width', width + 4);
      const enter = Math.max(plot.view.x[0], plot.view.y[0] / c.value);
      let placed = false;
      for (let X = plot.px(enter) + 12; !placed && X + width * Math.cos(angle) < plot.px(x2); X += 16) {
        const Y = plot.py(Math.exp(Math.log(plot.view.x[0]) + (X - o.left) / plot.w *
            Math.log(plot.view.x[1] / plot.view.x[0])) * c.value) - 4;
        // Boxes 14 px square 8 px apart along the middle of the text cover its band.
        const parts = [];
        for (let t = 4; t - 4 < width; t += 8) {
          const cx = X + t * Math.cos(angle) - 3.2 * Math.sin(angle);
          const cy = Y - t * Math.sin(angle) - 3.2 * Math.cos(angle);
          parts.push({x0: cx - 7, y0: cy - 7, x1: cx + 7, y1: cy + 7});
        }
        if (!parts.every((b) => boxes.free(b) && plot.contains(b))) continue;
        parts.forEach((b) => boxes.add(b));
        // On a white band, as the SVG chart draws it: a line a few pixels away stays off it.
        g.setAttribute('transform', `translate(${X},${Y}) rotate(${-angle * 180 / Math.PI})`);
        placed = true;
      }
      if (!placed) g.remove();
    }
  }

  function traces(plot, layer) {
    files.forEach((f, fi) => {
      if (off.has('file:' + fi) || off.has('trace')) return;
      f.trace.series.forEach((s, si) => {
        if (off.has('precision:' + s.name.split(' ')[0])) return;
        for (const [x, y] of s.points) {
          const c = svg('circle', {class: 'trace', cx: plot.px(x), cy: plot.py(y), r: 3.5,
            fill: several ? fileColor(fi) : PALETTE[(4 + si) % PALETTE.length]}, layer);
          bindTip(c, () => tag(fi) + 'trace ' + s.name, () => [['FLOP/byte', sig(x, 4)],
            ['GFLOP/s', sig(y, 4)], ['working set', bytesText(f.trace.working_set)]]);
        }
      });
    });
  }

  function kernelPoints(plot, layer, boxes) {
    const steps = svg('g', {class: 'steps'}, layer);
    const points = svg('g', {class: 'points'}, layer);
    const placed = [];
    for (const x of kernels) {
      for (const level of x.levels) {
        if (!visible(x, level)) continue;
        const X = plot.px(x.k.ai[level]), Y = plot.py(x.k.gflop_per_s);
        const p = svg('path', {class: 'point' + (x.k.above ? ' above' : ''), d: shape(level),
          transform: `translate(${X.toFixed(2)},${Y.toFixed(2)})`, fill: x.color, tabindex: 0,
          role: 'img', 'data-key': x.key, 'data-id': x.id, 'data-level': level,
          'aria-label': `${tag(x.fi)}${x.id} ${x.k.name} at ${level}: ${sig(x.k.ai[level], 4)} ` +
              `FLOP/byte, ${sig(x.k.gflop_per_s, 4)} GFLOP/s`}, points);
        bindTip(p, () => tag(x.fi) + x.id + '  ' + x.k.name, () => kernelRows(x, level), x.key);
        boxes.add({x0: X - 7, y0: Y - 7, x1: X + 7, y1: Y + 7});
        placed.push({x: x, level: level, X: X, Y: Y});
      }
      if (x.rateOnly && !off.has('file:' + x.fi)) {
        const X = plot.o.left + plot.w - 20, Y = plot.py(x.k.gflop_per_s);
        const p = svg('circle', {class: 'rate-only', cx: X, cy: Y, r: 4.5, stroke: x.color,
          tabindex: 0, 'data-key': x.key, 'aria-label': x.id + ' ' + x.k.name +
              ': no byte counts, read against the compute roofs only'}, points);
        bindTip(p, () => x.id + '  ' + x.k.name + ' (no bytes: compute roofs only)',
                () => kernelRows(x, null), x.key);
      }
    }
    // The versions of a ladder in order, joined level by level; other kernels (those of
    // an import or a profile) are no versions of one another and get no arrows.
    if (!off.has('steps')) {
      const groups = new Map();
      for (const p of placed)
        if (p.x.k.ladder) {
          const g = p.x.fi + ':' + p.x.k.ladder;
          if (!groups.has(g)) groups.set(g, []);
          groups.get(g).push(p);
        }
      for (const list of groups.values()) {
        const orders = [...new Set(list.map((p) => p.x.k.order))].sort((a, b) => a - b);
        for (let i = 0; i + 1 < orders.length; i++)
          for (const a of list.filter((p) => p.x.k.order === orders[i]))
            for (const b of list.filter((p) => p.x.k.order === orders[i + 1] && p.level === a.level)) {
              const d = Math.hypot(b.X - a.X, b.Y - a.Y), t = d > 27 ? 9 / d : 0;
              svg('line', {class: 'step', x1: a.X + (b.X - a.X) * t, y1: a.Y + (b.Y - a.Y) * t,
                x2: b.X - (b.X - a.X) * t, y2: b.Y - (b.Y - a.Y) * t,
                'marker-end': 'url(#rooftop-step)'}, steps);
            }
      }
    }
    // Ids beside the points where they fit; zooming in makes room for the others.
    const ids = svg('g', {class: 'ids', 'aria-hidden': 'true'}, layer);
    for (const p of placed) {
      const t = label(ids, p.X, p.Y, p.x.id, {fill: p.x.color, 'data-key': p.x.key});
      const w = t.getComputedTextLength();
      const spot = [[9, 4, 'start'], [-9, 4, 'end'], [0, -10, 'middle'], [0, 18, 'middle']].find(
          ([dx, dy, anchor]) => {
            const b = textBox(p.X + dx, p.Y + dy, w, anchor);
            return boxes.free(b) && plot.contains(b);
          });
      if (!spot) {
        t.remove();
        continue;
      }
      const [dx, dy, anchor] = spot;
      boxes.add(textBox(p.X + dx, p.Y + dy, w, anchor));
      t.setAttribute('x', p.X + dx);
      t.setAttribute('y', p.Y + dy);
      t.setAttribute('text-anchor', anchor);
    }
  }

  // Toggles: memory levels, precisions, machines, the ladder's arrows.
  function controls(parent, redraw) {
    const box = html('div', {class: 'controls'}, null, parent);
    const group = (title, items) => {
      if (!items.length) return;
      const fs = html('fieldset', {}, null, box);
      html('legend', {}, title, fs);
      for (const [key, text, decorate] of items) {
        const l = html('label', {}, null, fs);
        const input = html('input', {type: 'checkbox', 'data-toggle': key}, null, l);
        input.checked = !off.has(key);
        input.addEventListener('change', () => {
          if (input.checked) off.delete(key); else off.add(key);
          redraw();
        });
        if (decorate) decorate(l);
        l.appendChild(document.createTextNode(' ' + text));
      }
    };
    const levelNames = new Set(kernelLevels);
    for (const f of files)
      for (const c of f.ceilings.ceilings) if (c.kind !== 'compute') levelNames.add(c.name);
    group('Memory levels', [...levelNames].sort((a, b) => rankOf(a) - rankOf(b)).map((l) =>
      ['level:' + l, l, kernelLevels.includes(l) ? (e) => icon(l, e) : null]));
    const precisions = new Set(kernels.map((x) => x.k.precision).filter((p) => p));
    files.forEach((f, fi) => {
      for (const c of roofRows(fi)) if (c.kind === 'compute') precisions.add(precisionOf(c));
    });
    group('Precisions', data.precisions.filter((p) => precisions.has(p)).map((p) =>
      ['precision:' + p, p]));
    if (several)
      group('Machines', files.map((f, fi) => ['file:' + fi, tag(fi) + f.machine_name,
        (e) => html('span', {class: 'swatch c' + (fi % PALETTE.length)}, null, e)]));
    const extras = [];
    if (kernels.some((x) => x.k.ladder)) extras.push(['steps', 'ladder arrows']);
    if (files.some((f) => f.trace.series.length)) extras.push(['trace', 'FLOPs-per-element trace']);
    group('Show', extras);
  }

  const rooflineSection = html('section', {id: 'roofline'}, null, main);
  html('h2', {}, 'Roofline', rooflineSection);
  html('p', {class: 'hint'}, 'Hover or focus (Tab) a point to read it; wheel or the buttons ' +
      'zoom, dragging pans. Solid: FMA or measured bandwidth; dashed: separate multiply and ' +
      'add; dotted: theoretical, not measured.', rooflineSection);
  let roofline = null;
  controls(rooflineSection, () => roofline.render());
  roofline = new LogPlot(rooflineSection, {
    title: kernels.length ? 'Kernels on the measured roofline' : 'Measured roofline',
    xlabel: kernels.length ? 'arithmetic intensity at each memory level (FLOP/byte)'
        : 'arithmetic intensity (FLOP/byte)',
    ylabel: 'GFLOP/s', domain: rooflineDomain(),
    defs: (d) => {
      const m = svg('marker', {id: 'rooftop-step', viewBox: '0 0 10 10', refX: 9, refY: 5,
        markerWidth: 7, markerHeight: 7, orient: 'auto'}, d);
      svg('path', {d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head'}, m);
    },
    draw: (plot, layer) => {
      const boxes = new Boxes();
      roofs(plot, layer, boxes);
      traces(plot, layer);
      kernelPoints(plot, layer, boxes);
    },
  });

  if (kernels.length) KernelTable.build(main, kernels, several, tag, highlight, rankOf);
  if (data.comparison) KernelTable.comparison(main, data.comparison);
  files.forEach((f, fi) => FileSection.build(main, f, tag(fi)));
})();
