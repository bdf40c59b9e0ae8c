// SPDX-License-Identifier: MIT
// perfev's HTML report: one page, its data inline (the JSON in #perfev-data),
// nothing fetched.  Views of one selection (event, threads, time range):
//   - the flame graph (callers below callees) and the icicle of callers
//     (each sampled function at the top, who called it below), drawn on a
//     canvas; hover for details, click to zoom, the search highlights;
//   - the table of functions: self, total (each sample once however often
//     recursion repeats a function), samples and file, sortable; a row
//     focuses the graphs on the function;
//   - the timeline: samples over time; a dragged range selects the samples
//     every view shows;
//   - the source views perfev annotated: a function's source lines with a
//     heat margin (each line's share of the function, and with the code
//     inlined at it), inlined code under its own file, the instructions
//     under each line; opened from the table's "source" buttons or by a
//     double click on a frame.  Their shares are of the whole recording.
// Weights are the recording's integers; shares are computed from them, so a
// function's share here is perfev report's.
// A differential report (perfev diff --flamegraph X.html) also holds each
// series' baseline: the flame graph keeps this recording's widths and colours
// each frame by how its self share changed from the baseline's (the same path
// of function names and files): grown red, shrunk blue.
'use strict';
(function () {
	var D = JSON.parse(document.getElementById('perfev-data').textContent);
	// Control characters in names (the program's bytes) are shown as \xNN, not drawn as boxes.
	var STR = D.strings.map(function (s) {
		return s.replace(/[\u0000-\u001f\u007f]/g, function (c) { return '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'); });
	});
	var KIND_COLORS = {
		user: function (h) { return 'rgb(' + (200 + h % 55) + ',' + (80 + (h >> 8) % 110) + ',' + (55 + (h >> 16) % 27) + ')'; },
		kernel: function (h) { return 'rgb(' + (220 + h % 27) + ',' + (110 + (h >> 8) % 55) + ',0)'; },
		inlined: function (h) { return 'rgb(' + (60 + h % 55) + ',' + (190 + (h >> 8) % 27) + ',' + (190 + (h >> 8) % 27) + ')'; },
		jit: function (h) { return 'rgb(' + (50 + h % 55) + ',' + (180 + (h >> 8) % 27) + ',' + (50 + h % 55) + ')'; },
		unknown: function (h) { var g = 170 + h % 27; return 'rgb(' + g + ',' + g + ',' + g + ')'; },
		'off-cpu': function (h) { return 'rgb(' + (40 + h % 27) + ',' + (90 + (h >> 8) % 55) + ',' + (230 + h % 18) + ')'; }
	};
	var FRAME_H = 16;
	var $ = function (id) { return document.getElementById(id); };
	var S = { si: 0, threads: 'all', b0: -1, b1: -1, search: null, view: 'flame', zoom: 0,
		  focus: -1, sortKey: 'total', src: 0, insns: true, ready: false };
	var cur = null; // what compute() derived for the selection
	var drawn = []; // rects on the graph canvas: [x, y, w, merged node]

	function hash(s) {
		var h = 2166136261;
		for (var i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
		return h;
	}
	function fmt(n) { return n.toLocaleString('en'); }
	function pct(v, of) { return of ? (100 * v / of).toFixed(2) : '0.00'; }
	function series() { return D.series[S.si]; }

	// ---- the selection: each node's self weight and samples, totals, functions ----

	function threadOk(s) {
		var ok = new Uint8Array(s.threads.pid.length);
		for (var t = 0; t < ok.length; t++) {
			if (S.threads === 'all') ok[t] = 1;
			else if (S.threads.charAt(0) === 'p') ok[t] = s.threads.pid[t] === +S.threads.slice(2);
			else ok[t] = t === +S.threads.slice(2);
		}
		return ok;
	}

	function compute() {
		var s = series(), N = s.nodes.parent.length, par = s.nodes.parent, fn = s.nodes.fn;
		var self = new Float64Array(N), ss = new Float64Array(N), tot, tots, i, ok = threadOk(s);
		var tl = s.timeline;
		if (S.b0 >= 0 && tl) {
			for (var b = S.b0; b < S.b1; b++)
				for (i = tl.start[b]; i < tl.start[b + 1]; i++) {
					self[tl.node[i]] += tl.weight[i];
					ss[tl.node[i]] += tl.count[i];
				}
		} else {
			for (i = 0; i < N; i++) { self[i] = s.nodes.self[i]; ss[i] = s.nodes.ss[i]; }
		}
		for (i = 1; i < N; i++)
			if (!ok[s.nodes.thread[i]]) { self[i] = 0; ss[i] = 0; }
		tot = Float64Array.from(self);
		tots = Float64Array.from(ss);
		for (i = N - 1; i > 0; i--) { tot[par[i]] += tot[i]; tots[par[i]] += tots[i]; }
		cur = { s: s, N: N, self: self, ss: ss, tot: tot, tots: tots, par: par, fn: fn };
		cur.flame = merge(false);
		cur.icicle = null;
		cur.table = null;
	}

	// A tree of functions being merged: typed arrays, children linked (sorted only when drawn),
	// each (parent, function) found through one Map with exact numeric keys.
	function Tree(cap, F) {
		this.n = 1; this.cap = Math.max(cap, 16); this.F = F + 1; this.map = new Map();
		this.alloc(this.cap);
		this.parent[0] = -1; this.fn[0] = -1;
	}
	Tree.prototype.alloc = function (cap) {
		var old = this, T = [['parent', Int32Array], ['fn', Int32Array], ['first', Int32Array], ['next', Int32Array],
			 ['self', Float64Array], ['total', Float64Array], ['samples', Float64Array],
			 ['bself', Float64Array], ['btotal', Float64Array], ['bextra', Float64Array]];
		T.forEach(function (t) {
			var a = new t[1](cap);
			if (t[0] === 'first' || t[0] === 'next') a.fill(-1);
			if (old[t[0]]) a.set(old[t[0]]);
			old[t[0]] = a;
		});
		this.cap = cap;
	};
	Tree.prototype.child = function (p, f) {
		var key = p * this.F + f, at = this.map.get(key);
		if (at !== undefined) return at;
		if (this.n === this.cap) this.alloc(this.cap * 2);
		at = this.n++;
		this.parent[at] = p; this.fn[at] = f;
		this.next[at] = this.first[p]; this.first[p] = at;
		this.map.set(key, at);
		return at;
	};
	// Totals and samples from selves: a child comes after its parent.
	Tree.prototype.sum = function () {
		for (var i = this.n - 1; i >= 0; i--) {
			this.total[i] += this.self[i];
			this.btotal[i] += this.bself[i] + this.bextra[i];
			if (i) {
				this.total[this.parent[i]] += this.total[i]; this.samples[this.parent[i]] += this.samples[i];
				this.btotal[this.parent[i]] += this.btotal[i];
			}
		}
		this.map = null;
		this.kidsCache = new Map();
	};
	// A node's children in name order, made when first drawn.
	Tree.prototype.kids = function (k) {
		var c = this.kidsCache.get(k);
		if (c) return c;
		c = [];
		for (var x = this.first[k]; x >= 0; x = this.next[x]) c.push(x);
		var fns = series().fns.name, fn = this.fn;
		c.sort(function (a, b) { var x = STR[fns[fn[a]]], y = STR[fns[fn[b]]]; return x < y ? -1 : x > y ? 1 : 0; });
		this.kidsCache.set(k, c);
		return c;
	};

	Tree.prototype.find = function (p, f) { var at = this.map.get(p * this.F + f); return at === undefined ? -1 : at; };

	function basename(s) { var i = s.lastIndexOf('/'); return i >= 0 && i < s.length - 1 ? s.slice(i + 1) : s; }

	// A differential report: each baseline function's function in this series (the same name in a
	// file of the same name), or -1.
	function baseFns(s) {
		if (s.baseFn) return s.baseFn;
		var key = new Map(), b = s.base.fns, out = new Int32Array(b.name.length);
		for (var f = 0; f < s.fns.name.length; f++) key.set(s.fns.name[f] + '/' + basename(STR[s.fns.file[f]]), f);
		for (f = 0; f < out.length; f++) {
			var at = key.get(b.name[f] + '/' + basename(STR[b.file[f]]));
			out[f] = at === undefined ? -1 : at;
		}
		return (s.baseFn = out);
	}

	// The baseline's weights onto the nodes of m that have its paths (threads merged, as in m); the
	// weight of a path m has not goes to the total of the last node of it that m has.
	function mergeBase(m) {
		var s = series(), b = s.base, N = b.nodes.parent.length, par = b.nodes.parent, map = baseFns(s);
		var bOf = new Int32Array(N).fill(-1), anc = new Int32Array(N).fill(-1), inFocus = new Uint8Array(N);
		bOf[0] = anc[0] = 0;
		for (var i = 1; i < N; i++) {
			var p = par[i], bf = b.nodes.fn[i], f = bf < 0 ? -1 : map[bf], mp = -1, at = -1;
			if (bf < 0) { bOf[i] = anc[i] = 0; continue; }
			anc[i] = anc[p];
			if (S.focus >= 0) {
				inFocus[i] = inFocus[p] || f === S.focus;
				if (!inFocus[i]) { anc[i] = -1; continue; } // outside the focus: not in the graph at all
				mp = inFocus[p] ? bOf[p] : 0;
				if (!inFocus[p]) anc[i] = 0;
			} else {
				mp = bOf[p];
			}
			if (f >= 0 && mp >= 0) at = m.find(mp, f);
			if (at >= 0) { bOf[i] = anc[i] = at; m.bself[at] += b.nodes.self[i]; }
			else if (anc[i] >= 0) m.bextra[anc[i]] += b.nodes.self[i];
		}
	}

	// The change of node k's self share from the baseline's, in points.
	function selfDelta(m, k) {
		var s = series();
		return 100 * ((cur.tot[0] ? m.self[k] / cur.tot[0] : 0) - (s.base.total ? m.bself[k] / s.base.total : 0));
	}

	// The tree with siblings of one function merged, threads merged; focused: the subtrees of
	// the focus function's outermost calls, merged under one root.
	function merge() {
		var c = cur, N = c.N, par = c.par, fn = c.fn, m = new Tree(N >> 1, series().fns.name.length);
		var mOf = new Int32Array(N).fill(-1), inFocus = new Uint8Array(N);
		mOf[0] = 0;
		for (var i = 1; i < N; i++) {
			if (!c.tot[i]) continue;
			var p = par[i], f = fn[i], mp;
			if (f < 0) { mOf[i] = 0; continue; } // a thread: merged into the root
			if (S.focus >= 0) {
				inFocus[i] = inFocus[p] || f === S.focus;
				if (!inFocus[i]) continue;
				mp = inFocus[p] ? mOf[p] : 0;
			} else {
				mp = mOf[p];
			}
			if (mp < 0) continue;
			var at = m.child(mp, f);
			mOf[i] = at;
			m.self[at] += c.self[i];
			m.samples[at] += c.ss[i];
		}
		if (series().base) {
			mergeBase(m);
			m.diff = true;
			m.maxDelta = 0;
			for (i = 1; i < m.n; i++) m.maxDelta = Math.max(m.maxDelta, Math.abs(selfDelta(m, i)));
		}
		m.sum();
		m.tsamples = m.samples;
		return m;
	}

	// Callers: each sample's stack from its innermost function outwards, merged.
	function invert() {
		var c = cur, N = c.N, par = c.par, fn = c.fn, m = new Tree(N, series().fns.name.length);
		for (var i = 1; i < N; i++) {
			if (!c.self[i] || fn[i] < 0) continue;
			if (S.focus >= 0 && fn[i] !== S.focus) continue;
			var at = 0;
			for (var a = i; a > 0 && fn[a] >= 0; a = par[a]) {
				at = m.child(at, fn[a]);
				m.samples[at] += c.ss[i];
				m.total[at] += c.self[i];
			}
			m.total[0] += c.self[i];
			m.samples[0] += c.ss[i];
		}
		// Each node's total is already what passed through it: no sums from selves.
		m.map = null;
		m.kidsCache = new Map();
		m.tsamples = m.samples;
		return m;
	}

	// Per function: self, total (once per sample: at its outermost node on each path), samples.
	function table() {
		var c = cur, s = c.s, F = s.fns.name.length, N = c.N, fn = c.fn, par = c.par;
		var t = { self: new Float64Array(F), total: new Float64Array(F), samples: new Float64Array(F) };
		for (var i = 1; i < N; i++) {
			var f = fn[i];
			if (f < 0 || !c.tot[i]) continue;
			t.self[f] += c.self[i];
			t.samples[f] += c.ss[i];
			var outer = true;
			for (var a = par[i]; a > 0; a = par[a]) if (fn[a] === f) { outer = false; break; }
			if (outer) t.total[f] += c.tot[i];
		}
		return t;
	}

	// ---- search: the share of the samples with a matching function on their stack ----

	function matcher() {
		if (!S.search) return null;
		try { var rx = new RegExp(S.search); } catch (e) { return null; }
		var s = series(), hit = new Uint8Array(s.fns.name.length);
		for (var f = 0; f < hit.length; f++) hit[f] = rx.test(STR[s.fns.name[f]]) ? 1 : 0;
		return hit;
	}

	function matchedShare(hit) {
		var c = cur, sum = 0, N = c.N, fn = c.fn, par = c.par;
		var under = new Uint8Array(N);
		for (var i = 1; i < N; i++) {
			var h = fn[i] >= 0 && hit[fn[i]];
			under[i] = under[par[i]] || h;
			if (h && !under[par[i]]) sum += c.tot[i];
		}
		return sum;
	}

	// ---- drawing ----

	function color(m, k, hit) {
		if (k === 0 && !m.diff) return '#ddd';
		var f = m.fn[k];
		if (hit && hit[f]) return 'rgb(230,0,230)';
		if (m.diff) {
			var d = selfDelta(m, k), v = 255 - Math.round(200 * (m.maxDelta ? Math.abs(d) / m.maxDelta : 0));
			return d > 0 ? 'rgb(255,' + v + ',' + v + ')' : d < 0 ? 'rgb(' + v + ',' + v + ',255)' : 'rgb(250,250,250)';
		}
		var s = series();
		return KIND_COLORS[D.kinds[s.fns.kind[f]]](hash(STR[s.fns.name[f]]));
	}

	function label(m, k) {
		if (k === 0) return S.focus >= 0 ? STR[series().fns.name[S.focus]] + ' (focus)' : 'all';
		return STR[series().fns.name[m.fn[k]]];
	}

	function depthOf(m) {
		var d = new Int32Array(m.n), max = 0;
		for (var i = 1; i < m.n; i++) { d[i] = d[m.parent[i]] + 1; if (d[i] > max) max = d[i]; }
		return { d: d, max: max };
	}

	function draw() {
		var m = S.view === 'icicle' ? (cur.icicle = cur.icicle || invert()) : cur.flame;
		var canvas = $('graph'), ctx, W = canvas.clientWidth || 1200, dep = depthOf(m);
		var H = (dep.max + 1) * FRAME_H + 4, hit = matcher();
		var dpr = window.devicePixelRatio || 1, icicle = S.view === 'icicle';
		canvas.width = W * dpr; canvas.height = H * dpr; canvas.style.height = H + 'px';
		ctx = canvas.getContext('2d');
		ctx.scale(dpr, dpr);
		ctx.font = '12px Verdana, sans-serif';
		ctx.textBaseline = 'middle';
		drawn = [];
		var z = S.zoom < m.n ? S.zoom : 0, zw = m.total[z] || 1;
		function y(d) { return icicle ? d * FRAME_H : H - 4 - (d + 1) * FRAME_H; }
		function box(k, x, w, d) {
			ctx.fillStyle = color(m, k, hit);
			ctx.fillRect(x, y(d), Math.max(w - 0.5, 0.5), FRAME_H - 1);
			drawn.push([x, y(d), w, k]);
			var chars = Math.floor((w - 6) / 7), name = label(m, k);
			if (chars >= 3) {
				ctx.fillStyle = '#000';
				ctx.fillText(name.length <= chars ? name : name.slice(0, chars - 2) + '..', x + 3, y(d) + FRAME_H / 2);
			}
		}
		// The zoomed frame's callers, full width, then its subtree scaled.
		for (var a = m.parent[z], chain = []; a >= 0; a = m.parent[a]) chain.push(a);
		chain.forEach(function (k) { box(k, 0, W, dep.d[k]); });
		(function walk(k, x, w) {
			box(k, x, w, dep.d[k]);
			var kx = x;
			m.kids(k).forEach(function (c) {
				var cw = m.total[c] / zw * W;
				if (cw >= 0.3) walk(c, kx, cw);
				kx += cw;
			});
		})(z, 0, W);
		cur.view = m;
	}

	function drawTimeline() {
		var s = series(), tl = s.timeline, canvas = $('timeline');
		// No times (a difference of two profiles, a file without them): no timeline to drag on.
		$('timeline-box').hidden = !tl;
		var W = canvas.clientWidth || 1200, H = 64, dpr = window.devicePixelRatio || 1;
		canvas.width = W * dpr; canvas.height = H * dpr;
		var ctx = canvas.getContext('2d');
		ctx.scale(dpr, dpr);
		ctx.clearRect(0, 0, W, H);
		if (!tl) return;
		var nb = tl.start.length - 1, w = new Float64Array(nb), max = 0, ok = threadOk(s), b, i;
		for (b = 0; b < nb; b++) {
			for (i = tl.start[b]; i < tl.start[b + 1]; i++)
				if (ok[s.nodes.thread[tl.node[i]]]) w[b] += tl.weight[i];
			if (w[b] > max) max = w[b];
		}
		var bw = W / nb;
		for (b = 0; b < nb; b++) {
			if (!w[b]) continue;
			var v = w[b] / max, sel = S.b0 < 0 || (b >= S.b0 && b < S.b1);
			ctx.fillStyle = sel ? 'rgb(' + Math.round(255 - 90 * v) + ',' + Math.round(200 - 170 * v) + ',40)' : '#ccc';
			ctx.fillRect(b * bw, H - v * (H - 4), Math.max(bw - 0.2, 0.6), v * (H - 4));
		}
		if (S.b0 >= 0) {
			ctx.strokeStyle = '#06c';
			ctx.lineWidth = 2;
			ctx.strokeRect(S.b0 * bw, 1, (S.b1 - S.b0) * bw, H - 2);
		}
	}

	// ---- the summary line, the table ----

	// A frame of a differential graph: its share in the baseline and the change of its self share.
	function diffText(m, k) {
		var d = selfDelta(m, k);
		return ', was ' + pct(m.btotal[k], series().base.total) + '%, self ' + (d >= 0 ? '+' : '') + d.toFixed(2);
	}

	function nsText(ns) { var s = ns.toString().padStart(10, '0'); return s.slice(0, -9) + '.' + s.slice(-9); }

	function summary() {
		var s = series(), root = cur.tot[0], all = s.total, hit = matcher();
		var t = $('total');
		t.textContent = fmt(cur.tots[0]) + ' samples, ' + fmt(root) + ' ' + s.unit + ' (' + pct(root, all) + '% of ' + s.name + ')';
		t.setAttribute('data-samples', cur.tots[0]);
		t.setAttribute('data-weight', root);
		var r = $('range');
		if (S.b0 >= 0 && s.timeline) {
			var t0 = BigInt(s.timeline.t0), bn = BigInt(s.timeline.bucket_ns);
			var a = t0 + BigInt(S.b0) * bn, b = t0 + BigInt(S.b1) * bn - 1n;
			r.textContent = 'time ' + nsText(a) + ',' + nsText(b) + ' s';
			r.setAttribute('data-time', nsText(a) + ',' + nsText(b));
		} else {
			r.textContent = '';
			r.removeAttribute('data-time');
		}
		if (hit) {
			var share = pct(matchedShare(hit), root);
			$('matched').textContent = 'Matched: ' + share + '%';
			$('matched').setAttribute('data-share', share);
		} else {
			$('matched').textContent = S.search ? 'bad regular expression' : '';
			$('matched').removeAttribute('data-share');
		}
		$('focus').textContent = s.samples ? '' : 'This profile holds no samples.';
		if (s.base)
			$('focus').textContent = 'Differential: widths are this recording\'s; each frame\'s self share grown since the baseline (' +
				fmt(s.base.samples) + ' samples) red, shrunk blue; frames only in the baseline are not drawn.';
		if (S.focus >= 0) {
			$('focus').textContent = 'Focused on ' + STR[s.fns.name[S.focus]];
			var b2 = document.createElement('button');
			b2.textContent = 'unfocus';
			b2.onclick = function () { S.focus = -1; S.zoom = 0; refresh(); };
			$('focus').appendChild(b2);
		}
	}

	function fillTable() {
		var s = series(), t = cur.table = cur.table || table(), F = s.fns.name.length, hit = matcher();
		var order = [], key = S.sortKey, root = cur.tot[0], i;
		for (i = 0; i < F; i++) if (t.total[i] || t.self[i]) order.push(i);
		var val = function (f) {
			return key === 'name' ? STR[s.fns.name[f]] : key === 'file' ? STR[s.fns.file[f]] : -t[key][f];
		};
		order.sort(function (a, b) { var x = val(a), y = val(b); return x < y ? -1 : x > y ? 1 : b === a ? 0 : a - b; });
		var body = document.querySelector('#fns tbody'), frag = document.createDocumentFragment();
		var shown = Math.min(order.length, 1000);
		for (i = 0; i < shown; i++) {
			var f = order[i], tr = document.createElement('tr');
			tr.setAttribute('data-fn', f);
			if (hit && hit[f]) tr.className = 'match';
			[[pct(t.self[f], root) + '%', 'num'], [pct(t.total[f], root) + '%', 'num'], [fmt(t.samples[f]), 'num'],
			 [STR[s.fns.name[f]], 'name'], [STR[s.fns.file[f]], '']].forEach(function (c) {
				var td = document.createElement('td');
				td.textContent = c[0];
				td.className = c[1];
				tr.appendChild(td);
			});
			var std = document.createElement('td'), v = sourceOf(f);
			if (v >= 0) {
				var b = document.createElement('button');
				b.type = 'button';
				b.className = 'src-btn';
				b.textContent = 'source';
				b.setAttribute('data-src', v);
				std.appendChild(b);
			}
			tr.appendChild(std);
			frag.appendChild(tr);
		}
		body.textContent = '';
		body.appendChild(frag);
		$('table-note').textContent = order.length > shown ? (order.length - shown) + ' more functions, lighter, not shown' : '';
		document.querySelectorAll('#fns th').forEach(function (th) { th.classList.toggle('sorted', th.getAttribute('data-key') === key); });
	}

	function show() {
		$('graph-box').hidden = S.view === 'table' || S.view === 'source';
		$('table-box').hidden = S.view !== 'table';
		$('source-box').hidden = S.view !== 'source';
		document.querySelectorAll('#tabs button').forEach(function (b) { b.classList.toggle('on', b.getAttribute('data-view') === S.view); });
		summary();
		if (S.view === 'table') fillTable();
		else if (S.view === 'source') fillSource();
		else draw();
		drawTimeline();
	}

	// ---- source views ----

	// The source view of function f in this series, or -1.
	function sourceOf(f) {
		var v = series().sources || [];
		for (var i = 0; i < v.length; i++) if (v[i].fn === f) return i;
		return -1;
	}

	function openSource(i) { S.src = i; S.view = 'source'; show(); }

	function fillSourceList() {
		var sel = $('source-fn'), v = series().sources || [];
		sel.textContent = '';
		v.forEach(function (x, i) {
			var o = document.createElement('option');
			o.value = i;
			o.textContent = x.name + ' (' + STR[series().fns.file[x.fn]] + ', ' + fmt(x.samples) + ' samples)';
			sel.appendChild(o);
		});
		if (S.src >= v.length) S.src = 0;
		sel.value = S.src;
	}

	// A share as a heat: white to red.
	function heat(v) {
		var a = Math.min(1, Math.sqrt(v));
		return 'rgb(255,' + Math.round(255 - 200 * a) + ',' + Math.round(255 - 215 * a) + ')';
	}

	function row(body, cls, cells) {
		var tr = document.createElement('tr');
		tr.className = cls;
		cells.forEach(function (c) {
			var td = document.createElement('td');
			td.textContent = c[0];
			td.className = c[1];
			if (c[2]) td.style.background = c[2];
			if (c[3]) td.colSpan = c[3];
			tr.appendChild(td);
		});
		body.appendChild(tr);
		return tr;
	}

	function fillSource() {
		var list = series().sources || [], body = document.querySelector('#source tbody');
		fillSourceList();
		body.textContent = '';
		if (!list.length) {
			$('source-head').textContent = 'No source views in this report: perfev flamegraph --source N annotates the N hottest functions.';
			return;
		}
		var v = list[S.src], base = v.period || 1, frag = document.createDocumentFragment();
		$('source-head').textContent = v.name + ': ' + fmt(v.samples) + ' samples (' + v.arch + '). Self: the line\'s share of ' +
			'the function; with inlined: the share of the code inlined there too. Shares of the whole recording: ' +
			'the time range and threads selected above do not change them.';
		v.files.forEach(function (file) {
			row(frag, 'file', [[file.file, '', null, 4]]);
			if (file.error) row(frag, 'file', [[file.error, 'err', null, 4]]);
			file.lines.forEach(function (l) {
				var text = l.text === null ? '' : l.text;
				if (l.self === undefined) {
					row(frag, 'ctx', [['', 'heat'], ['', 'heat'], [l.line, 'lno'], [text, 'code']]);
					return;
				}
				var self = l.self / base, total = l.total / base;
				var tr = row(frag, 'line' + (l.inlined ? ' inl' : '') + (self >= 0.05 ? ' hot' : ''),
					[[pct(l.self, base) + '%', 'heat', heat(self)],
					 [l.total > l.self ? pct(l.total, base) + '%' : '', 'heat', l.total > l.self ? heat(total) : null],
					 [l.line, 'lno'], [text + (l.inlined ? '    \u2190 ' + l.fn + ' (inlined)' : ''), 'code']]);
				tr.setAttribute('data-file', file.file);
				tr.setAttribute('data-line', l.line);
				tr.setAttribute('data-self', pct(l.self, base));
				tr.setAttribute('data-total', pct(l.total, base));
				if (!S.insns) return;
				l.insns.forEach(function (k) {
					var t = row(frag, 'insn', [[pct(v.insns.period[k], base) + '%', 'heat', v.insns.period[k] ? heat(v.insns.period[k] / base) : null],
						['', ''], [v.insns.addr[k], 'lno'], [v.insns.text[k], 'code']]);
					t.setAttribute('data-addr', v.insns.addr[k]);
					t.setAttribute('data-pct', pct(v.insns.period[k], base));
				});
			});
		});
		body.appendChild(frag);
	}

	function refresh() { compute(); show(); }

	// ---- input ----

	function fillSelectors() {
		var sel = $('series');
		D.series.forEach(function (s, i) {
			var o = document.createElement('option');
			o.value = i;
			o.textContent = s.name + ' (' + fmt(s.samples) + ' samples)';
			sel.appendChild(o);
		});
		sel.onchange = function () { S.si = +sel.value; S.zoom = 0; S.focus = -1; S.src = 0; fillThreads(); refresh(); };
		fillThreads();
	}

	function fillThreads() {
		var s = series(), sel = $('threads'), pids = {};
		sel.textContent = '';
		var add = function (v, text) { var o = document.createElement('option'); o.value = v; o.textContent = text; sel.appendChild(o); };
		add('all', 'All threads');
		s.threads.pid.forEach(function (p, t) {
			if (!(p in pids)) { pids[p] = 1; add('p:' + p, 'Process ' + p + ' (' + STR[s.threads.comm[t]] + ')'); }
		});
		s.threads.pid.forEach(function (p, t) { add('t:' + t, 'Thread ' + s.threads.tid[t] + ' ' + STR[s.threads.comm[t]] + ' (pid ' + p + ')'); });
		sel.value = 'all';
		S.threads = 'all';
		sel.onchange = function () { S.threads = sel.value; S.zoom = 0; refresh(); };
	}

	function at(ev) {
		var r = $('graph').getBoundingClientRect(), x = ev.clientX - r.left, y = ev.clientY - r.top;
		for (var i = drawn.length - 1; i >= 0; i--) {
			var d = drawn[i];
			if (x >= d[0] && x < d[0] + d[2] && y >= d[1] && y < d[1] + FRAME_H) return d[3];
		}
		return -1;
	}

	function hook() {
		var g = $('graph'), tlc = $('timeline'), drag = null;
		g.addEventListener('mousemove', function (ev) {
			var k = at(ev), m = cur.view, root = cur.tot[0];
			$('details').textContent = k < 0 ? '\u00a0' : label(m, k) + (k ? '  [' + STR[series().fns.file[m.fn[k]]] + ']' : '') +
				'  ' + fmt(m.tsamples[k]) + ' samples, ' + pct(m.total[k], root) + '%' + (m.diff ? diffText(m, k) : '');
		});
		g.addEventListener('click', function (ev) { var k = at(ev); if (k >= 0) { S.zoom = k; show(); } });
		$('search').addEventListener('input', function () { S.search = this.value || null; cur.table = cur.table; show(); });
		$('reset').addEventListener('click', function () {
			S.zoom = 0; S.focus = -1; S.search = null; S.b0 = S.b1 = -1; $('search').value = ''; refresh();
		});
		document.querySelectorAll('#tabs button').forEach(function (b) {
			b.addEventListener('click', function () { S.view = b.getAttribute('data-view'); S.zoom = 0; show(); });
		});
		document.querySelectorAll('#fns th[data-key]').forEach(function (th) {
			th.addEventListener('click', function () { S.sortKey = th.getAttribute('data-key'); fillTable(); });
		});
		g.addEventListener('dblclick', function (ev) {
			var k = at(ev), m = cur.view, v = k > 0 ? sourceOf(m.fn[k]) : -1;
			if (v >= 0) openSource(v);
		});
		$('source-fn').addEventListener('change', function () { S.src = +this.value; fillSource(); });
		$('source-insns').addEventListener('change', function () { S.insns = this.checked; fillSource(); });
		document.querySelector('#fns tbody').addEventListener('click', function (ev) {
			var btn = ev.target.closest('.src-btn');
			if (btn) { openSource(+btn.getAttribute('data-src')); return; }
			var tr = ev.target.closest('tr');
			if (!tr) return;
			S.focus = +tr.getAttribute('data-fn'); S.zoom = 0; S.view = 'flame'; refresh();
		});
		function bucket(ev) {
			var r = tlc.getBoundingClientRect(), nb = series().timeline ? series().timeline.start.length - 1 : 0;
			return Math.max(0, Math.min(nb - 1, Math.floor((ev.clientX - r.left) / r.width * nb)));
		}
		tlc.addEventListener('mousedown', function (ev) { if (series().timeline) drag = bucket(ev); });
		window.addEventListener('mouseup', function (ev) {
			if (drag === null) return;
			var b = bucket(ev), a = drag;
			drag = null;
			if (a === b) { S.b0 = S.b1 = -1; } else { S.b0 = Math.min(a, b); S.b1 = Math.max(a, b) + 1; }
			S.zoom = 0;
			refresh();
		});
		window.addEventListener('resize', function () { show(); });
	}

	// For tests and scripts: where a function's first box is drawn, in page coordinates.
	window.perfevReport = {
		state: S,
		// widest: of the function's boxes the widest, else the first drawn.
		frameRect: function (name, widest) {
			var r = $('graph').getBoundingClientRect(), m = cur.view, best = null;
			for (var i = 0; i < drawn.length; i++) {
				var d = drawn[i];
				if (label(m, d[3]) !== name || (best && (!widest || d[2] <= best[2]))) continue;
				best = d;
			}
			return best && { x: r.left + best[0] + window.scrollX, y: r.top + best[1] + window.scrollY, w: best[2], h: FRAME_H - 1 };
		},
		buckets: function () { var t = series().timeline; return t ? t.start.length - 1 : 0; },
		// A differential graph's widest frame of a function: its colour, share, share in the baseline and self change.
		diffOf: function (name) {
			var m = cur.view, k = -1;
			if (!m || !m.diff) return null;
			for (var i = 0; i < drawn.length; i++)
				if (label(m, drawn[i][3]) === name && (k < 0 || m.total[drawn[i][3]] > m.total[k])) k = drawn[i][3];
			return k < 0 ? null : { color: color(m, k, null), share: +pct(m.total[k], cur.tot[0]),
						was: +pct(m.btotal[k], series().base.total), dself: +selfDelta(m, k).toFixed(2) };
		}
	};

	document.title = D.title + ' \u2014 perfev';
	$('title').textContent = D.title;
	fillSelectors();
	hook();
	refresh();
	S.ready = true;
	document.body.setAttribute('data-ready', '1');
})();
