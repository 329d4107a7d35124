// rooftop report: the tables and each file's own section (machine and provenance, the
// ceilings table with theoretical peaks, the bandwidth sweep with the cache levels).

// A table with sortable columns: `columns` are {name, value(row), text(row)}; a header
// button sorts by its column (again: the other way); rows without a value sort last.
function sortableTable(parent, caption, columns, rows, decorate) {
  const table = html('table', {class: 'data sortable'}, null, parent);
  html('caption', {}, caption, table);
  const tr = html('tr', {}, null, html('thead', {}, null, table));
  const body = html('tbody', {}, null, table);
  const cells = rows.map((row) => {
    const r = html('tr', {}, null, body);
    for (const c of columns) {
      const td = html('td', c.numeric ? {class: 'num'} : c.cls ? {class: c.cls} : {}, c.text(row), r);
      if (c.title) td.setAttribute('title', c.title(row));
    }
    if (decorate) decorate(r, row);
    return r;
  });
  let sorted = null, ascending = true;
  columns.forEach((c, ci) => {
    const th = html('th', {scope: 'col', 'aria-sort': 'none'}, null, tr);
    if (c.numeric) th.classList.add('num');
    const b = html('button', {type: 'button', title: 'sort by ' + c.name}, c.name, th);
    b.addEventListener('click', () => {
      ascending = sorted === ci ? !ascending : true;
      sorted = ci;
      tr.querySelectorAll('th').forEach((h) => h.setAttribute('aria-sort', 'none'));
      th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
      const order = rows.map((row, i) => i).sort((i, j) => {
        const a = c.value(rows[i]), b = c.value(rows[j]);
        if (a === null || a === undefined) return b === null || b === undefined ? i - j : 1;
        if (b === null || b === undefined) return -1;
        const d = typeof a === 'number' ? a - b : String(a).localeCompare(String(b));
        return (ascending ? d : -d) || i - j;
      });
      for (const i of order) body.appendChild(cells[i]);
    });
  });
  return table;
}

const KernelTable = {
  build(main, kernels, several, tag, highlight, rankOf) {
    const section = html('section', {id: 'kernels'}, null, main);
    html('h2', {}, 'Kernels', section);
    const levels = [...new Set(kernels.flatMap((x) => Object.keys(x.k.ai)))];
    levels.sort((a, b) => rankOf(a) - rankOf(b));
    const num = (name, value, digits) => ({name: name, numeric: true, value: value,
      text: (x) => { const v = value(x); return v === null ? '-' : sig(v, digits || 4); }});
    const columns = [];
    if (several)
      columns.push({name: 'file', cls: 'id', value: (x) => x.fi, text: (x) => tag(x.fi)});
    // Ids never wrap; a long name shows shortened, whole in its tooltip.
    columns.push({name: 'id', cls: 'id', value: (x) => x.id, text: (x) => x.id},
                 {name: 'kernel', cls: 'name', value: (x) => x.k.name,
                   text: (x) => x.k.short_name || x.k.name, title: (x) => x.k.name},
                 num('time s', (x) => x.k.time_s),
                 num('GFLOP/s', (x) => x.k.gflop_per_s));
    for (const l of levels)
      columns.push(num('AI ' + l, (x) => x.k.ai[l] === undefined ? null : x.k.ai[l]));
    columns.push({name: 'limiter', value: (x) => x.k.limiter, text: (x) => x.k.limiter || '-'},
                 num('of roof %', (x) => x.k.fraction_of_roof === null ? null
                     : 100 * x.k.fraction_of_roof, 3),
                 {name: 'check', value: (x) => x.k.check, text: (x) => x.k.check || '-'},
                 {name: 'status', value: (x) => status(x), text: (x) => status(x) || ''});
    function status(x) {
      if (x.k.above) return 'above ' + x.k.above;
      if (x.rateOnly) return 'no bytes: compute roofs only';
      if (x.k.gflop_per_s === null) return 'no time';
      return x.levels.length ? null : 'not drawn';
    }
    sortableTable(section, 'One row per kernel; hover or focus a row to find its points.',
        columns, kernels, (r, x) => {
          r.setAttribute('data-key', x.key);
          r.setAttribute('tabindex', '0');
          if (x.k.above) r.classList.add('above');
          if (x.k.description) r.setAttribute('title', x.k.description);
          const swatch = html('span', {class: 'swatch'}, null);
          swatch.style.background = x.color;
          r.cells[several ? 1 : 0].prepend(swatch);
          const on = () => highlight(x.key), out = () => highlight(null);
          r.addEventListener('mouseenter', on);
          r.addEventListener('focus', on);
          r.addEventListener('mouseleave', out);
          r.addEventListener('blur', out);
        });
  },

  comparison(main, comparison) {
    const section = html('section', {id: 'comparison'}, null, main);
    html('h2', {}, 'Ceilings compared', section);
    const table = html('table', {class: 'data'}, null, section);
    html('caption', {}, 'Ratios against [1]; ' + comparison.same_rule, table);
    const head = html('tr', {}, null, html('thead', {}, null, table));
    html('th', {scope: 'col'}, 'ceiling', head);
    html('th', {scope: 'col'}, 'units', head);
    comparison.files.forEach((f, i) => {
      html('th', {scope: 'col', class: 'num'}, '[' + (i + 1) + ']', head);
      html('th', {scope: 'col', class: 'num'}, 'ratio', head);
      html('th', {scope: 'col'}, 'verdict', head);
    });
    const body = html('tbody', {}, null, table);
    for (const c of comparison.ceilings) {
      const r = html('tr', {}, null, body);
      html('th', {scope: 'row'}, c.name, r);
      html('td', {}, c.units, r);
      c.values.forEach((v, i) => {
        html('td', {class: 'num'}, sig(v, 4) + (c.measured && c.measured[i] === false ? '*' : ''), r);
        html('td', {class: 'num'}, sig(c.ratios[i], 3), r);
        html('td', {}, c.verdicts[i], r);
      });
    }
  },
};

