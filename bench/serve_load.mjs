// Load on a running `sfcl serve`: streams at 1, 4, 8 concurrent clients (Anthropic Messages,
// temperature 0, fixed prompts), then the prefix-cache effect on TTFT for a repeated long prompt.
// Usage: node bench/serve_load.mjs http://127.0.0.1:8080 [requests-per-level] [max_tokens]
const base = process.argv[2] ?? 'http://127.0.0.1:8080';
const perLevel = Number(process.argv[3] ?? 16);
const maxTokens = Number(process.argv[4] ?? 128);
const doc = 'SERVICE AGREEMENT between Acme Robotics Ltd. and Harbor Logistics LLC, signed June 15, 2024. ' +
  'Section 7.2: the Client shall pay $12,500.00 within 30 days of invoice INV-2024-0042.';

async function stream(body) {
  const t0 = performance.now();
  const r = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...body, stream: true }) });
  const reader = r.body.getReader();
  const dec = new TextDecoder();
  let ttft = null; let buf = ''; let out = 0; let cached = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += dec.decode(value, { stream: true });
    if (ttft === null && buf.includes('content_block_delta')) ttft = performance.now() - t0;
    const m = buf.match(/"cache_read_input_tokens":(\d+)/);
    if (m) cached = Number(m[1]);
    const o = [...buf.matchAll(/"output_tokens":(\d+)/g)];
    if (o.length) out = Number(o[o.length - 1][1]);
  }
  if (r.status !== 200) throw new Error(`HTTP ${r.status}: ${buf.slice(0, 200)}`);
  return { ms: performance.now() - t0, ttft: ttft ?? performance.now() - t0, out, cached };
}

const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(p * s.length))]; };

for (const c of [1, 4, 8]) {
  const t0 = performance.now();
  const results = [];
  let next = 0;
  await Promise.all(Array.from({ length: c }, async () => {
    while (next < perLevel) {
      const i = next++;
      results.push(await stream({ max_tokens: maxTokens, temperature: 0, system: doc,
        messages: [{ role: 'user', content: `Question ${i}: what is the fee?` }] }));
    }
  }));
  const s = (performance.now() - t0) / 1000;
  const tokens = results.reduce((a, r) => a + r.out, 0);
  console.log(`concurrency ${c}: ${results.length} requests in ${s.toFixed(2)} s, ${(results.length / s).toFixed(2)} req/s, ` +
    `${(tokens / s).toFixed(0)} generated tok/s, TTFT p50 ${pct(results.map((r) => r.ttft), 0.5).toFixed(1)} ms ` +
    `p95 ${pct(results.map((r) => r.ttft), 0.95).toFixed(1)} ms`);
}
const long = doc.repeat(4);  // ~650 tokens: fits the default --ctx
const first = await stream({ max_tokens: 1, temperature: 0, system: long, messages: [{ role: 'user', content: 'fee?' }] });
const again = await stream({ max_tokens: 1, temperature: 0, system: long, messages: [{ role: 'user', content: 'fee?' }] });
console.log(`prefix cache: long prompt TTFT ${first.ttft.toFixed(1)} ms cold, ${again.ttft.toFixed(1)} ms repeated ` +
  `(${again.cached} cached prompt tokens)`);
