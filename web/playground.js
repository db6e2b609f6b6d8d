// The playground page: documents, a question, and the answer as it streams with its checks.
// All traffic goes through the AnchorStream client (clients/js), served next to this file.
import { streamWithSFCL, byteToIndex, utf8Length } from './anchorstream.js';

const $ = (id) => document.getElementById(id);
const ABSTAIN_MARKERS = ['[not in the sources]', '[来源未提及]'];
const COUNTS = [
  ['anchors_checked', 'checked'], ['confirmed', 'confirmed'], ['derived', 'derived'],
  ['unsupported', 'unsupported'], ['backtracks', 'backtracks'], ['fallbacks', 'fallbacks'],
  ['regenerated_tokens', 'regenerated tokens'],
];

const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

// ---- documents ------------------------------------------------------------------------------

function addDocument(text = '', name = '') {
  const card = document.createElement('div');
  card.className = 'document';
  card.innerHTML = `<div class="doc-head"><span class="doc-name"></span><button type="button" title="Remove">✕</button></div>
    <textarea class="doc-text" spellcheck="false" placeholder="Paste a contract, an invoice, a report…"></textarea>
    <pre class="doc-view" hidden></pre>`;
  card.querySelector('textarea').value = text;
  card.dataset.name = name;
  card.querySelector('button').addEventListener('click', () => {
    card.remove();
    numberDocuments();
  });
  $('documents').append(card);
  numberDocuments();
  return card;
}

function numberDocuments() {
  document.querySelectorAll('#documents .document').forEach((card, i) => {
    card.querySelector('.doc-name').textContent = `Document ${i + 1}${card.dataset.name ? ` · ${card.dataset.name}` : ''}`;
  });
}

// While an answer is shown the documents are read-only views of what was sent, so the cited spans
// point at the text the server checked against.
function showDocumentViews(on) {
  for (const card of document.querySelectorAll('#documents .document')) {
    const view = card.querySelector('.doc-view');
    view.textContent = card.querySelector('textarea').value;
    view.hidden = !on;
    card.querySelector('textarea').hidden = on;
  }
  $('edit-documents').hidden = !on;
}

function highlightSource(span) {
  for (const m of document.querySelectorAll('#documents mark.cited')) {
    const view = m.closest('.doc-view');
    view.textContent = view.textContent;  // drop the mark
  }
  if (!span) return;
  const view = span.card.querySelector('.doc-view');
  const text = view.textContent;
  const from = byteToIndex(text, span.start);
  const to = byteToIndex(text, span.end);
  view.innerHTML = `${escapeHtml(text.slice(0, from))}<mark class="cited">${escapeHtml(text.slice(from, to))}</mark>${escapeHtml(text.slice(to))}`;
  view.querySelector('mark.cited').scrollIntoView({ block: 'nearest' });
}

// Where the request's texts are: the server numbers them in order (system, messages, sources).
function layoutOf(placement, cards) {
  const docs = [];
  let offset = 0;
  for (const card of cards) {
    const text = card.querySelector('textarea').value;
    docs.push({ card, text, start: offset });
    offset += utf8Length(text) + 2;  // joined by a blank line in the system prompt
  }
  return { placement, docs };
}

// A `source` span {message, start, end} -> {card, start, end} in one document, or null.
function sourceSpan(layout, source) {
  if (!source) return null;
  if (layout.placement === 'sources') {
    const doc = layout.docs[source.message - 1];  // message 0 is the question
    return doc ? { card: doc.card, start: source.start, end: source.end } : null;
  }
  if (source.message !== 0) return null;  // the question itself
  const doc = layout.docs.findLast((d) => d.start <= source.start);
  return doc ? { card: doc.card, start: source.start - doc.start, end: source.end - doc.start } : null;
}

// ---- one answer -----------------------------------------------------------------------------

class AnswerView {
  constructor(mode, layout) {
    this.mode = mode;
    this.layout = layout;
    this.text = '';
    this.events = [];
    this.status = null;
    this.headerStatus = null;
    this.node = $('answer-template').content.firstElementChild.cloneNode(true);
    this.node.dataset.mode = mode;
    this.node.querySelector('.mode').textContent = mode;
    this.textNode = this.node.querySelector('.answer-text');
    this.textNode.classList.add('streaming');
    this.pending = false;
  }

