  // The plots of a case's series: part of report.js's function, inserted by HtmlTemplate where report.js says
  // "@include report-plots.js" (a separate file only to keep each under 700 lines); it uses report.js's helpers.

  function ticks(lo, hi, count) {
    const span = hi - lo;
    const raw = span / count;
    const magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    const norm = raw / magnitude;
    const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude;
    const out = [];
    for (let v = Math.floor(lo / step) * step; v <= Math.ceil(hi / step) * step + step * 1e-9; v += step) {
      out.push(Number(v.toPrecision(12)));
    }
    return out;
  }

  function formatNumber(v) {
    const a = Math.abs(v);
    return a !== 0 && (a >= 1e6 || a < 1e-3) ? v.toExponential(2) : String(Number(v.toPrecision(6)));
  }

  function plot(c, series) {
    const names = Object.keys(series);
    const width = 760;
    const height = 320;
    const ml = 70;
    const mr = 190;
    const mt = 14;
    const mb = 46;
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = 0;
    let y1 = -Infinity;
    names.forEach(function (name) {
      series[name].forEach(function (p) {
        if (p && typeof p[0] === 'number' && typeof p[1] === 'number') {
          x0 = Math.min(x0, p[0]);
          x1 = Math.max(x1, p[0]);
          y0 = Math.min(y0, p[1]);
          y1 = Math.max(y1, p[1]);
        }
      });
    });
    if (!isFinite(x0)) {
      return h('p', { class: 'meta' }, 'The series hold no points.');
    }
    if (x1 === x0) {
      x1 = x0 + 1;
    }
    if (!(y1 > y0)) {
      y1 = y0 + 1;
    }
    const xt = ticks(x0, x1, 6);
    const yt = ticks(y0, y1, 5);
    x0 = xt[0];
    x1 = xt[xt.length - 1];
    y0 = yt[0];
    y1 = yt[yt.length - 1];
    const sx = function (x) {
      return ml + (x - x0) / (x1 - x0) * (width - ml - mr);
    };
    const sy = function (y) {
      return height - mb - (y - y0) / (y1 - y0) * (height - mt - mb);
    };
    const svg = s('svg', { class: 'plot', width: width, height: height, viewBox: '0 0 ' + width + ' ' + height,
      role: 'img', 'aria-label': 'series of ' + c.id });
    xt.forEach(function (t) {
      add(svg, [s('line', { x1: sx(t), y1: mt, x2: sx(t), y2: height - mb, class: 'grid' }),
        s('text', { x: sx(t), y: height - mb + 16, 'text-anchor': 'middle', class: 'tick' }, formatNumber(t))]);
    });
    yt.forEach(function (t) {
      add(svg, [s('line', { x1: ml, y1: sy(t), x2: width - mr, y2: sy(t), class: 'grid' }),
        s('text', { x: ml - 6, y: sy(t) + 4, 'text-anchor': 'end', class: 'tick' }, formatNumber(t))]);
    });
    add(svg, [s('line', { x1: ml, y1: height - mb, x2: width - mr, y2: height - mb, class: 'axis' }),
      s('line', { x1: ml, y1: mt, x2: ml, y2: height - mb, class: 'axis' }),
      s('text', { x: (ml + width - mr) / 2, y: height - 8, 'text-anchor': 'middle', class: 'axis-title' }, 'time'),
      s('text', { x: 14, y: (mt + height - mb) / 2, 'text-anchor': 'middle', class: 'axis-title',
        transform: 'rotate(-90 14 ' + (mt + height - mb) / 2 + ')' }, 'value')]);
    names.forEach(function (name, i) {
      const color = PALETTE[i % PALETTE.length];
      let d = '';
      let pen = 'M';
      series[name].forEach(function (p) {
        if (p && typeof p[0] === 'number' && typeof p[1] === 'number') {
          d += pen + sx(p[0]).toFixed(1) + ' ' + sy(p[1]).toFixed(1) + ' ';
          pen = 'L';
        } else {
          pen = 'M';
        }
      });
      add(svg, s('path', { d: d.trim() || 'M0 0', class: 'series', stroke: color, 'data-series': name },
        s('title', null, name)));
      const ly = mt + 10 + i * 16;
      add(svg, s('g', { class: 'legend' }, [
        s('rect', { x: width - mr + 14, y: ly - 8, width: 14, height: 4, fill: color }),
        s('text', { x: width - mr + 34, y: ly - 2 }, name)]));
    });
    return svg;
  }


  // ---- congestion plots of requester cases: per QP its window rate (<qp>.rate_mbps), the harness's DCQCN model Rc
  // (<qp>.model_rc_mbps, a step function: each point holds until the next) and the CNPs it received (<qp>.cnp), and
  // the switch queue (switch.queue_bytes) in a second plot on the same time axis; times in microseconds ----
  const CC_SERIES = /^(.+)\.(rate_mbps|model_rc_mbps|cnp)$/;
  const CC_COLORS = { rate: '#0969da', rc: '#1a7f37', cnp: '#cf222e', queue: '#8250df' };

  function congestionSeries(series) {
    const byQp = {};
    const qps = [];
    const rest = {};
    let queue = null;
    Object.keys(series).forEach(function (name) {
      const m = CC_SERIES.exec(name);
      if (name === 'switch.queue_bytes') {
        queue = series[name];
      } else if (m) {
        if (!byQp[m[1]]) {
          byQp[m[1]] = { name: m[1] };
          qps.push(byQp[m[1]]);
        }
        byQp[m[1]][m[2]] = series[name];
      } else {
        rest[name] = series[name];
      }
    });
    return { qps: qps, queue: queue, rest: rest };
  }

  function points(list) {
    return (list || []).filter(function (p) {
      return p && typeof p[0] === 'number' && isFinite(p[0]) && typeof p[1] === 'number' && isFinite(p[1]);
    });
  }

  // an empty chart: grid, ticks and axis titles over [x0, x1] x [0, ymax]; returns the svg and its scales
  function chart(label, xt, yMax, height, yTitle) {
    const width = 760;
    const ml = 78;
    const mr = 190;
    const mt = 12;
    const mb = 40;
    const yt = ticks(0, yMax > 0 ? yMax : 1, height > 200 ? 5 : 3);
    const x0 = xt[0];
    const x1 = xt[xt.length - 1];
    const y1 = yt[yt.length - 1];
    const g = { width: width, height: height, left: ml, right: width - mr, top: mt, bottom: height - mb };
    g.sx = function (x) {
      return g.left + (x - x0) / (x1 - x0) * (g.right - g.left);
    };
    g.sy = function (y) {
      return g.bottom - y / y1 * (g.bottom - g.top);
    };
    g.svg = s('svg', { class: 'plot cc', width: width, height: height, viewBox: '0 0 ' + width + ' ' + height,
      role: 'img', 'aria-label': label });
    xt.forEach(function (t) {
      add(g.svg, [s('line', { x1: g.sx(t).toFixed(1), y1: g.top, x2: g.sx(t).toFixed(1), y2: g.bottom,
        class: 'grid' }), s('text', { x: g.sx(t).toFixed(1), y: g.bottom + 15, 'text-anchor': 'middle',
        class: 'tick' }, formatNumber(t))]);
    });
    yt.forEach(function (t) {
      add(g.svg, [s('line', { x1: g.left, y1: g.sy(t).toFixed(1), x2: g.right, y2: g.sy(t).toFixed(1),
        class: 'grid' }), s('text', { x: g.left - 6, y: (g.sy(t) + 4).toFixed(1), 'text-anchor': 'end',
        class: 'tick' }, formatNumber(t))]);
    });
    const mid = (g.top + g.bottom) / 2;
    add(g.svg, [s('line', { x1: g.left, y1: g.bottom, x2: g.right, y2: g.bottom, class: 'axis' }),
      s('line', { x1: g.left, y1: g.top, x2: g.left, y2: g.bottom, class: 'axis' }),
      s('text', { x: (g.left + g.right) / 2, y: height - 6, 'text-anchor': 'middle', class: 'axis-title' },
        'time since the case started (µs)'),
      s('text', { x: 14, y: mid, 'text-anchor': 'middle', class: 'axis-title',
        transform: 'rotate(-90 14 ' + mid + ')' }, yTitle)]);
    g.legend = 0;
    return g;
  }

  function legend(g, cls, color, label, marker) {
    const y = g.top + 10 + g.legend * 16;
    g.legend++;
    add(g.svg, s('g', { class: 'legend', 'data-legend': cls }, [marker === 'tick'
      ? s('line', { x1: g.right + 21, y1: y - 10, x2: g.right + 21, y2: y, stroke: color, class: cls })
      : s('line', { x1: g.right + 14, y1: y - 5, x2: g.right + 28, y2: y - 5, stroke: color, class: 'series ' + cls }),
    s('text', { x: g.right + 34, y: y - 1 }, label)]));
  }

  function line(list, g) {
    return list.map(function (p, i) {
      return (i ? 'L' : 'M') + g.sx(p[0]).toFixed(1) + ' ' + g.sy(p[1]).toFixed(1);
    }).join(' ');
  }

  // Rc holds from each point to the next, the last one to the end of the time axis
  function steps(list, g, end) {
    let d = '';
    list.forEach(function (p, i) {
      const x = g.sx(p[0]).toFixed(1);
      const y = g.sy(p[1]).toFixed(1);
      d += i ? ' L' + x + ' ' + g.sy(list[i - 1][1]).toFixed(1) + ' L' + x + ' ' + y : 'M' + x + ' ' + y;
    });
    return list.length ? d + ' L' + g.sx(end).toFixed(1) + ' ' + g.sy(list[list.length - 1][1]).toFixed(1) : '';
  }

  function congestionPlots(c, groups) {
    let t0 = 0;
    let t1 = -Infinity;
    const all = [];
    groups.qps.forEach(function (qp) {
      all.push(points(qp.rate_mbps), points(qp.model_rc_mbps), points(qp.cnp));
    });
    all.push(points(groups.queue));
    all.forEach(function (list) {
      list.forEach(function (p) {
        t0 = Math.min(t0, p[0]);
        t1 = Math.max(t1, p[0]);
      });
    });
    if (!isFinite(t1)) {
      return h('p', { class: 'meta' }, 'The congestion series hold no points.');
    }
    const xt = ticks(t0, t1 > t0 ? t1 : t0 + 1, 6);
    const end = xt[xt.length - 1];
    const box = h('div', { class: 'cc-plots' });
    groups.qps.forEach(function (qp) {
      const rate = points(qp.rate_mbps);
      const rc = points(qp.model_rc_mbps);
      const cnps = points(qp.cnp);
      let yMax = 0;
      rate.concat(rc).forEach(function (p) {
        yMax = Math.max(yMax, p[1]);
      });
      const g = chart('rate of ' + qp.name + ' in ' + c.id, xt, yMax, 260, 'rate (Mb/s)');
      if (rc.length) {
        add(g.svg, s('path', { d: steps(rc, g, end), class: 'series rc', stroke: CC_COLORS.rc,
          'data-series': qp.name + '.model_rc_mbps' }, s('title', null, 'model Rc of ' + qp.name + ' (Mb/s): '
          + rc.map(function (p) {
            return formatNumber(p[1]) + ' from ' + formatNumber(p[0]) + ' µs';
          }).join(', '))));
        legend(g, 'rc', CC_COLORS.rc, 'model Rc (Mb/s)');
      }
      if (rate.length) {
        add(g.svg, s('path', { d: line(rate, g), class: 'series rate', stroke: CC_COLORS.rate,
          'data-series': qp.name + '.rate_mbps' }, s('title', null, 'window rate of ' + qp.name + ' (Mb/s, 16 packets'
          + ' each, at the time of the 17th): ' + rate.length + ' windows')));
        legend(g, 'rate', CC_COLORS.rate, 'window rate (Mb/s)');
      }
      if (cnps.length) {
        const marks = s('g', { class: 'cnps', 'data-series': qp.name + '.cnp', 'data-count': cnps.length });
        cnps.forEach(function (p) {
          const x = g.sx(p[0]).toFixed(1);
          add(marks, s('line', { x1: x, y1: g.bottom, x2: x, y2: g.bottom - 10, stroke: CC_COLORS.cnp, class: 'cnp',
            'data-time': p[0] }, s('title', null, 'CNP at ' + formatNumber(p[0]) + ' µs')));
        });
        add(g.svg, marks);
        legend(g, 'cnp', CC_COLORS.cnp, 'CNP received (' + cnps.length + ')', 'tick');
      }
      add(box, [h('h4', null, qp.name + ': window rate, model Rc and CNPs'), g.svg]);
    });
    const queue = points(groups.queue);
    if (queue.length) {
      let qMax = 0;
      queue.forEach(function (p) {
        qMax = Math.max(qMax, p[1]);
      });
      const g = chart('switch queue in ' + c.id, xt, qMax, 170, 'queue (bytes)');
      add(g.svg, s('path', { d: line(queue, g), class: 'series queue', stroke: CC_COLORS.queue,
        'data-series': 'switch.queue_bytes' }, s('title', null, 'switch queue (bytes) at each arrival: largest '
        + formatNumber(qMax))));
      legend(g, 'queue', CC_COLORS.queue, 'switch queue (bytes)');
      add(box, [h('h4', null, 'switch egress queue'), g.svg]);
    }
    return box;
  }
