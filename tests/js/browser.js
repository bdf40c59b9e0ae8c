// SPDX-License-Identifier: MIT
// Drives headless Chromium (Debian's, never a downloaded one) through a page
// perfev wrote, as a person would: mouse and keyboard, then reads what the page
// shows.  Every request other than the page itself (and, for speedscope, its
// app's own files) fails the run, and so does any console error.  Prints
// "key=value" lines for tests/cli/test_flamegraph.sh to compare with perfev
// report, and "fail=..." lines for what went wrong; screenshots go to OUTDIR.
//
//   node browser.js html FILE OUTDIR FUNCTION
//   node browser.js svg FILE OUTDIR FUNCTION
//   node browser.js speedscope FILE OUTDIR FRAME
//   node browser.js thread FILE OUTDIR TID      (the HTML report, one thread selected)
//   node browser.js names FILE OUTDIR TEXT...   (the page shows each TEXT)
//   node browser.js load FILE OUTDIR            (time to load and to be ready)
//   node browser.js source FILE OUTDIR FUNCTION (the HTML report's source view of FUNCTION)
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const puppeteer = require('puppeteer-core');

const [mode, file, outdir, ...rest] = process.argv.slice(2);
const fails = [];
const out = (k, v) => console.log(`${k}=${v}`);
const fail = (why) => { fails.push(why); console.log(`fail=${why}`); };
const PAGE = true;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function launch() {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perfev-chromium-'));
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
		       '--disable-background-networking', '--disable-component-update', '--disable-sync',
		       '--user-data-dir=' + dir],
	});
	return { browser, dir };
}

// Requests: the page itself, and what allowed() lets through; nothing else.
async function open(browser, url, allowed) {
	const page = await browser.newPage();
	await page.setViewport({ width: 1280, height: 900 });
	await page.setRequestInterception(true);
	page.on('request', (req) => {
		const u = req.url();
		if (u === url || u.split('#')[0] === url.split('#')[0] || allowed(u)) return req.continue();
		fail('request to ' + u.slice(0, 120));
		req.abort();
	});
	page.on('console', (m) => { if (m.type() === 'error') fail('console error: ' + m.text().slice(0, 200)); });
	page.on('pageerror', (e) => fail('page error: ' + e.message.slice(0, 200)));
	const t0 = Date.now();
	await page.goto(url, { waitUntil: 'load', timeout: 120000 });
	return { page, loadMs: Date.now() - t0 };
}

// A frame drawn below the fold (deep stacks make a tall graph, its root at the
// bottom) is scrolled to the middle of the window first, as a person would.
// rectOf gives page coordinates (PAGE) or the window's; the result is the window's,
// as the mouse takes them.
async function reveal(page, rectOf, inPage) {
	const toWindow = async (r) => {
		if (!r || !inPage) return r;
		const [sx, sy] = await page.evaluate(() => [window.scrollX, window.scrollY]);
		return { x: r.x - sx, y: r.y - sy, w: r.w, h: r.h };
	};
	let r = await toWindow(await rectOf());
	const vh = page.viewport().height;
	if (r && (r.y < vh * 0.2 || r.y + r.h > vh)) {
		await page.evaluate((dy) => window.scrollBy(0, dy), Math.round(r.y - vh / 2));
		r = await toWindow(await rectOf());
	}
	return r;
}

async function shot(page, name) {
	const p = path.join(outdir, name);
	await page.screenshot({ path: p, fullPage: true });
	out('screenshot', p);
}

