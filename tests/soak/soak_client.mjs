// Fault soak: C concurrent streaming clients for S seconds against a running sfcl serve; about a
// third hang up at a random point. Every other client must receive a complete stream
// (message_stop). Bounded in time and count; 127.0.0.1 only. Prints a JSON summary.
// Usage: node soak_client.mjs URL [clients=32] [seconds=120]
const base = process.argv[2];
const clients = Number(process.argv[3] ?? 32);
const seconds = Number(process.argv[4] ?? 120);
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base ?? '')) throw new Error('URL must be http://127.0.0.1:PORT');
const deadline = Date.now() + seconds * 1000;
const stats = { requests: 0, complete: 0, disconnected: 0, incomplete: 0, http_errors: {}, errors: 0 };

async function one(i) {
  const hangup = Math.random() < 1 / 3;
  const afterChunks = 1 + Math.floor(Math.random() * 5);
  const ac = new AbortController();
  stats.requests++;
  try {
    const r = await fetch(`${base}/v1/messages`, {
      method: 'POST', signal: ac.signal, headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ max_tokens: 64 + (i % 64), temperature: 0.7, stream: true,
        system: 'Invoice INV-2024-0042: total $12,500.00 due June 15, 2024.',
        messages: [{ role: 'user', content: `Client ${i}: what is due?` }], sfcl: { events: i % 2 === 0 } }),
    });
    if (r.status !== 200) {
      stats.http_errors[r.status] = (stats.http_errors[r.status] ?? 0) + 1;
      await r.text();
      return;
    }
    const reader = r.body.getReader();
    const dec = new TextDecoder();
    let body = '';
    let chunks = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      body += dec.decode(value, { stream: true });
      if (hangup && ++chunks >= afterChunks) {
        ac.abort();
        stats.disconnected++;
        return;
      }
    }
    if (body.includes('event: message_stop')) stats.complete++; else stats.incomplete++;
  } catch (e) {
    if (e.name === 'AbortError' && hangup) return;
    stats.errors++;
  }
}

await Promise.all(Array.from({ length: clients }, async (_, c) => {
  let i = c;
  while (Date.now() < deadline) { await one(i); i += clients; }
}));
console.log(JSON.stringify(stats));
process.exit(stats.incomplete === 0 && stats.errors === 0 ? 0 : 1);
