// streamWithSFCL against a real `sfcl serve` whose output follows a script: one right value (the
// date) and one wrong (the total), over both APIs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { streamWithSFCL, sseMessages, sliceBytes, byteToIndex, utf8Length, SFCLError } from '../anchorstream.js';
import { startServer } from '../serve_for_tests.js';

const KEY = 'anchorstream-key';
const SOURCE = 'Invoice total: $12,500.00. Due date: 2024-03-01.';
const QUESTION = 'When is it due and what is the total?';
let server;

before(async () => {
  server = await startServer(['--api-key', KEY, '--test-script', ' Due 2024-03-01, the total is $12,600.00.']);
});
after(() => server?.stop());

const bodyFor = () => ({
  model: 'tiny', max_tokens: 40, temperature: 0,
  messages: [{ role: 'user', content: QUESTION }], sfcl: { sources: [SOURCE] },
});

for (const api of ['anthropic', 'openai']) {
  test(`${api}: tokens, the confirmed date with its source span, the caught total and the final status`, async () => {
    const seen = { token: 0, anchor_confirmed: [], anchor_checked: [], backtrack: [], fallback: [], status: [], order: [] };
    let streamed = '';
    const result = await streamWithSFCL({ baseUrl: server.url, api, apiKey: KEY, body: bodyFor() }, {
      token: (e) => {
        seen.token++;
        assert.equal(e.start, utf8Length(streamed));
        streamed += e.text;
        assert.equal(e.end, utf8Length(streamed));
      },
      anchor_confirmed: (e) => seen.anchor_confirmed.push(e),
      anchor_checked: (e) => seen.anchor_checked.push(e),
      backtrack: (e) => seen.backtrack.push(e),
      fallback: (e) => seen.fallback.push(e),
      status: (e) => seen.status.push(e),
      event: (e) => seen.order.push(e.type),
    });
    assert.equal(result.text, ' Due 2024-03-01, the total is $12,500.00');
    assert.equal(streamed, result.text);
    assert.ok(seen.token > 1);
    assert.equal(result.headerStatus, 'pending');

    const date = seen.anchor_confirmed.find((e) => e.text === '2024-03-01');
    assert.ok(date, JSON.stringify(seen.anchor_confirmed));
    assert.equal(date.type, 'anchor_confirmed');
    assert.equal(date.anchor_type, 'date');
    // Confirmed on its value; no role is read for it ("Due" opens the answer), so below 1.
    assert.equal(date.role, null);
    assert.ok(date.confidence >= 0.87 && date.confidence < 1, String(date.confidence));
    assert.equal(sliceBytes(result.text, date.start, date.end), '2024-03-01');
    // Texts in order: the user message (0), then sfcl.sources (1, ...).
    assert.equal(date.source.message, 1);
    assert.equal(sliceBytes(SOURCE, date.source.start, date.source.end), '2024-03-01');

    const [caught] = seen.backtrack;
    assert.equal(caught.type, 'backtrack');
    assert.equal(caught.removed, '$12,600.00');
    assert.equal(caught.verdict, 'unsupported');
    assert.equal(caught.reason, 'mismatch');
    assert.equal(seen.fallback[0]?.policy, 'constrain');
    // The fallback's value is grounded by construction, reported as constrained, never as confirmed.
    assert.equal(seen.anchor_confirmed.find((e) => e.start === caught.start), undefined);
    const replacement = seen.anchor_checked.find((e) => e.start === caught.start);
    assert.equal(replacement?.text, '$12,500.00');
    assert.equal(replacement.verdict, 'constrained');
    assert.equal(replacement.constrained, true);
    assert.equal(sliceBytes(SOURCE, replacement.source.start, replacement.source.end), '$12,500.00');

    assert.equal(seen.status.length, 1);
    assert.equal(seen.order.at(-1), 'status');
    assert.equal(result.status.mode, 'anchor');
    assert.equal(result.status.confirmed, 1);
    assert.equal(result.status.constrained, 1);
    assert.equal(result.status.backtracks, 1);
    assert.match(result.status.status, /^active; anchor_count=2;/);
    assert.equal(result.stopReason, api === 'anthropic' ? 'max_tokens' : 'length');
    assert.deepEqual(result.events.map((e) => e.type), ['anchor_confirmed', 'backtrack', 'fallback', 'anchor_checked']);
  });
}

test('mode off: the wrong total goes through and no check events arrive', async () => {
  const body = { ...bodyFor(), max_tokens: 41, sfcl: { mode: 'off', sources: [SOURCE] } };
  const result = await streamWithSFCL({ baseUrl: server.url, apiKey: KEY, body });
  assert.equal(result.text, ' Due 2024-03-01, the total is $12,600.00.');
  assert.deepEqual(result.events, []);
  assert.equal(result.status.mode, 'off');
  assert.equal(result.headerStatus, 'off');
});

test('an error response becomes an SFCLError with the API status and type', async () => {
  await assert.rejects(streamWithSFCL({ baseUrl: server.url, apiKey: 'wrong', body: bodyFor() }),
    (e) => e instanceof SFCLError && e.status === 401 && e.type === 'authentication_error');
  await assert.rejects(
    streamWithSFCL({ baseUrl: server.url, api: 'openai', apiKey: KEY, body: { ...bodyFor(), max_tokens: 0 } }),
    (e) => e instanceof SFCLError && e.status === 400 && e.type === 'invalid_request_error');
  await assert.rejects(streamWithSFCL({ api: 'grpc', body: {} }), TypeError);
});

const bodyOf = (parts) => new ReadableStream({
  start(c) {
    for (const p of parts) c.enqueue(new TextEncoder().encode(p));
    c.close();
  },
});
const messagesOf = async (parts) => {
  const got = [];
  for await (const m of sseMessages(bodyOf(parts))) got.push(m);
  return got;
};

test('sseMessages: messages split across reads, CRLF line ends, an open last message dropped', async () => {
  const got = await messagesOf(['event: a\r\ndata: {"x"', ':1}\r\n\r\nda', 'ta: [DONE]\n\n', 'data: tail']);
  assert.deepEqual(got, [{ event: 'a', data: '{"x":1}' }, { event: 'message', data: '[DONE]' }]);
});

test('sseMessages: as the SSE specification reads them', async () => {
  // No space after the colon, data over two lines, a CRLF split between two reads, a bare CR, a
  // comment, unknown fields and a field with no colon.
  const got = await messagesOf(['data:{"a":1}\n\ndata: {"b":\ndata:  2}\n\nid: 7\r', '\nretry: 5\r\n: ping\r\n\r\n',
    'event: x\rdata\r\r', 'data: one\n\n']);
  assert.deepEqual(got, [{ event: 'message', data: '{"a":1}' }, { event: 'message', data: '{"b":\n 2}' },
    { event: 'x', data: '' }, { event: 'message', data: 'one' }]);
});

test('byte offsets map onto string indices through multi-byte characters', () => {
  const text = '总额 €5 and 😀 $7';
  assert.equal(utf8Length(text), new TextEncoder().encode(text).length);
  const bytes = new TextEncoder().encode(text);
  const at = (s) => new TextEncoder().encode(text.slice(0, text.indexOf(s))).length;
  assert.equal(sliceBytes(text, at('€5'), at('€5') + 4), '€5');
  assert.equal(sliceBytes(text, at('$7'), bytes.length), '$7');
  assert.equal(byteToIndex(text, 0), 0);
  assert.equal(byteToIndex(text, 3), 1);
});
