// AnchorStream: stream a generation from `sfcl serve` with its check events, in the browser or
// Node (18+), over the Anthropic Messages API or the OpenAI chat API. No dependencies: it only
// needs fetch, ReadableStream and TextDecoder.
//
//   import { streamWithSFCL } from './anchorstream.js';
//   const result = await streamWithSFCL(
//     { baseUrl: 'http://127.0.0.1:8080', api: 'anthropic',
//       body: { model: 'sfcl-demo', max_tokens: 128, messages: [{ role: 'user', content: 'What is the fee?' }],
//               sfcl: { sources: ['Fee: $1,200.00.'] } } },
//     { token: (e) => process.stdout.write(e.text), backtrack: (e) => console.log('caught', e.removed) });
//   console.log(result.status.status);  // "active; anchor_count=1; avg_backtrack=0.00"

/** @typedef {import('./anchorstream').StreamRequest} StreamRequest */
/** @typedef {import('./anchorstream').Handlers} Handlers */
/** @typedef {import('./anchorstream').StreamResult} StreamResult */
/** @typedef {import('./anchorstream').SFCLEvent} SFCLEvent */

/** The check events the server sends (README, "The server"), by their `event` name. */
export const CHECK_EVENTS = Object.freeze(['anchor_confirmed', 'anchor_checked', 'backtrack', 'fallback']);

/** An error response from the server, in either API's shape. */
export class SFCLError extends Error {
  /**
   * @param {number} status HTTP status (0 for an error event inside a stream)
   * @param {string} type the API's error type, e.g. "invalid_request_error"
   * @param {string} message
   */
  constructor(status, type, message) {
    super(message);
    this.name = 'SFCLError';
    this.status = status;
    this.type = type;
  }
}

const PATHS = { anthropic: '/v1/messages', openai: '/v1/chat/completions' };

/**
 * Streams one generation and calls `handlers[event.type]` (and `handlers.event`) for every event.
 * @param {StreamRequest} request
 * @param {Handlers} [handlers]
 * @returns {Promise<StreamResult>}
 */
export async function streamWithSFCL(request, handlers = {}) {
  const api = request.api ?? 'anthropic';
  if (!(api in PATHS)) throw new TypeError(`api must be "anthropic" or "openai", not ${JSON.stringify(api)}`);
  const doFetch = request.fetch ?? globalThis.fetch;
  const headers = { 'content-type': 'application/json', 'X-SFCL-Events': '1', ...(request.headers ?? {}) };
  if (request.apiKey) {
    if (api === 'anthropic') headers['x-api-key'] = request.apiKey;
    else headers.authorization = `Bearer ${request.apiKey}`;
  }
  const base = (request.baseUrl ?? '').replace(/\/+$/, '');
  const response = await doFetch(`${base}${PATHS[api]}`, {
    method: 'POST', headers, body: JSON.stringify({ ...request.body, stream: true }), signal: request.signal,
  });
  if (!response.ok) throw await errorOf(response);

  /** @type {StreamResult} */
  const result = {
    text: '', events: [], status: null, stopReason: null, id: null,
    headerStatus: response.headers.get('x-sfcl-status'),
  };
  let textBytes = 0;  // running UTF-8 length of result.text: token events carry byte offsets
  const emit = (/** @type {SFCLEvent} */ e) => {
    if (e.type === 'token') {
      e.start = textBytes;
      textBytes += utf8Length(e.text);
      e.end = textBytes;
    } else if (e.type !== 'status') {
      result.events.push(e);
    }
    handlers[e.type]?.(e);
    handlers.event?.(e);
  };
  const onMessage = api === 'anthropic' ? anthropicMessage : openaiMessage;
  for await (const { event, data } of sseMessages(response.body)) {
    if (data === '[DONE]') break;
    let json;
    try {
      json = JSON.parse(data);
    } catch {
      continue;  // a comment or keep-alive the server did not mean as JSON
    }
    onMessage(event, json, result, emit);
  }
  return result;
}

