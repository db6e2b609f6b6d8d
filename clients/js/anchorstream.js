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
  const choice = json.choices?.[0];
  const content = choice?.delta?.content;
  if (content) token(content, result, emit);
  if (json.sfcl?.event && CHECK_EVENTS.includes(json.sfcl.event)) emit({ ...json.sfcl, type: json.sfcl.event });
  if (choice?.finish_reason) {
    result.stopReason = choice.finish_reason;
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
 * Server-sent events from a fetch body: yields {event, data} per message (data lines joined).
 * @param {ReadableStream<Uint8Array>} body
 */
export async function* sseMessages(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      buffer = buffer.replace(/\r\n?/g, '\n');
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const message = parseBlock(block);
        if (message) yield message;
      }
      if (done) break;
    }
    const last = parseBlock(buffer);
    if (last) yield last;
  } finally {
    reader.releaseLock();
  }
}

function parseBlock(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
  }
  return data.length ? { event, data: data.join('\n') } : null;
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
