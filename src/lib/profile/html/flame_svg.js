// SPDX-License-Identifier: MIT
// perfev's SVG flame graph: hover shows a frame's name, samples and share;
// a click zooms to the frame (its callers stay, full width, below it); the
// search takes a regular expression, highlights the frames it matches and
// prints their share of the whole (each sample counted once, however many
// matched frames it has); reset undoes both.  A differential graph (perfev
// diff --flamegraph) also shows each frame's share in the baseline and the
// change of its self share.  Shares are computed from the
// whole tree embedded in the file (widths are integer weights), not from the
// boxes drawn, so they are exact even where boxes are too thin to draw.
'use strict';
(function () {
	var svg = document.documentElement;
	var data = JSON.parse(document.getElementById('perfev-data').textContent);
	var W = data.width, PAD = data.pad;
	var parent = data.parent, total = data.total, labels = data.labels, label = data.label;
	var root = total[0];
	var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));
	var details = document.getElementById('details');
	var matchedText = document.getElementById('matched');
	var resetButton = document.getElementById('reset');
	var zoomed = 0;
	var state = { zoom: 0, zoomName: null, search: null, matched: null };
	window.perfevFlame = state;

	function pct(v) { return root ? (100 * v / root).toFixed(2) : '0.00'; }
	function node(g) { return +g.getAttribute('data-n'); }
	function isAncestor(a, n) { for (; n > 0; n = parent[n]) if (n === a) return true; return a === 0; }

	function fitText(g, w) {
		var t = g.querySelector('text'), name = labels[label[node(g)]];
		var chars = Math.floor((w - 6) / 7);
		t.textContent = chars < 3 ? '' : name.length <= chars ? name : name.slice(0, chars - 2) + '..';
	}

	function layout() {
		var zo = +(zoomed ? document.querySelector('g.f[data-n="' + zoomed + '"]').getAttribute('data-o') : 0);
		var zw = zoomed ? total[zoomed] : root;
		frames.forEach(function (g) {
			var n = node(g), r = g.querySelector('rect'), o = +g.getAttribute('data-o');
			var x, w;
			if (zoomed && isAncestor(n, zoomed) && n !== zoomed) {
				x = PAD; w = W - 2 * PAD;
				g.classList.add('parent');
			} else if (!zoomed || isAncestor(zoomed, n)) {
				x = PAD + (o - zo) / zw * (W - 2 * PAD); w = total[n] / zw * (W - 2 * PAD);
				g.classList.remove('parent');
			} else {
				g.style.display = 'none';
				return;
			}
			g.style.display = w < 0.1 ? 'none' : '';
			r.setAttribute('x', x.toFixed(2));
			r.setAttribute('width', w.toFixed(2));
			g.querySelector('text').setAttribute('x', (x + 3).toFixed(2));
			fitText(g, w);
		});
		resetButton.style.opacity = zoomed || state.search ? 1 : 0.1;
	}

	function zoom(n) {
		zoomed = n;
		state.zoom = n;
		state.zoomName = n ? labels[label[n]] : null;
		layout();
	}

	function search(re) {
		var rx, sum = 0, hit = {};
		try { rx = new RegExp(re); } catch (e) { matchedText.textContent = 'bad regular expression'; return; }
		for (var n = 1; n < parent.length; n++)
			if (rx.test(labels[label[n]])) hit[n] = true;
		// Each sample once: a match under a matched ancestor adds nothing.
		for (n in hit) {
			var a = parent[n], under = false;
			for (; a > 0; a = parent[a]) if (hit[a]) { under = true; break; }
			if (!under) sum += total[n];
		}
		frames.forEach(function (g) { g.classList.toggle('match', !!hit[node(g)]); });
		state.search = re;
		state.matched = +pct(sum);
		matchedText.textContent = 'Matched: ' + pct(sum) + '%';
		layout();
	}

	frames.forEach(function (g) {
		g.addEventListener('mouseover', function () {
			var n = node(g);
			// A differential graph also says what the frame was in the baseline, and how its self share changed.
			var diff = data.was ? ', was ' + data.was[n].toFixed(2) + '%, self ' + (data.dself[n] >= 0 ? '+' : '') + data.dself[n].toFixed(2) : '';
			details.textContent = labels[label[n]] + ' (' + data.samples[n].toLocaleString('en') + ' samples, ' + pct(total[n]) + '%' + diff + ')';
		});
		g.addEventListener('mouseout', function () { details.textContent = ' '; });
		g.addEventListener('click', function () { zoom(node(g)); });
	});
	document.getElementById('search').addEventListener('click', function () {
		var re = window.prompt('Search for (a regular expression):', state.search || '');
		if (re) search(re);
	});
	resetButton.addEventListener('click', function () {
		frames.forEach(function (g) { g.classList.remove('match'); });
		state.search = null;
		state.matched = null;
		matchedText.textContent = ' ';
		zoom(0);
	});
	window.perfevSearch = search;
	window.perfevZoom = zoom;
	layout();
	svg.setAttribute('data-ready', '1');
})();