  handlers() {
    return {
      token: (e) => { this.text += e.text; this.schedule(); },
      event: (e) => {
        if (e.type !== 'token' && e.type !== 'status') this.events.push(e);
        this.schedule();
      },
      status: (e) => { this.status = e; },
    };
  }

  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.render(); });
  }

  finish(result, error) {
    if (result?.status) this.status = { ...result.status, stop_reason: result.stopReason };
    this.headerStatus = result?.headerStatus ?? this.headerStatus;
    if (result) this.text = result.text;
    this.textNode.classList.remove('streaming');
    this.error = error;
    this.render();
    this.node.dataset.done = 'true';
  }

  // The value delivered where each caught value was (same start), if any.
  replacementFor(backtrack) {
    return this.events.find((e) => (e.type === 'anchor_confirmed' || e.type === 'anchor_checked') &&
      e.start === backtrack.start && this.events.indexOf(e) > this.events.indexOf(backtrack)) ?? null;
  }

  render() {
    const s = this.status;
    this.node.querySelector('.status').textContent =
      this.error ? `error: ${this.error.message}` : s ? s.status : (this.headerStatus ?? 'streaming…');
    this.node.querySelector('.counts').innerHTML = s
      ? COUNTS.map(([k, label]) => `<div><dt>${label}</dt><dd data-count="${k}">${s[k] ?? 0}</dd></div>`).join('') +
        `<div><dt>stop</dt><dd>${escapeHtml(String(s.stop_reason ?? ''))}</dd></div>`
      : '';
    this.textNode.innerHTML = this.answerHtml();
    this.node.querySelector('.timeline').innerHTML = this.events.map((e) => this.timelineItem(e)).join('');
  }

  answerHtml() {
    const text = this.text;
    const total = utf8Length(text);
    const pieces = [];  // {from, to, open, close} in string indices; `to === from` for insertions
    const delivered = new Map();
    for (const e of this.events) {
      if ((e.type === 'anchor_confirmed' || e.type === 'anchor_checked') && e.end <= total) delivered.set(e.start, e);
    }
    for (const e of delivered.values()) pieces.push(this.anchorPiece(text, e));
    const caughtAt = new Map();
    for (const e of this.events) {
      if (e.type !== 'backtrack' || e.start > total) continue;
      if (!caughtAt.has(e.start)) caughtAt.set(e.start, []);
      caughtAt.get(e.start).push(e.removed);
    }
    for (const [start, removed] of caughtAt) {
      const at = byteToIndex(text, start);
      pieces.push({ from: at, to: at, html: removed.map((r) => `<del class="caught" title="caught: not in the sources">${escapeHtml(r)}</del>`).join('') });
    }
    for (const marker of ABSTAIN_MARKERS) {
      for (let at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length)) {
        pieces.push({ from: at, to: at + marker.length, open: '<span class="abstain" title="abstained: no source states this value">', close: '</span>' });
      }
    }
    pieces.sort((a, b) => a.from - b.from || (a.to - a.from) - (b.to - b.from));
    let html = '';
    let cursor = 0;
    for (const p of pieces) {
      if (p.from < cursor) continue;  // overlapping marks: the first wins
      html += escapeHtml(text.slice(cursor, p.from));
      html += p.html ?? `${p.open}${escapeHtml(text.slice(p.from, p.to))}${p.close}`;
      cursor = p.to;
    }
    return html + escapeHtml(text.slice(cursor));
  }

  anchorPiece(text, e) {
    const from = byteToIndex(text, e.start);
    const to = byteToIndex(text, e.end);
    const kind = e.flagged ? 'flagged' : ['confirmed', 'derived', 'constrained'].includes(e.verdict) ? e.verdict : 'unchecked';
    const confidence = typeof e.confidence === 'number' ? e.confidence.toFixed(2) : '';
    const title = `${e.anchor_type}: ${e.verdict}${e.reason ? ` (${e.reason})` : ''}, confidence ${confidence}` +
        (e.constrained ? ', written from the sources' : '') +
        (e.verdict === 'confirmed' && 'role' in e ?
             (e.role ? `, as its ${e.role}` : ', on its value alone (no role read)') :
                       '');
    const span = sourceSpan(this.layout, e.source);
    const data = span ? ` data-source-doc="${[...this.layout.docs].findIndex((d) => d.card === span.card)}"` +
      ` data-source-start="${span.start}" data-source-end="${span.end}"` : '';
    const badge = kind === 'unchecked' ? '' : `<span class="confidence">${confidence}</span>`;
    return {
      from, to,
      open: `<mark class="anchor ${kind}" data-anchor-id="${escapeHtml(e.anchor_id)}" data-verdict="${escapeHtml(e.verdict)}" title="${escapeHtml(title)}"${data}>`,
      close: `${badge}</mark>`,
    };
  }

  timelineItem(e) {
    const meta = (parts) => `<span class="meta">${parts.filter(Boolean).map(escapeHtml).join(' · ')}</span>`;
    if (e.type === 'backtrack') {
      const r = this.replacementFor(e);
      return `<li class="backtrack"><span class="kind">caught</span><del class="caught">${escapeHtml(e.removed)}</del>` +
        `${r ? ` → <ins>${escapeHtml(r.text)}</ins>` : ''} ${meta([e.anchor_type, e.reason, `attempt ${e.attempt}`])}</li>`;
    }
    if (e.type === 'fallback') {
      return `<li class="fallback"><span class="kind">fallback</span>${escapeHtml(e.policy)} ${meta([e.anchor_type, e.text])}</li>`;
    }
    const kind = e.flagged ? 'flagged' : e.verdict === 'confirmed' || e.verdict === 'derived' ? 'confirmed'
      : e.verdict === 'constrained' ? 'constrained' : 'checked';
    const span = sourceSpan(this.layout, e.source);
    const where = span ? `document ${this.layout.docs.findIndex((d) => d.card === span.card) + 1}` : e.source ? 'the question' : '';
    return `<li class="${kind}"><span class="kind">${kind === 'checked' ? e.verdict : kind}</span>${escapeHtml(e.text)} ` +
      `${meta([e.anchor_type, e.reason, `confidence ${Number(e.confidence).toFixed(2)}`, where && `stated in ${where}`])}</li>`;
  }
}

