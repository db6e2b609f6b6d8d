// Types of anchorstream.js (the events follow the server's one event shape; README, "The server").

/** Byte offsets (UTF-8) into the delivered text. */
export interface Span {
  start: number;
  end: number;
}

/** Where a supported value is stated: `message` indexes the request's texts in order (system,
 * messages, then `sfcl.sources`), `start`/`end` are byte offsets in that text. */
export interface SourceSpan {
  message: number;
  start: number;
  end: number;
}

/** The fields every check event shares. */
export interface AnchorFields extends Span {
  event: 'anchor_confirmed' | 'anchor_checked' | 'backtrack' | 'fallback';
  anchor_id: string;
  anchor_type: string;
  anchor_kind: string;
  text: string;
  norm: string;
  verdict: 'confirmed' | 'derived' | 'constrained' | 'unsupported' | 'unverifiable' | 'unchecked';
  confidence: number;
  checked: boolean;
  reason?: 'absent' | 'mismatch' | 'other_field' | string;
  source?: SourceSpan;
  flagged?: boolean;
  constrained?: boolean;
  other_field?: boolean;
  backtracks?: number;
  derivation?: unknown;
}

export interface TokenEvent extends Span {
  type: 'token';
  text: string;
}
export interface AnchorConfirmedEvent extends AnchorFields {
  type: 'anchor_confirmed';
}
export interface AnchorCheckedEvent extends AnchorFields {
  type: 'anchor_checked';
}
/** A value caught before delivery: `removed` is what the model wrote, the text is rewritten. */
export interface BacktrackEvent extends AnchorFields {
  type: 'backtrack';
  attempt: number;
  removed: string;
}
/** The backtracks ran out: `policy` is constrain, flag or abstain. */
export interface FallbackEvent extends AnchorFields {
  type: 'fallback';
  policy: 'constrain' | 'flag' | 'abstain';
}
/** The final `sfcl` object of the response. */
export interface FinalStatus {
  mode: 'off' | 'anchor' | 'per-token';
  status: string;
  anchor_count: number;
  anchors_checked: number;
  confirmed: number;
  derived: number;
  unsupported: number;
  unverifiable: number;
  backtracks: number;
  fallbacks: number;
  regenerated_tokens: number;
  signature?: string;
  [key: string]: unknown;
}
export interface StatusEvent extends FinalStatus {
  type: 'status';
  stop_reason: string | null;
}

export type SFCLEvent =
  | TokenEvent
  | AnchorConfirmedEvent
  | AnchorCheckedEvent
  | BacktrackEvent
  | FallbackEvent
  | StatusEvent;

export interface StreamRequest {
  /** Server URL without the path, e.g. "http://127.0.0.1:8080"; "" (default) = same origin. */
  baseUrl?: string;
  /** "anthropic" (POST /v1/messages, default) or "openai" (POST /v1/chat/completions). */
  api?: 'anthropic' | 'openai';
  /** Sent as x-api-key (Anthropic) or Authorization: Bearer (OpenAI). */
  apiKey?: string;
  /** The API's request body; `stream: true` is set for you. SFCL options go in `body.sfcl`. */
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

export interface Handlers {
  token?(e: TokenEvent): void;
  anchor_confirmed?(e: AnchorConfirmedEvent): void;
  anchor_checked?(e: AnchorCheckedEvent): void;
  backtrack?(e: BacktrackEvent): void;
  fallback?(e: FallbackEvent): void;
  status?(e: StatusEvent): void;
  /** Every event, after its own handler. */
  event?(e: SFCLEvent): void;
}

export interface StreamResult {
  /** The delivered text. */
  text: string;
  /** The check events in arrival order (no tokens). */
  events: Exclude<SFCLEvent, TokenEvent | StatusEvent>[];
  status: FinalStatus | null;
  stopReason: string | null;
  id: string | null;
  /** X-SFCL-Status of the response headers ("pending", "off" or "inactive" on streams). */
  headerStatus: string | null;
}

export const CHECK_EVENTS: readonly string[];
export class SFCLError extends Error {
  status: number;
  type: string;
  constructor(status: number, type: string, message: string);
}
export function streamWithSFCL(request: StreamRequest, handlers?: Handlers): Promise<StreamResult>;
export function sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }>;
export function utf8Length(text: string): number;
export function byteToIndex(text: string, byteOffset: number): number;
export function sliceBytes(text: string, start: number, end: number): string;