const FileSection = {
  build(main, f, tag) {
    const section = html('section', {class: 'file'}, null, main);
    html('h2', {}, tag + f.machine_name + ' \u2014 ' + f.label, section);
    this.machine(section, f);
    this.ceilings(section, f);
    this.sweep(section, f);
    this.figures(section, f);
  },

  machine(section, f) {
    html('h3', {}, 'Machine and provenance', section);
    const m = f.ceilings.machine, dl = html('dl', {class: 'machine'}, null, section);
    const caches = (m.caches || []).map((c) => c.level + ' ' + bytesText(c.bytes) +
        (c.shared_by > 1 ? ' (shared by ' + c.shared_by + ')' : '')).join(', ');
    const rows = [['host', m.hostname], ['CPU', m.cpu_model], ['GPU', m.gpu_name],
      ['compute capability', m.compute_capability], ['execution space', m.execution_space],
      ['cores', m.cores], ['threads', m.threads], ['caches', caches],
      ['SIMD bits', m.simd_bits || ''], ['vector pipes', m.hardware_model],
      ['clock', m.clock_ghz ? sig(m.clock_ghz, 4) + ' GHz' : ''], ['clock method', m.clock_method],
      ['compiler', m.compiler], ['flags', m.compile_flags], ['Kokkos', m.kokkos_version],
      ['device arch', m.device_arch], ['CUDA', m.cuda_version], ['driver', m.driver_version],
      ['schema', f.ceilings.schema_version],
      ['rooftop', (f.ceilings.tool_version || '') + ' ' + (f.ceilings.git_revision || '')],
      ['created', f.ceilings.created_utc], ['command line', f.command_line]];
    for (const [k, v] of rows) {
      if (v === '' || v === null || v === undefined || v === 0) continue;
      html('dt', {}, k, dl);
      html('dd', {}, v, dl);
    }
  },

  ceilings(section, f) {
    this.rows(section, 'Ceilings', 'ceiling', f.ceilings.ceilings);
  },

  // A table of ceiling rows (the ceilings, or a group's figures) and their notes.
  rows(section, caption, first, cs) {
    const num = (name, value, digits) => ({name: name, numeric: true, value: value,
      text: (c) => { const v = value(c); return v === null ? '-' : sig(v, digits || 4); }});
    sortableTable(section, caption, [
      {name: first, value: (c) => c.name, text: (c) => c.name},
      num('value', (c) => c.value), {name: 'units', value: (c) => c.units, text: (c) => c.units},
      num('median', (c) => c.median), num('min', (c) => c.min), num('max', (c) => c.max),
      num('n', (c) => c.samples),
      {name: 'pattern', value: (c) => c.pattern, text: (c) => c.pattern || '-'},
      num('work set', (c) => c.working_set_bytes || null),
      num('theoretical', (c) => c.theoretical),
      num('fraction', (c) => c.fraction_of_theoretical, 3)],
    cs, (r, c) => {
      r.cells[8].textContent = c.working_set_bytes ? bytesText(c.working_set_bytes) : '-';
      if (c.above_theoretical) r.classList.add('above');
    });
    const notes = cs.filter((c) => c.note || c.theoretical_basis);
    if (!notes.length) return;
    const ul = html('ul', {class: 'notes'}, null, section);
    for (const c of notes) {
      const li = html('li', {}, null, ul);
      html('strong', {}, c.name + ': ', li);
      li.appendChild(document.createTextNode([c.note, c.theoretical_basis &&
          'theoretical: ' + c.theoretical_basis].filter((s) => s).join('; ')));
    }
  },

  // Schema 1.7's groups: each its figures' table, then one chart per kind of sweep (the
  // sweeps that share a parameter and units), a line per sweep through its medians.
  figures(section, f) {
    for (const [group, title] of [['costs', 'Costs'], ['matrix', 'Matrix units']]) {
      const g = f.ceilings[group];
      if (!g || (!g.figures.length && !g.sweeps.length)) continue;
      html('h3', {}, title, section);
      if (g.figures.length) this.rows(section, title, 'figure', g.figures);
      const charts = new Map(), undrawn = new Set();
      for (const p of g.sweeps) {
        if (!(p.x > 0 && p.median > 0)) {  // a log axis has no place for them
          undrawn.add(p.sweep);
          continue;
        }
        const key = p.x_is + ' | ' + p.units;
        if (!charts.has(key)) charts.set(key, new Map());
        const lines = charts.get(key);
        if (!lines.has(p.sweep)) lines.set(p.sweep, []);
        lines.get(p.sweep).push([p.x, p.median]);
      }
      for (const [key, lines] of charts) this.sweepChart(section, key, lines);
      for (const c of charts.values()) for (const name of c.keys()) undrawn.delete(name);
      if (undrawn.size)
        html('p', {class: 'undrawn'}, 'Not drawn (a point at 0 has no place on a log axis): ' +
             [...undrawn].join(', ') + '.', section);
    }
  },

  sweepChart(section, key, lines) {
    const [xIs, units] = key.split(' | ');
    const all = [...lines.values()].flat();
    const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
    const bytes = xIs.startsWith('bytes');
    new LogPlot(section, {
      title: units + ' by ' + xIs, xlabel: xIs, ylabel: units, xbytes: bytes, height: 360,
      domain: {x: [Math.min(...xs) / 1.5, Math.max(...xs) * 1.5],
        y: [Math.min(...ys) / 1.5, Math.max(...ys) * 1.5]},
      caption: 'The median of each point\u2019s samples.',
      draw: (plot, layer) => {
        [...lines.keys()].forEach((name, i) => {
          const color = PALETTE[i % PALETTE.length];
          const points = lines.get(name);
          svg('polyline', {class: 'pattern', stroke: color, points: points.map(([x, y]) =>
            plot.px(x).toFixed(1) + ',' + plot.py(y).toFixed(1)).join(' ')}, layer);
          for (const [x, y] of points) {
            const dot = svg('circle', {class: 'sweep-point', cx: plot.px(x), cy: plot.py(y),
              r: 3, fill: color}, layer);
            const rows = () => [[xIs, bytes ? bytesText(x) : sig(x, 4)], [units, sig(y, 4)]];
            dot.addEventListener('mouseenter', () => Tooltip.show(dot, name, rows()));
            dot.addEventListener('mouseleave', () => Tooltip.hide(dot));
          }
        });
      },
    });
    const legend = html('ul', {class: 'legend'}, null, section);
    [...lines.keys()].forEach((name, i) => {
      const li = html('li', {}, null, legend);
      html('span', {class: 'swatch c' + (i % PALETTE.length)}, null, li);
      li.appendChild(document.createTextNode(' ' + name));
    });
  },

  sweep(section, f) {
    const patterns = f.sweep.patterns;
    if (!patterns.length) return;
    html('h3', {}, 'Bandwidth sweep', section);
    const all = patterns.flatMap((p) => p.points);
    const lo = Math.min(...all.map((p) => p[0])), hi = Math.max(...all.map((p) => p[0]));
    const rmin = Math.min(...all.map((p) => p[1])), rmax = Math.max(1, ...all.map((p) => p[1]));
    const device = !f.sweep.levels.length;
    new LogPlot(section, {
      title: 'Bandwidth sweep (' + f.ceilings.machine.threads + ' threads)',
      xlabel: 'working set (all threads)', ylabel: 'GB/s', xbytes: true, height: 440,
      domain: {x: [lo / 1.5, hi * 1.5], y: [Math.pow(10, Math.floor(Math.log10(rmin / 1.3))),
        Math.pow(10, Math.ceil(Math.log10(rmax * 1.3)))]},
      caption: device ? 'Each point names its level and pattern.'
          : 'Dashed: cache capacities for the threads of the run; bold: each level\u2019s ' +
            'ceiling across its window.',
      draw: (plot, layer) => {
        for (const w of f.sweep.levels) {
          if (w.name !== 'dram') {
            const X = plot.px(w.capacity);
            svg('line', {class: 'capacity', x1: X, x2: X, y1: plot.o.top,
              y2: plot.o.top + plot.h}, layer);
            label(layer, X - 4, plot.o.top + 14, w.name + ' ' + bytesText(w.capacity),
                  {'text-anchor': 'end', class: 'capacity-label'});
          }
          const c = f.ceilings.ceilings.find((c) => c.name === w.name);
          if (!c) continue;
          const x1 = Math.max(w.lo, 1), x2 = w.hi === null ? 1e30 : w.hi;
          svg('line', {class: 'headline', x1: plot.px(x1), x2: plot.px(x2), y1: plot.py(c.value),
            y2: plot.py(c.value)}, layer);
          label(layer, (Math.max(plot.px(x1), plot.o.left) + Math.min(plot.px(x2),
              plot.o.left + plot.w)) / 2, plot.py(c.value) - 6, c.name + ' ' + sig(c.value, 4),
          {'text-anchor': 'middle', class: 'headline-label'});
        }
        patterns.forEach((p, i) => {
          const color = PALETTE[i % PALETTE.length];
          svg('polyline', {class: 'pattern', stroke: color, points: p.points.map(([x, y]) =>
            plot.px(x).toFixed(1) + ',' + plot.py(y).toFixed(1)).join(' ')}, layer);
          for (const [x, y] of p.points) {
            const dot = svg('circle', {class: 'sweep-point', cx: plot.px(x), cy: plot.py(y),
              r: device ? 4 : 2.5, fill: color}, layer);
            bindSweepTip(dot, p.pattern, x, y);
          }
        });
      },
    });
    const legend = html('ul', {class: 'legend'}, null, section);
    patterns.forEach((p, i) => {
      const li = html('li', {}, null, legend);
      html('span', {class: 'swatch c' + (i % PALETTE.length)}, null, li);
      li.appendChild(document.createTextNode(' ' + p.pattern));
    });
  },
};

function bindSweepTip(dot, pattern, x, y) {
  const rows = () => [['working set', bytesText(x)], ['GB/s', sig(y, 4)]];
  dot.addEventListener('mouseenter', () => Tooltip.show(dot, pattern, rows()));
  dot.addEventListener('mouseleave', () => Tooltip.hide(dot));
}