async function html(browser) {
	const url = 'file://' + path.resolve(file), fn = rest[0];
	const t0 = Date.now();
	const { page, loadMs } = await open(browser, url, () => false);
	await page.waitForFunction(() => document.body.getAttribute('data-ready') === '1', { timeout: 120000 });
	out('load_ms', loadMs);
	out('ready_ms', Date.now() - t0);
	out('title', await page.title());
	const total = await page.$eval('#total', (e) => [e.getAttribute('data-samples'), e.getAttribute('data-weight'), e.textContent]);
	out('samples', total[0]);
	out('weight', total[1]);
	// The root frame is 100%: hover it and read the details line.
	const root = await reveal(page, () => page.evaluate(() => window.perfevReport.frameRect('all')), PAGE);
	if (!root) { fail('no root frame drawn'); return; }
	await page.mouse.move(root.x + root.w / 2, root.y + 5);
	out('root_details', (await page.$eval('#details', (e) => e.textContent)).trim());
	await shot(page, 'html-flame.png');
	// Click the function's frame: the graph zooms to it (it spans the width).
	let r = await reveal(page, () => page.evaluate((n) => window.perfevReport.frameRect(n), fn), PAGE);
	if (!r) { fail('no frame ' + fn); return; }
	await page.mouse.click(r.x + Math.min(r.w / 2, 5), r.y + 5);
	r = await page.evaluate((n) => window.perfevReport.frameRect(n), fn);
	const width = await page.$eval('#graph', (e) => e.clientWidth);
	out('zoom_width_ratio', (r.w / width).toFixed(4));
	out('zoom_state', await page.evaluate(() => window.perfevReport.state.zoom));
	await shot(page, 'html-zoom.png');
	await page.click('#reset');
	// Search: type the name; the matched share is the function's total share.
	await page.type('#search', '^' + fn + '$');
	await page.waitForFunction(() => document.getElementById('matched').getAttribute('data-share') !== null);
	out('search_share', await page.$eval('#matched', (e) => e.getAttribute('data-share')));
	await shot(page, 'html-search.png');
	await page.click('#reset');
	// The callers view and the table.
	await page.click('#tabs button[data-view="icicle"]');
	await shot(page, 'html-icicle.png');
	await page.click('#tabs button[data-view="table"]');
	await page.click('#fns th[data-key="self"]');
	out('table_top_self', await page.$eval('#fns tbody tr td.name', (e) => e.textContent));
	await shot(page, 'html-table.png');
	// A row focuses the graph on its function.
	await page.click('#fns tbody tr');
	out('focus', (await page.$eval('#focus', (e) => e.textContent)).replace('unfocus', '').trim());
	await page.click('#reset');
	// A range dragged on the timeline: the totals become that range's.
	await page.evaluate(() => window.scrollTo(0, 0));
	const tl = await page.$eval('#timeline', (e) => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.width, b.height]; });
	await page.mouse.move(tl[0] + tl[2] * 0.25, tl[1] + tl[3] / 2);
	await page.mouse.down();
	await page.mouse.move(tl[0] + tl[2] * 0.45, tl[1] + tl[3] / 2, { steps: 5 });
	await page.mouse.move(tl[0] + tl[2] * 0.60, tl[1] + tl[3] / 2, { steps: 5 });
	await page.mouse.up();
	await page.waitForFunction(() => document.getElementById('range').getAttribute('data-time'));
	out('range_time', await page.$eval('#range', (e) => e.getAttribute('data-time')));
	out('range_samples', await page.$eval('#total', (e) => e.getAttribute('data-samples')));
	out('range_weight', await page.$eval('#total', (e) => e.getAttribute('data-weight')));
	await page.click('#tabs button[data-view="flame"]');
	await shot(page, 'html-range.png');
}

async function svg(browser) {
	const url = 'file://' + path.resolve(file), fn = rest[0];
	const { page, loadMs } = await open(browser, url, () => false);
	out('load_ms', loadMs);
	await page.waitForFunction(() => document.documentElement.getAttribute('data-ready') === '1', { timeout: 60000 });
	const titleOf = (n) => page.evaluate((name) => {
		for (const g of document.querySelectorAll('g.f'))
			if (g.querySelector('title').textContent.startsWith(name + ' (')) return g.querySelector('title').textContent;
		return null;
	}, n);
	out('root_title', await titleOf('all'));
	await shot(page, 'svg-flame.png');
	const rectOf = (n) => page.evaluate((name) => {
		for (const g of document.querySelectorAll('g.f')) {
			if (!g.querySelector('title').textContent.startsWith(name + ' (') || g.style.display === 'none') continue;
			const b = g.querySelector('rect').getBoundingClientRect();
			return { x: b.left, y: b.top, w: b.width, h: b.height };
		}
		return null;
	}, n);
	let r = await reveal(page, () => rectOf(fn));
	if (!r) { fail('no frame ' + fn); return; }
	await page.mouse.click(r.x + Math.min(r.w / 2, 5), r.y + r.h / 2);
	r = await rectOf(fn);
	out('zoom_width_ratio', (r.w / 1180).toFixed(4));
	await shot(page, 'svg-zoom.png');
	await page.click('#reset');
	page.once('dialog', (d) => d.accept('^' + fn + '$'));
	await page.click('#search');
	await page.waitForFunction(() => document.getElementById('matched').textContent.startsWith('Matched'));
	out('search_text', await page.$eval('#matched', (e) => e.textContent));
	await shot(page, 'svg-search.png');
}

async function speedscope(browser) {
	const app = path.resolve(__dirname, 'node_modules/speedscope/dist/release');
	const url = 'file://' + path.join(app, 'index.html');
	const { page } = await open(browser, url, (u) => u.startsWith('file://' + app + '/') || u.startsWith('data:') || u.startsWith('blob:'));
	const input = await page.waitForSelector('input[type=file]', { timeout: 30000 });
	await input.uploadFile(path.resolve(file));
	await page.waitForFunction(() => !document.title.startsWith('speedscope') || document.title.includes(' - '), { timeout: 60000 });
	await sleep(1000);
	out('title', await page.title());
	await shot(page, 'speedscope-time-order.png');
	// The sandwich view lists the functions as text.
	await page.keyboard.press('3');
	await sleep(1000);
	const found = await page.evaluate((name) => document.body.innerText.includes(name), rest[0]);
	out('frame_found', found ? 1 : 0);
	await shot(page, 'speedscope-sandwich.png');
}

