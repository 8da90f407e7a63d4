(function () {
  'use strict';

  // Errors of this page are recorded on <body> so that a headless browser's DOM dump shows them.
  const errors = [];
  function recordError(text) {
    errors.push(String(text));
    if (document.body) {
      document.body.dataset.errors = errors.join('\n');
    }
  }
  const originalConsoleError = console.error;
  console.error = function () {
    recordError(Array.prototype.map.call(arguments, String).join(' '));
    return originalConsoleError.apply(console, arguments);
  };
  window.addEventListener('error', function (event) {
    recordError('error: ' + event.message);
  });
  window.addEventListener('securitypolicyviolation', function (event) {
    recordError('blocked by the content security policy: ' + event.violatedDirective + ' ' + event.blockedURI);
  });

  const VERDICTS = ['NOT_APPLICABLE', 'PASS', 'WARN', 'INCONCLUSIVE', 'FAIL', 'ERROR'];
  const SVG_NS = 'http://www.w3.org/2000/svg';
  const PALETTE = ['#0969da', '#cf222e', '#1a7f37', '#9a6700', '#8250df', '#bc4c00', '#57606a', '#1b7c83'];

  // ---- DOM helpers: every string from the data goes through text nodes or setAttribute, never through HTML ----
  function fill(node, attrs, children) {
    if (attrs) {
      Object.keys(attrs).forEach(function (name) {
        const value = attrs[name];
        if (value !== null && value !== undefined && value !== false) {
          node.setAttribute(name, value === true ? '' : String(value));
        }
      });
    }
    add(node, children);
    return node;
  }
  function add(node, children) {
    if (children === null || children === undefined || children === false) {
      return node;
    }
    (Array.isArray(children) ? children : [children]).forEach(function (child) {
      if (child === null || child === undefined || child === false) {
        return;
      }
      node.appendChild(typeof child === 'object' && child.nodeType ? child : document.createTextNode(String(child)));
    });
    return node;
  }
  function h(tag, attrs, children) {
    return fill(document.createElement(tag), attrs, children);
  }
  function s(tag, attrs, children) {
    return fill(document.createElementNS(SVG_NS, tag), attrs, children);
  }
  function token(value) {
    return String(value).replace(/[^A-Za-z0-9_-]/g, '');
  }
  function badge(verdict) {
    return h('span', { class: 'badge v-' + token(verdict) }, verdict);
  }
  function text(value) {
    return value === null || value === undefined ? '' : String(value);
  }
  function micros(nanos) {
    return (Number(nanos) / 1000).toFixed(3);
  }
  function millis(nanos) {
    return (Number(nanos) / 1e6).toFixed(3) + ' ms';
  }

  const report = JSON.parse(document.getElementById('mrct-report').textContent);
  const spec = JSON.parse(document.getElementById('mrct-spec').textContent);
  const ruleTexts = (spec && spec.rules) || {};
  function fragment() {
    try {
      return decodeURIComponent(window.location.hash.replace(/^#/, ''));
    } catch (e) {
      return '';
    }
  }
  const expandAll = fragment() === 'expand';

  // ---- header: overall verdict, run, counts ----
  function renderHeader(app) {
    const run = report.run;
    document.title = 'mrct ' + report.overall + ': ' + [run.vendor, run.model].filter(Boolean).join(' ');
    add(app, h('h1', null, 'MetaRoCE conformance report'));
    add(app, h('p', null, [h('span', { class: 'overall ' + token(report.overall), id: 'overall' }, report.overall),
      ' ', h('span', null, report.reason)]));
    if (!report.complete) {
      add(app, h('p', { class: 'banner', id: 'incomplete' }, report.finished
        ? 'Incomplete run: it stopped after ' + report.cases.length + ' of ' + run.caseCount
          + ' cases. The verdicts below cover only the cases that ran.'
        : 'Partial report: the run has not finished (' + report.cases.length + ' of ' + run.caseCount
          + ' cases so far). Reload when it has.'));
    }
    const info = [
      ['device', [run.vendor, run.model].filter(Boolean).join(' ')], ['firmware', run.firmware],
      ['adapter', run.adapter], ['profile', text(run.profile) + (run.profileHash ? ' (sha256 ' + run.profileHash + ')' : '')],
      ['PICS', (run.pics || []).join(', ')], ['parameters', params(run.parameters)], ['seed', run.seed],
      ['strict', run.strict ? 'yes (SHOULD failures gate)' : 'no'], ['fault profile', run.fault || 'none'],
      ['selection', (run.selection || []).join(' ') || 'all cases'], ['specification', run.specVersion],
      ['suite', run.suiteVersion], ['started', run.start], ['ended', report.end || 'not yet']];
    const dl = h('dl', { class: 'info' });
    info.forEach(function (row) {
      add(dl, [h('dt', null, row[0]), h('dd', null, text(row[1]))]);
    });
    return dl;
  }

  // the run's facts, folded: the page opens on the failures
  function renderRun(app, dl) {
    add(app, h('details', { id: 'run', class: 'run' }, [h('summary', null, h('h2', null, 'Run')), dl]));
  }

  function params(map) {
    if (!map) {
      return '';
    }
    return Object.keys(map).map(function (key) {
      const value = map[key];
      return key + '=' + (typeof value === 'object' && value !== null ? JSON.stringify(value) : text(value));
    }).join(', ');
  }

  function renderCounts(app, setVerdictFilter) {
    add(app, h('h2', null, 'Counts'));
    const table = h('table', { id: 'counts' }, h('tr', null, [h('th', null, 'verdict'), h('th', null, 'cases')]));
    VERDICTS.forEach(function (verdict) {
      const count = report.counts[verdict] || 0;
      const link = h('a', { href: '#cases', title: 'show only ' + verdict + ' cases' }, badge(verdict));
      link.addEventListener('click', function () {
        setVerdictFilter(verdict);
      });
      add(table, h('tr', { 'data-verdict': verdict }, [h('td', null, link), h('td', { class: 'num' }, count)]));
    });
    add(table, h('tr', null, [h('td', null, 'total'), h('td', { class: 'num' }, report.cases.length)]));
    add(app, table);
  }

  function renderBaseline(app) {
    const baseline = report.baseline;
    if (!baseline) {
      return;
    }
    add(app, h('h2', null, 'Against the baseline ' + text(baseline.baseline)));
    const table = h('table', { id: 'baseline' });
    [['newly failing', baseline.newlyFailing], ['newly passing', baseline.newlyPassing],
      ['stale entries', baseline.stale], ['known failures', baseline.known]].forEach(function (row) {
      add(table, h('tr', null, [h('th', null, row[0] + ' (' + row[1].length + ')'),
        h('td', { class: 'mono' }, row[1].join(', ') || 'none')]));
    });
    add(app, table);
  }

  // ---- the failing cases, first thing after their root causes: where each failed ----
  const FAILING_MAX = 50;
  let openAt = function () {};

  function caseLink(id, caseAnchors) {
    if (caseAnchors[id] === undefined) {
      return id;
    }
    const index = caseAnchors[id];
    const link = h('a', { href: '#c-' + index }, id);
    link.addEventListener('click', function () {
      openAt(index);
    });
    return link;
  }

  function renderFailing(app, caseAnchors) {
    const failing = report.cases.filter(function (c) {
      return c.verdict === 'FAIL' || c.verdict === 'ERROR' || c.verdict === 'WARN';
    });
    if (!failing.length) {
      return;
    }
    add(app, h('h2', null, 'Failing cases (' + failing.length + ')'));
    const table = h('table', { id: 'failing' }, h('tr', null, ['verdict', 'case', 'rule', 'step',
      'frame in evidence.pcapng', 'reason'].map(function (title) {
      return h('th', null, title);
    })));
    failing.slice(0, FAILING_MAX).forEach(function (c) {
      const f = c.failure;
      add(table, h('tr', { 'data-failing': c.id }, [h('td', null, badge(c.verdict)),
        h('td', { class: 'mono small' }, caseLink(c.id, caseAnchors)), h('td', { class: 'mono' }, f ? f.rule : ''),
        h('td', { class: 'num' }, f && f.step > 0 ? String(f.step) : ''),
        h('td', { class: 'num' }, f && f.pcapngFrame ? String(f.pcapngFrame) : ''),
        h('td', { class: 'small' }, text(c.reason))]));
    });
    add(app, table);
    if (failing.length > FAILING_MAX) {
      add(app, h('p', { class: 'meta' }, 'and ' + (failing.length - FAILING_MAX)
        + ' more: filter the cases below by verdict.'));
    }
  }

  // ---- root causes: the failures grouped by the rule they blame, the field and the cause ----
  function renderRootCauses(app, caseAnchors) {
    const groups = {};
    const keys = [];
    report.cases.forEach(function (c) {
      if ((c.verdict !== 'FAIL' && c.verdict !== 'WARN') || !c.failure) {
        return;
      }
      const f = c.failure;
      const key = [f.rule, f.field || '', f.cause || ''].join('\u0000');
      if (!groups[key]) {
        groups[key] = { rule: f.rule, field: f.field || '', cause: f.cause || '', cases: [] };
        keys.push(key);
      }
      groups[key].cases.push(c.id);
    });
    if (!keys.length) {
      return;
    }
    const list = keys.map(function (key) {
      return groups[key];
    }).sort(function (a, b) {
      return b.cases.length - a.cases.length || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
    });
    add(app, h('h2', null, 'Root causes (' + list.length + ')'));
    const table = h('table', { id: 'causes' }, h('tr', null, ['cases', 'rule', 'field', 'cause', 'failing cases']
      .map(function (title) {
        return h('th', null, title);
      })));
    list.forEach(function (group) {
      const known = ruleTexts[group.rule];
      const cases = h('td', { class: 'mono small' });
      group.cases.slice(0, 20).forEach(function (id, i) {
        if (i > 0) {
          add(cases, ', ');
        }
        add(cases, caseLink(id, caseAnchors));
      });
      if (group.cases.length > 20) {
        add(cases, ' and ' + (group.cases.length - 20) + ' more');
      }
      add(table, h('tr', { 'data-cause': group.rule }, [h('td', null, String(group.cases.length)),
        h('td', { class: 'mono', title: known ? known.text : 'not in the bundled specification' }, group.rule),
        h('td', { class: 'mono' }, group.field), h('td', null, group.cause), cases]));
    });
    add(app, table);
  }

  // ---- the rule matrix ----
  function renderRules(app, caseAnchors) {
    const fold = h('details', { id: 'matrix', class: 'matrix' }, h('summary', null, h('h2', null, 'Rule matrix ('
      + report.rules.length + ' rules)')));
    add(app, fold);
    app = fold;
    if (!report.rules.length) {
      add(app, h('p', { class: 'meta' }, 'No rule has been covered yet.'));
      return;
    }
    const table = h('table', { id: 'rules' }, h('tr', null, ['rule', 'level', 'role', 'applicable', 'cases',
      'worst verdict'].map(function (title) {
      return h('th', null, title);
    })));
    report.rules.forEach(function (rule) {
      const known = ruleTexts[rule.rule];
      const cases = h('td', { class: 'mono small' });
      rule.cases.forEach(function (id, i) {
        if (i > 0) {
          add(cases, ', ');
        }
        add(cases, caseAnchors[id] !== undefined ? h('a', { href: '#c-' + caseAnchors[id] }, id) : id);
      });
      add(table, h('tr', { 'data-rule': rule.rule }, [
        h('td', { class: 'mono', title: known ? known.text : 'not in the bundled specification' }, rule.rule),
        h('td', null, rule.level), h('td', null, rule.role), h('td', null, rule.applicable ? 'yes' : 'no'),
        cases, h('td', null, badge(rule.verdict))]));
    });
    add(app, table);
  }

  // ---- one case ----
  function frameMarks(frame) {
    const d = frame.decoded || {};
    const note = text(frame.note).toLowerCase();
    const marks = [];
    if (d.ip && d.ip.ecn === 3) {
      marks.push('CE');
    }
    if (d.icrc && d.icrc.valid === false) {
      marks.push('ICRC bad');
    }
    if (note === 'unexpected' || note === 'left over') {
      marks.push('unexpected');
    }
    if (note.indexOf('drop') >= 0) {
      marks.push('dropped');
    }
    return marks;
  }

  function frameLabel(frame) {
    const d = frame.decoded || {};
    if (d.bth) {
      return text(d.bth.opname) + ' PSN ' + text(d.bth.psn);
    }
    if (d.error) {
      return 'malformed (' + text(d.error.reason) + ')';
    }
    return d.roce === false ? 'not RoCE' : 'frame';
  }

  // a frame as the report names it: its number in evidence.pcapng (as Wireshark shows it), else its index in the case
  function frameName(frame) {
    return frame.pcapngFrame ? 'frame ' + frame.pcapngFrame : '#' + frame.index;
  }

  function frameTitle(frame) {
    return (frame.pcapngFrame ? 'frame ' + frame.pcapngFrame + ' in evidence.pcapng (#' + frame.index
      + ' of the case)' : 'frame #' + frame.index + ' of the case') + ', ' + frame.direction + ', '
      + (frame.step > 0 ? 'step ' + frame.step : 'no step') + ', ' + text(frame.note);
  }

  // at most LADDER_MAX arrows: those around the failure (a case recorded with every frame can have hundreds of
  // thousands); the page says where the others are
  const LADDER_MAX = 200;

  function ladderFrames(c) {
    const frames = c.evidence;
    if (frames.length <= LADDER_MAX) {
      return frames;
    }
    let at = frames.length - 1;
    if (c.failure && c.failure.frame >= 0) {
      frames.forEach(function (frame, i) {
        if (frame.index === c.failure.frame) {
          at = i;
        }
      });
    }
    const first = Math.max(0, Math.min(at - LADDER_MAX * 3 / 4, frames.length - LADDER_MAX));
    return frames.slice(first, first + LADDER_MAX);
  }

  // what of the case's frames the ladder shows, and where the rest are
  function framesNote(c, shown) {
    if (!shown.length) {
      return null;
    }
    const total = c.evidenceFrames;
    const a = shown[0];
    const b = shown[shown.length - 1];
    if (shown.length >= total) {
      return c.pcapngFrames ? 'Frames ' + c.pcapngFrames.first + '-' + c.pcapngFrames.last + ' in evidence.pcapng.'
        : null;
    }
    let note = 'Showing ' + shown.length + ' of the case\'s ' + total + ' frames, #' + a.index + '-#' + b.index
      + (a.pcapngFrame ? ' (frames ' + a.pcapngFrame + '-' + b.pcapngFrame + ' in evidence.pcapng)' : '')
      + ', around the failure.';
    if (c.pcapngFrames) {
      note += ' See frames ' + c.pcapngFrames.first + '-' + c.pcapngFrames.last
        + ' in evidence.pcapng for all of them.';
    } else {
      note += ' All of them are in evidence.pcapng.';
    }
    return note;
  }

  function ladder(c, frames) {
    const width = 860;
    const left = 250;
    const right = 760;
    const top = 50;
    const row = 30;
    const height = top + frames.length * row + 10;
    const svg = s('svg', { class: 'ladder', width: width, height: height, viewBox: '0 0 ' + width + ' ' + height,
      role: 'img', 'aria-label': 'ladder diagram of ' + c.id });
    add(svg, [
      s('text', { x: 8, y: 18, class: 'time' }, 'time (µs)'),
      s('text', { x: left, y: 18, 'text-anchor': 'middle', class: 'actor' }, 'harness'),
      s('text', { x: right, y: 18, 'text-anchor': 'middle', class: 'actor' }, 'DUT'),
      s('line', { x1: left, y1: 26, x2: left, y2: height - 4, class: 'lifeline' }),
      s('line', { x1: right, y1: 26, x2: right, y2: height - 4, class: 'lifeline' })]);
    frames.forEach(function (frame, i) {
      const y = top + i * row + 8;
      const toDut = frame.direction === 'TO_DUT';
      const from = toDut ? left : right;
      const to = toDut ? right : left;
      const marks = frameMarks(frame);
      const dropped = marks.indexOf('dropped') >= 0;
      const classes = ['arrow'];
      if (marks.indexOf('unexpected') >= 0) {
        classes.push('unexpected');
      }
      if (dropped) {
        classes.push('dropped');
      }
      const group = s('g', { class: classes.join(' '), 'data-frame': frame.index });
      if (c.failure && c.failure.frame === frame.index) {
        add(group, s('rect', { x: 70, y: y - row + 6, width: width - 74, height: row, class: 'hl' }));
      }
      add(group, s('title', null, frameTitle(frame)));
      const end = dropped ? (from + to) / 2 : to;
      add(group, s('line', { x1: from, y1: y, x2: end, y2: y }));
      if (dropped) {
        add(group, [s('line', { x1: end - 6, y1: y - 6, x2: end + 6, y2: y + 6, class: 'drop' }),
          s('line', { x1: end - 6, y1: y + 6, x2: end + 6, y2: y - 6, class: 'drop' })]);
      } else {
        const dir = toDut ? -1 : 1;
        add(group, s('polygon', { points: to + ',' + y + ' ' + (to + dir * 9) + ',' + (y - 4) + ' ' + (to + dir * 9)
          + ',' + (y + 4) }));
      }
      const label = s('text', { x: (left + right) / 2, y: y - 5, 'text-anchor': 'middle', class: 'label' },
        frameLabel(frame));
      marks.forEach(function (mark) {
        add(label, s('tspan', { class: 'mark' }, ' [' + mark + ']'));
      });
      add(group, label);
      add(group, s('text', { x: 8, y: y + 4, class: 'time' }, micros(frame.timestampNanos)));
      add(group, s('text', { x: 96, y: y + 4, class: 'time' }, frameName(frame) + ' ' + text(frame.note)));
      add(svg, group);
    });
    return svg;
  }

  // @include report-plots.js (HtmlTemplate inserts it here: the plots of a case's series)

  function renderCaseBody(c, body) {
    const facts = ['file ' + text(c.file), 'area ' + text(c.area), text(c.level), text(c.role),
      c.attempts + (c.attempts === 1 ? ' attempt' : ' attempts'), 'wall ' + millis(c.wallNanos),
      'device ' + millis(c.deviceNanos)];
    add(body, h('p', { class: 'meta' }, facts.join(' · ')));
    if (Object.keys(c.parameters).length) {
      add(body, h('p', null, [h('b', null, 'parameters: '), h('span', { class: 'mono' }, params(c.parameters))]));
    }
    add(body, h('h3', null, 'Rules'));
    c.rules.forEach(function (id) {
      const rule = ruleTexts[id];
      add(body, h('p', { class: 'rule-text', 'data-rule': id }, [h('span', { class: 'rid' }, id),
        rule ? ' (' + rule.level + ', ' + rule.role + (rule.pics ? ', if ' + rule.pics : '') + ') ' + rule.text
          : ' (text not in the bundled specification)']));
    });
    add(body, h('h3', null, 'Verdict'));
    add(body, h('p', null, [badge(c.verdict), ' ', h('span', { class: 'reason' }, c.reason)]));
    const f = c.failure;
    if (f) {
      add(body, h('h3', null, 'Failure'));
      const dl = h('dl', { class: 'info failure' });
      [['rule', f.rule], ['step', f.step > 0 ? f.step + (f.stepLine > 0 ? ' (line ' + f.stepLine + ')' : '') + ': '
        + text(f.stepDescription) : 'not tied to a step'],
      ['frame', f.frame < 0 ? 'none (nothing arrived)' : f.pcapngFrame ? f.pcapngFrame + ' in evidence.pcapng (#'
        + f.frame + ' of the case)' : '#' + f.frame + ' of the case'],
      ['message', f.message]].forEach(function (row) {
        add(dl, [h('dt', null, row[0]), h('dd', null, text(row[1]))]);
      });
      add(body, dl);
      if (f.diffs.length) {
        const table = h('table', { class: 'diff' }, h('tr', null, [h('th', null, 'field'), h('th', null, 'expected'),
          h('th', null, 'actual')]));
        f.diffs.forEach(function (diff) {
          add(table, h('tr', null, [h('td', { class: 'mono' }, diff.field), h('td', { class: 'mono exp' }, diff.expected),
            h('td', { class: 'mono act' }, diff.actual)]));
        });
        add(body, table);
      }
      if (f.expectedFrame) {
        add(body, [h('h3', null, 'Expected frame'), h('pre', null, f.expectedFrame)]);
      }
      if (f.actualFrame) {
        add(body, [h('h3', null, 'Actual frame'), h('pre', null, f.actualFrame)]);
      }
    }
    if (Object.keys(c.series).length) {
      const groups = congestionSeries(c.series);
      add(body, h('h3', null, 'Series'));
      if (groups.qps.length || groups.queue) {
        add(body, congestionPlots(c, groups));
      }
      if (Object.keys(groups.rest).length) {
        add(body, plot(c, groups.rest));
      }
    }
    add(body, h('h3', null, 'Frames (' + c.evidenceFrames + ')'));
    const shown = ladderFrames(c);
    const note = framesNote(c, shown);
    if (note) {
      add(body, h('p', { class: 'meta frames-note' }, note));
    }
    add(body, shown.length ? ladder(c, shown) : h('p', { class: 'meta' }, c.evidenceFrames
      ? 'The frames of this case are in evidence.pcapng' + (c.pcapngFrames ? ' (frames ' + c.pcapngFrames.first
        + '-' + c.pcapngFrames.last + ')' : '') + '.' : 'No frame was exchanged.'));
    if (c.notes.length) {
      add(body, [h('h3', null, 'Notes'), h('ul', null, c.notes.map(function (note) {
        return h('li', null, note);
      }))]);
    }
    if ((c.notChecked || []).length) {
      add(body, [h('h3', null, 'Not checked under this profile'), h('ul', null, c.notChecked.map(function (n) {
        return h('li', null, 'line ' + n.line + ' (' + n.step + '): ' + n.reason);
      }))]);
    }
    if (c.evidence.length) {
      const raw = h('details', { class: 'raw' }, h('summary', null, 'frames: bytes and decoded fields'));
      const fillRaw = function () {
        if (raw.dataset.filled) {
          return;
        }
        raw.dataset.filled = 'yes';
        const table = h('table', { class: 'frames' }, h('tr', null, ['frame', '#', 'direction', 'time (µs)', 'step',
          'note', 'bytes', 'decoded'].map(function (title) {
          return h('th', null, title);
        })));
        c.evidence.forEach(function (frame) {
          add(table, h('tr', null, [h('td', { class: 'num' }, frame.pcapngFrame || ''),
            h('td', { class: 'num' }, frame.index), h('td', null, frame.direction),
            h('td', { class: 'num' }, micros(frame.timestampNanos)), h('td', { class: 'num' }, frame.step || ''),
            h('td', null, frame.note), h('td', null, h('pre', null, frame.bytes.replace(/(.{32})/g, '$1\n')
              + (frame.bytesLength ? '\n(first ' + frame.bytes.length / 2 + ' of ' + frame.bytesLength
                + ' bytes; the whole frame is in report.json and evidence.pcapng)' : ''))),
            h('td', null, h('pre', null, JSON.stringify(frame.decoded, null, 1)))]));
        });
        add(raw, table);
      };
      raw.addEventListener('toggle', function () {
        if (raw.open) {
          fillRaw();
        }
      });
      if (expandAll) {
        fillRaw();
        raw.open = true;
      }
      add(body, raw);
    }
  }

  // ---- the case list and its filters ----
  function renderCases(app) {
    add(app, h('h2', { id: 'cases' }, 'Cases'));
    const areas = [];
    report.cases.forEach(function (c) {
      if (areas.indexOf(c.area) < 0) {
        areas.push(c.area);
      }
    });
    const areaSelect = h('select', { id: 'filter-area' }, h('option', { value: '' }, 'all areas'));
    areas.forEach(function (area) {
      add(areaSelect, h('option', { value: area }, area));
    });
    const verdictBoxes = {};
    const verdictLabels = VERDICTS.map(function (verdict) {
      const box = h('input', { type: 'checkbox', checked: true, id: 'filter-' + verdict, value: verdict });
      verdictBoxes[verdict] = box;
      return h('label', null, [box, ' ', badge(verdict)]);
    });
    const search = h('input', { type: 'search', id: 'filter-text', placeholder: 'ID, title, rule or reason' });
    const shown = h('span', { id: 'shown', class: 'meta' });
    const openFailing = h('button', { type: 'button' }, 'open failing');
    const closeAll = h('button', { type: 'button' }, 'close all');
    add(app, h('div', { class: 'filters' }, [h('label', null, ['area ', areaSelect])].concat(verdictLabels,
      [h('label', null, ['find ', search]), openFailing, closeAll, shown])));
    const list = h('div', { id: 'case-list' });
    const entries = report.cases.map(function (c, index) {
      const details = h('details', { class: 'case', id: 'c-' + index, 'data-area': c.area, 'data-verdict': c.verdict,
        'data-case': c.id });
      add(details, h('summary', null, [badge(c.verdict), h('span', { class: 'case-id' }, c.id),
        h('span', { class: 'case-title' }, c.title), h('span', { class: 'case-reason' }, c.reason)]));
      const body = h('div', { class: 'body' });
      add(details, body);
      const entry = { c: c, details: details, body: body, filled: false,
        haystack: [c.id, c.title, c.reason, c.rules.join(' ')].join(' ').toLowerCase() };
      details.addEventListener('toggle', function () {
        if (details.open) {
          fillCase(entry);
        }
      });
      add(list, details);
      return entry;
    });
    add(app, list);
    if (!entries.length) {
      add(list, h('p', { class: 'meta' }, 'No case has finished yet.'));
    }

    function apply() {
      const area = areaSelect.value;
      const needle = search.value.trim().toLowerCase();
      let count = 0;
      entries.forEach(function (entry) {
        const visible = (!area || entry.c.area === area) && verdictBoxes[entry.c.verdict] !== undefined
          && verdictBoxes[entry.c.verdict].checked && (!needle || entry.haystack.indexOf(needle) >= 0);
        entry.details.classList.toggle('hidden', !visible);
        count += visible ? 1 : 0;
      });
      shown.textContent = 'showing ' + count + ' of ' + entries.length + ' cases';
    }
    [areaSelect, search].concat(VERDICTS.map(function (v) {
      return verdictBoxes[v];
    })).forEach(function (control) {
      control.addEventListener('input', apply);
      control.addEventListener('change', apply);
    });
    openFailing.addEventListener('click', function () {
      entries.forEach(function (entry) {
        if (entry.c.verdict === 'FAIL' || entry.c.verdict === 'ERROR') {
          openCase(entry);
        }
      });
    });
    closeAll.addEventListener('click', function () {
      entries.forEach(function (entry) {
        entry.details.open = false;
      });
    });
    apply();
    return {
      entries: entries,
      setVerdict: function (verdict) {
        VERDICTS.forEach(function (v) {
          verdictBoxes[v].checked = v === verdict;
        });
        apply();
      }
    };
  }

  function fillCase(entry) {
    if (!entry.filled) {
      entry.filled = true;
      renderCaseBody(entry.c, entry.body);
    }
  }

  function openCase(entry) {
    fillCase(entry);
    entry.details.open = true;
  }

  function render() {
    const app = document.getElementById('app');
    const runFacts = renderHeader(app);
    const caseAnchors = {};
    report.cases.forEach(function (c, index) {
      caseAnchors[c.id] = index;
    });
    let cases = null;
    renderRootCauses(app, caseAnchors);
    renderFailing(app, caseAnchors);
    renderCounts(app, function (verdict) {
      cases.setVerdict(verdict);
    });
    renderBaseline(app);
    renderRun(app, runFacts);
    renderRules(app, caseAnchors);
    cases = renderCases(app);
    openAt = function (index) {
      if (cases.entries[index]) {
        openCase(cases.entries[index]);
      }
    };
    const hash = fragment();
    if (expandAll) {
      cases.entries.forEach(openCase);
    } else {
      const failing = cases.entries.filter(function (entry) {
        return entry.c.verdict === 'FAIL' || entry.c.verdict === 'ERROR';
      });
      if (failing.length <= 10) {
        failing.forEach(openCase);
      }
      const match = /^c-(\d+)$/.exec(hash);
      if (match && cases.entries[Number(match[1])]) {
        const entry = cases.entries[Number(match[1])];
        openCase(entry);
        entry.details.scrollIntoView();
      }
    }
  }

  try {
    render();
    document.body.dataset.rendered = 'ok';
  } catch (e) {
    recordError('render: ' + (e && e.stack ? e.stack : e));
    document.body.dataset.rendered = 'failed';
    add(document.getElementById('app'), h('p', { class: 'banner' }, 'This report could not be drawn: ' + e
      + '. The data is in report.json beside this file.'));
  }
  if (!document.body.dataset.errors) {
    document.body.dataset.errors = '';
  }
})();