// ---- asking ---------------------------------------------------------------------------------

let controller = null;

function requestBody(mode, question, layout) {
  const docs = layout.docs.map((d) => d.text);
  const body = {
    model: $('server-model').dataset.id || 'default',
    max_tokens: Number($('max-tokens').value) || 256,
    temperature: Number($('temperature').value) || 0,
    sfcl: { mode, fallback: $('fallback').value },
  };
  if ($('threshold').value !== '') body.sfcl.threshold = Number($('threshold').value);
  const user = { role: 'user', content: question };
  if (layout.placement === 'sources') {
    body.messages = [user];
    body.sfcl.sources = docs;
  } else if ($('api').value === 'openai') {
    body.messages = docs.length ? [{ role: 'system', content: docs.join('\n\n') }, user] : [user];
  } else {
    body.messages = [user];
    if (docs.length) body.system = docs.join('\n\n');
  }
  return body;
}

async function ask(event) {
  event.preventDefault();
  $('error').textContent = '';
  const question = $('question').value.trim();
  if (!question) {
    $('error').textContent = 'Write a question first.';
    return;
  }
  if (!$('server-model').dataset.id) await refreshServer();  // the API key may have come since
  const cards = [...document.querySelectorAll('#documents .document')].filter((c) => c.querySelector('textarea').value.trim());
  const layout = layoutOf($('placement').value, cards);
  showDocumentViews(true);
  shownLayout = layout;
  const chosen = $('mode').value;
  const modes = $('compare').checked ? ['off', chosen === 'off' ? 'anchor' : chosen] : [chosen];
  controller = new AbortController();
  $('ask-button').disabled = true;
  $('stop').disabled = false;
  $('answers').replaceChildren();
  const runs = modes.map(async (mode) => {
    const view = new AnswerView(mode, layout);
    $('answers').append(view.node);
    try {
      const result = await streamWithSFCL({
        api: $('api').value, apiKey: $('api-key').value || undefined, signal: controller.signal,
        body: requestBody(mode, question, layout),
      }, view.handlers());
      view.finish(result, null);
    } catch (e) {
      view.finish(null, e);
    }
  });
  await Promise.all(runs);
  $('ask-button').disabled = false;
  $('stop').disabled = true;
  refreshServer();
}

async function refreshServer() {
  const key = $('api-key').value;
  const headers = key ? { 'x-api-key': key } : {};
  try {
    const health = await (await fetch('/health')).json();
    $('server-health').textContent = health.status;
  } catch {
    $('server-health').textContent = 'unreachable';
  }
  try {
    const models = await (await fetch('/v1/models', { headers })).json();
    const id = models.data?.[0]?.id;
    if (id) {
      $('server-model').textContent = `${id} (default mode ${models.data[0].sfcl?.mode ?? '?'})`;
      $('server-model').dataset.id = id;
    }
  } catch { /* shown as … */ }
}

let shownLayout = null;  // the documents of the answers on screen, as they were sent

function hover(event, on) {
  const mark = event.target.closest?.('mark.anchor');
  if (!mark) return;
  mark.classList.toggle('hover', on);
  const doc = shownLayout?.docs[Number(mark.dataset.sourceDoc)];
  highlightSource(on && doc && mark.dataset.sourceDoc !== undefined
    ? { card: doc.card, start: Number(mark.dataset.sourceStart), end: Number(mark.dataset.sourceEnd) } : null);
}

async function loadFiles(files) {
  for (const file of files) addDocument(await file.text(), file.name);
}

function init() {
  addDocument();
  $('add-document').addEventListener('click', () => { showDocumentViews(false); addDocument().querySelector('textarea').focus(); });
  $('edit-documents').addEventListener('click', () => { highlightSource(null); showDocumentViews(false); });
  $('upload').addEventListener('change', async (e) => {
    showDocumentViews(false);
    const first = document.querySelector('#documents .document textarea');
    if (first && !first.value.trim() && document.querySelectorAll('#documents .document').length === 1) first.closest('.document').remove();
    await loadFiles(e.target.files);
    e.target.value = '';
  });
  $('example').addEventListener('click', async () => {
    showDocumentViews(false);
    const text = await (await fetch('/ui/example.txt')).text();
    $('documents').replaceChildren();
    addDocument(text, 'service agreement');
    $('question').value = 'What is the invoice number?';  // the demo model gets it wrong unchecked
    $('compare').checked = true;
  });
  $('ask').addEventListener('submit', ask);
  $('question').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) $('ask').requestSubmit();
  });
  $('stop').addEventListener('click', () => controller?.abort());
  $('answers').addEventListener('mouseover', (e) => hover(e, true));
  $('answers').addEventListener('mouseout', (e) => hover(e, false));
  refreshServer();
}

init();
