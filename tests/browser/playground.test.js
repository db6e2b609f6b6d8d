// The playground in a real browser: Debian's Chromium, headless, driven by puppeteer-core (from
// tests/clients/node_modules; it never downloads a browser), against a real `sfcl serve` whose
// model writes a scripted answer with one right value (the date) and one wrong (the total).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../clients/js/serve_for_tests.js';

const require = createRequire(new URL('../clients/package.json', import.meta.url));
const puppeteer = require('puppeteer-core');

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = process.env.SFCL_SCREENSHOT_DIR || '.';
const KEY = 'playground-key';
const DOCUMENT = 'INVOICE INV-2024-0042\nInvoice total: $12,500.00. Due date: 2024-03-01.\n' +
  'Late payment carries interest of 1.5% per month.';
const QUESTION = 'When is it due, and what is the total?';
let server;
let browser;

before(async () => {
  assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: run scripts/bootstrap (it installs Debian's chromium)`);
  server = await startServer(['--api-key', KEY, '--test-script', ' Due 2024-03-01, the total is $12,600.00.']);
  browser = await puppeteer.launch({
    executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'],
    defaultViewport: { width: 1400, height: 720 },
  });
});

after(async () => {
  await browser?.close();
  server?.stop();
});

async function openAndAsk({ compare = false, fallback = 'constrain', maxTokens = 40 } = {}) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${server.url}/`, { waitUntil: 'load' });
  await page.type('#documents textarea.doc-text', DOCUMENT);
  await page.type('#question', QUESTION);
  await page.type('#api-key', KEY);
  await page.$eval('#max-tokens', (el, n) => { el.value = String(n); }, maxTokens);
  await page.select('#fallback', fallback);
  if (compare) await page.click('#compare');
  await page.click('#ask-button');
  await page.waitForFunction((n) => document.querySelectorAll('.answer[data-done="true"]').length === n,
    { timeout: 30000 }, compare ? 2 : 1);
  assert.deepEqual(errors, []);
  return page;
}

// The answer's own text of a mark (without the confidence badge).
const valueOf = (mark) => mark.firstChild.nodeValue;

test('the right value is green and points at its source span; the wrong one is shown caught and replaced',
  async () => {
    const page = await openAndAsk({ compare: true });
    const anchor = '.answer[data-mode="anchor"]';
    const seen = await page.$eval(
        anchor, (a) => ({
                  status: a.querySelector('.status').textContent,
                  text: a.querySelector('.answer-text').textContent,
                  confirmed: [...a.querySelectorAll('.answer-text mark.anchor.confirmed')].map(
                      (m) => ({
                        value: m.firstChild.nodeValue,
                        confidence: m.querySelector('.confidence')?.textContent,
                        title: m.title,
                        doc: m.dataset.sourceDoc,
                        start: m.dataset.sourceStart,
                        end: m.dataset.sourceEnd,
                      })),
                  constrained: [...a.querySelectorAll('.answer-text mark.anchor.constrained')].map(
                      (m) => m.firstChild.nodeValue),
                  caught: [...a.querySelectorAll('.answer-text del.caught')].map(
                      (d) => ({
                        removed: d.textContent,
                        next: d.nextElementSibling?.firstChild?.nodeValue,
                        nextClass: d.nextElementSibling?.className,
                      })),
                  timelineCaught:
                      [...a.querySelectorAll('.timeline li.backtrack')].map((li) => ({
                                                                              del: li.querySelector('del')?.textContent,
                                                                              ins: li.querySelector('ins')?.textContent,
                                                                            })),
                  backtracks: a.querySelector('[data-count="backtracks"]')?.textContent,
                }));
    assert.match(seen.status, /^active; anchor_count=2;.*; constrained=1/);
    // The scripted model never writes the right total itself: the fallback does, and says so.
    assert.deepEqual(seen.confirmed.map((c) => c.value), ['2024-03-01']);
    assert.deepEqual(seen.constrained, ['$12,500.00']);
    // Confirmed on its value alone (no role read): below 1.00.
    assert.equal(seen.confirmed[0].confidence, '0.95');
    assert.match(seen.confirmed[0].title, /on its value alone \(no role read\)/);
    assert.equal(seen.confirmed[0].doc, '0');
    assert.deepEqual(seen.caught, [{ removed: '$12,600.00', next: '$12,500.00', nextClass: 'anchor constrained' }]);
    assert.deepEqual(seen.timelineCaught, [{ del: '$12,600.00', ins: '$12,500.00' }]);
    assert.equal(seen.backtracks, '1');
    assert.ok(seen.text.includes('Due 2024-03-01'), seen.text);

    // Side by side: without the check the wrong total goes through, unmarked.
    const off = await page.$eval('.answer[data-mode="off"]', (a) => ({
      text: a.querySelector('.answer-text').textContent, marks: a.querySelectorAll('mark, del').length,
      status: a.querySelector('.status').textContent,
    }));
    assert.ok(off.text.includes('$12,600.00'), off.text);
    assert.equal(off.marks, 0);
    assert.equal(off.status, 'off');

    // Hovering a confirmed value highlights where the document states it.
    const cited = async (nth) => {
      await page.hover(`${anchor} .answer-text mark.anchor:nth-of-type(${nth})`);
      return page.$eval('#documents .doc-view mark.cited', (m) => m.textContent);
    };
    assert.equal(await cited(1), '2024-03-01');
    assert.equal(await cited(2), '$12,500.00');
    mkdirSync(SHOTS, { recursive: true });
    const file = join(SHOTS, 'playground.png');
    await page.screenshot({ path: file });
    // Leaving the value removes the highlight.
    await page.hover('#question');
    assert.equal(await page.$('#documents .doc-view mark.cited'), null);
    await page.close();
  });

test('fallback flag shows the value amber; fallback abstain marks the abstention', async () => {
  const flagged = await openAndAsk({ fallback: 'flag' });
  const f = await flagged.$eval('.answer', (a) => ({
    marks: a.querySelectorAll('.answer-text mark.anchor.flagged').length,
    timeline: a.querySelectorAll('.timeline li.flagged').length,
    fallback: a.querySelector('.timeline li.fallback')?.textContent,
  }));
  assert.ok(f.marks >= 1 && f.timeline >= 1, JSON.stringify(f));
  assert.match(f.fallback, /flag/);
  await flagged.close();
  // The marker takes the place of the total: 30 tokens before it, 20 for it.
  const abstained = await openAndAsk({ fallback: 'abstain', maxTokens: 50 });
  const a = await abstained.$eval('.answer', (n) => ({
    abstain: n.querySelector('.answer-text .abstain')?.textContent,
    fallback: n.querySelector('.timeline li.fallback')?.textContent,
  }));
  assert.equal(a.abstain, '[not in the sources]', JSON.stringify(a));
  assert.match(a.fallback, /abstain/);
  await abstained.close();
});

test('uploaded documents, checked only (sfcl.sources), over the OpenAI API: the cited span is in the right document',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sfcl-upload-'));
    const files = [['notes.txt', 'Meeting notes: nothing about money.'], ['invoice.txt', DOCUMENT]].map(([name, text]) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    });
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/`, { waitUntil: 'load' });
      const upload = await page.$('#upload');
      await upload.uploadFile(...files);
      await page.waitForFunction(() => document.querySelectorAll('#documents .document').length === 2);
      assert.deepEqual(await page.$$eval('#documents .doc-name', (n) => n.map((x) => x.textContent)),
        ['Document 1 · notes.txt', 'Document 2 · invoice.txt']);
      await page.type('#question', QUESTION);
      await page.type('#api-key', KEY);
      await page.$eval('#max-tokens', (el) => { el.value = '40'; });
      await page.select('#api', 'openai');
      await page.select('#placement', 'sources');
      await page.click('#ask-button');
      await page.waitForFunction(() => document.querySelector('.answer[data-done="true"]'), { timeout: 30000 });
      assert.match(await page.$eval('.answer .status', (n) => n.textContent), /^active; anchor_count=2;/);
      await page.hover('.answer-text mark.anchor.confirmed');
      const cited = await page.$$eval('#documents .document', (cards) =>
        cards.map((c) => c.querySelector('mark.cited')?.textContent ?? null));
      assert.deepEqual(cited, [null, '2024-03-01']);
    } finally {
      await page.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

test('the page and its scripts need no API key and come from the binary; --no-ui turns them off', async () => {
  const page = await fetch(`${server.url}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /^text\/html/);
  const html = await page.text();
  assert.ok(!/https?:\/\//.test(html), 'the page loads nothing from elsewhere');
  const script = await fetch(`${server.url}/ui/anchorstream.js`);
  assert.match(script.headers.get('content-type'), /^text\/javascript/);
  assert.match(await script.text(), /export async function streamWithSFCL/);
  assert.equal((await fetch(`${server.url}/v1/models`)).status, 401);
  const off = await startServer(['--no-ui']);
  try {
    assert.equal((await fetch(`${off.url}/`)).status, 404);
    assert.equal((await fetch(`${off.url}/ui/playground.js`)).status, 404);
  } finally {
    off.stop();
  }
});