/** Anthropic streams: `event: <name>`, the data's `type` is the same name. */
function anthropicMessage(event, json, result, emit) {
  const type = json.type ?? event;
  if (type === 'message_start') {
    result.id = json.message?.id ?? null;
  } else if (type === 'content_block_start' && json.content_block?.type === 'text' && json.content_block.text) {
    token(json.content_block.text, result, emit);  // a block may start with text, and the SDKs keep it
  } else if (type === 'content_block_delta' && json.delta?.type === 'text_delta') {
    token(json.delta.text, result, emit);
  } else if (CHECK_EVENTS.includes(type)) {
    emit({ ...json, type });
  } else if (type === 'message_delta') {
    result.stopReason = json.delta?.stop_reason ?? null;
    if (json.sfcl) finalStatus(json.sfcl, result, emit);
  } else if (type === 'error') {
    throw new SFCLError(0, json.error?.type ?? 'error', json.error?.message ?? 'stream error');
  }
}

/** OpenAI streams: events ride in `chunk.sfcl` of chunks with an empty delta; the last chunk's
 * `sfcl` is the final status. */
function openaiMessage(_event, json, result, emit) {
  if (json.error) throw new SFCLError(0, json.error.type ?? 'error', json.error.message ?? 'stream error');
  result.id ??= json.id ?? null;
  // Choice 0 is every entry whose index is 0, wherever it is in the list: the SDKs merge entries
  // by index, and so does `sfcl verify`.
  const entries = (json.choices ?? []).filter((c) => (c?.index ?? 0) === 0);
  for (const choice of entries) {
    const content = choice?.delta?.content;
    if (content) token(content, result, emit);
  }
  if (json.sfcl?.event && CHECK_EVENTS.includes(json.sfcl.event)) emit({ ...json.sfcl, type: json.sfcl.event });
  const finished = entries.find((c) => c?.finish_reason);
  if (finished) {
    result.stopReason = finished.finish_reason;
    if (json.sfcl && !json.sfcl.event) finalStatus(json.sfcl, result, emit);
  }
}

function token(text, result, emit) {
  result.text += text;
  emit({ type: 'token', text, start: 0, end: 0 });  // emit sets the byte offsets
}

function finalStatus(sfcl, result, emit) {
  result.status = sfcl;
  emit({ type: 'status', ...sfcl, stop_reason: result.stopReason });
}

async function errorOf(response) {
  let body = null;
  try {
    body = await response.json();
  } catch { /* not JSON */ }
  const err = body?.error ?? {};
  return new SFCLError(response.status, err.type ?? 'http_error', err.message ?? `HTTP ${response.status}`);
}

/**
 * Server-sent events from a fetch body, parsed as the SSE specification (WHATWG HTML, "Parsing an
 * event stream") and the official SDKs parse them: lines end in CRLF, LF or CR (also when a read
 * splits the pair); `field: value` with one optional space after the colon; the data lines of one
 * message joined with "\n"; comments and unknown fields ignored; a message still open when the
 * body ends is dropped. `sfcl verify` reads a saved stream the same way (src/server/app/sse_reader.h).
 * @param {ReadableStream<Uint8Array>} body
 */
export async function* sseMessages(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data = [];
  let first = true;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);  // a leading BOM is not data
        first = false;
      }
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        // A CR last in the buffer may be the first half of a CRLF: wait for the next read.
        if (end < 0 || (buffer[end] === '\r' && end + 1 === buffer.length && !done)) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer[end] === '\r' && buffer[end + 1] === '\n' ? 2 : 1));
        if (line === '') {
          if (data.length) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line[0] === ':') continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let fieldValue = colon < 0 ? '' : line.slice(colon + 1);
        if (fieldValue[0] === ' ') fieldValue = fieldValue.slice(1);
        if (field === 'data') data.push(fieldValue);
        else if (field === 'event') event = fieldValue;
      }
      if (done) break;
    }
  } finally {
    reader.releaseLock();
  }
}

/** UTF-8 length in bytes of a string (the server's offsets are bytes). */
export function utf8Length(text) {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/**
 * The string index of a UTF-8 byte offset into `text` (offsets inside a character round up).
 * @param {string} text
 * @param {number} byteOffset
 */
export function byteToIndex(text, byteOffset) {
  let bytes = 0;
  let index = 0;
  for (const ch of text) {
    if (bytes >= byteOffset) return index;
    const c = ch.codePointAt(0);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    index += ch.length;
  }
  return index;
}

/**
 * The part of `text` between two UTF-8 byte offsets (an anchor's `start`/`end`, a `source` span).
 * @param {string} text
 * @param {number} start
 * @param {number} end
 */
export function sliceBytes(text, start, end) {
  return text.slice(byteToIndex(text, start), byteToIndex(text, end));
}