// The thread selector: the totals become one thread's.
async function thread(browser) {
	const url = 'file://' + path.resolve(file), tid = rest[0];
	const { page } = await open(browser, url, () => false);
	await page.waitForFunction(() => document.body.getAttribute('data-ready') === '1');
	const value = await page.evaluate((t) => {
		for (const o of document.querySelectorAll('#threads option'))
			if (o.textContent.startsWith('Thread ' + t + ' ')) return o.value;
		return null;
	}, tid);
	if (!value) { fail('no thread ' + tid + ' in the selector'); return; }
	await page.select('#threads', value);
	out('thread_samples', await page.$eval('#total', (e) => e.getAttribute('data-samples')));
	await shot(page, 'html-thread.png');
}

// How long a page takes to open: loaded, and ready to use (the report's script done).
async function load(browser) {
	const url = 'file://' + path.resolve(file), t0 = Date.now();
	const { page, loadMs } = await open(browser, url, () => false);
	await page.waitForFunction(() => (document.body || document.documentElement).getAttribute('data-ready') === '1' ||
		document.documentElement.getAttribute('data-ready') === '1', { timeout: 300000 });
	out('load_ms', loadMs);
	out('ready_ms', Date.now() - t0);
	await shot(page, 'load-' + path.basename(file).replace(/\W/g, '_') + '.png');
}

// The source view: opened from the table's button, then by a double click on the
// function's frame; prints its lines (file:line self total) and instructions (address %).
async function source(browser) {
	const url = 'file://' + path.resolve(file), fn = rest[0];
	const { page } = await open(browser, url, () => false);
	await page.waitForFunction(() => document.body.getAttribute('data-ready') === '1');
	await page.click('#tabs button[data-view="table"]');
	const clicked = await page.evaluate((name) => {
		for (const tr of document.querySelectorAll('#fns tbody tr')) {
			const b = tr.querySelector('.src-btn');
			if (tr.querySelector('td.name').textContent === name && b) { b.click(); return true; }
		}
		return false;
	}, fn);
	if (!clicked) { fail('no source button for ' + fn); return; }
	await page.waitForFunction(() => !document.getElementById('source-box').hidden);
	out('source_name', await page.$eval('#source-fn', (e) => e.options[e.selectedIndex].textContent.split(' (')[0]));
	const rows = await page.$$eval('#source tr', (trs) => trs.map((tr) => tr.className.split(' ')[0] === 'line'
		? 'line=' + tr.getAttribute('data-file') + ':' + tr.getAttribute('data-line') + ':' + tr.getAttribute('data-self') + ':' + tr.getAttribute('data-total') + ':' + tr.querySelector('td.code').textContent
		: tr.className === 'insn' ? 'insn=' + tr.getAttribute('data-addr') + ':' + tr.getAttribute('data-pct') : ''));
	rows.filter((r) => r).forEach((r) => console.log(r));
	await shot(page, 'html-source.png');
	await page.$eval('#source-insns', (e) => e.click());
	out('insns_hidden', await page.$$eval('#source tr.insn', (t) => t.length === 0 ? 1 : 0));
	await shot(page, 'html-source-lines.png');
	// From the flame graph: a double click on the function's frame.
	await page.click('#tabs button[data-view="flame"]');
	const r = await reveal(page, () => page.evaluate((n) => window.perfevReport.frameRect(n), fn), PAGE);
	if (!r) { fail('no frame ' + fn); return; }
	await page.mouse.click(r.x + Math.min(r.w / 2, 5), r.y + 5, { clickCount: 2 });
	await page.waitForFunction(() => !document.getElementById('source-box').hidden, { timeout: 5000 }).catch(() => fail('a double click did not open the source view'));
	out('dblclick_source', await page.$eval('#source-box', (e) => e.hidden ? 0 : 1));
}

async function names(browser) {
	const url = 'file://' + path.resolve(file);
	const { page } = await open(browser, url, () => false);
	await sleep(500);
	if (file.endsWith('.html')) {
		await page.waitForFunction(() => document.body.getAttribute('data-ready') === '1');
		await page.click('#tabs button[data-view="table"]');
	}
	const text = await page.evaluate(() => document.documentElement.textContent);
	rest.forEach((t, i) => out('shows_' + i, text.includes(t) ? 1 : 0));
	await shot(page, path.basename(file).replace(/\W/g, '_') + '.png');
}

(async () => {
	fs.mkdirSync(outdir, { recursive: true });
	const { browser, dir } = await launch();
	try {
		await { html, svg, speedscope, names, thread, load, source }[mode](browser);
	} catch (e) {
		fail('exception: ' + String(e && e.message || e).split('\n')[0]);
	} finally {
		await browser.close();
		fs.rmSync(dir, { recursive: true, force: true });
	}
	out('fails', fails.length);
	process.exit(fails.length ? 1 : 0);
})();
