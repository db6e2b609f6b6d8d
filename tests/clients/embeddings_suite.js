// Embeddings through the unmodified `openai` SDK (which asks for base64 and decodes it) and as
// floats, llama-server's native /embedding, and a RAG loop: sources ranked by their sfcl
// embeddings, the best one sent as the source of a checked answer. `t.embedBase` serves the demo
// model with --embeddings --pooling mean; `t.base` serves no embeddings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const norm = (v) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);

export function registerEmbeddingsOffTest(t) {
  test('embeddings not served: 501 naming the flag that serves them', async () => {
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.base}/v1`, maxRetries: 0 });
    await assert.rejects(client.embeddings.create({ model: 'tiny', input: 'x' }),
      (e) => e.status === 501 && e.message.includes('--embeddings'));
  });
}

export function registerEmbeddingsTests(t) {
  const client = () => new OpenAI({ apiKey: t.key, baseURL: `${t.embedBase}/v1`, maxRetries: 0 });
  const DOCS = [
    'Invoice total: $12,500.00. Due date: 2024-03-01.',
    'The weather in Paris is sunny today.',
    'Our office opens at 9:00 am on weekdays.',
  ];

  test('openai embeddings.create: base64 (the SDK default) and float agree, unit length, usage', async () => {
    const b64 = await client().embeddings.create({ model: 'text-embedding-3-small', input: DOCS });
    const floats = await client().embeddings.create({ model: 'x', input: DOCS, encoding_format: 'float' });
    assert.equal(b64.object, 'list');
    assert.equal(b64.data.length, 3);
    assert.deepEqual(b64.data.map((d) => d.index), [0, 1, 2]);
    for (let i = 0; i < 3; i += 1) {
      const v = floats.data[i].embedding;
      assert.ok(v.length > 16, String(v.length));
      assert.ok(Math.abs(norm(v) - 1) < 1e-4, String(norm(v)));
      assert.equal(b64.data[i].embedding.length, v.length);
      for (let j = 0; j < v.length; j += 1) assert.ok(Math.abs(b64.data[i].embedding[j] - v[j]) < 1e-6);
    }
    assert.ok(b64.usage.prompt_tokens > 10);
    assert.equal(b64.usage.total_tokens, b64.usage.prompt_tokens);
    assert.ok(dot(floats.data[0].embedding, floats.data[1].embedding) < 0.9999);
    // Token ids with pieces of text among them, as llama-server takes them.
    const mixed = await client().embeddings.create({ model: 'x', input: [[1, 2, 'total', 3], 'text'], encoding_format: 'float' });
    assert.equal(mixed.data.length, 2);
    assert.equal(mixed.data[0].embedding.length, floats.data[0].embedding.length);
  });

  test('embeddings errors: empty, wrong dimensions, unknown field, too long', async () => {
    const refused = (body, param) => assert.rejects(client().embeddings.create({ model: 'x', ...body }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === param);
    await refused({ input: '' }, 'input');
    await refused({ input: 'x', dimensions: 3 }, 'dimensions');
    await refused({ input: 'x', encoding_format: 'int8' }, 'encoding_format');
    await refused({ input: 'word '.repeat(5000) }, 'input');
    await refused({ input: [[1, 2, 99999999]] }, 'input[0]');
  });

  test('llama-server /embedding: the same vector as /v1/embeddings, wrapped as llama-server does', async () => {
    const native = await fetch(`${t.embedBase}/embedding`, {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.key}` },
      body: JSON.stringify({ content: DOCS[0] }),
    }).then((r) => r.json());
    const oai = await client().embeddings.create({ model: 'x', input: DOCS[0], encoding_format: 'float' });
    assert.equal(native[0].index, 0);
    assert.equal(native[0].embedding.length, 1);
    native[0].embedding[0].forEach((x, j) => assert.ok(Math.abs(x - oai.data[0].embedding[j]) < 1e-6));
  });

  // The demo model is no retrieval model (its ranking is not asserted; docs/API.md names embedding
  // GGUFs for --embedding-model): what is asserted is the loop, and that the answer's values are
  // supported by the source it was given or visibly marked.
  test('RAG: sources ranked by their embeddings, the best one answers, every value checked', async () => {
    const question = 'What is the invoice total?';
    const e = await client().embeddings.create({ model: 'x', input: [question, ...DOCS], encoding_format: 'float' });
    const [q, ...docs] = e.data.map((d) => d.embedding);
    const ranked = docs.map((v, i) => ({ i, score: dot(q, v) })).sort((a, b) => b.score - a.score);
    const source = DOCS[ranked[0].i];
    const c = await client().chat.completions.create({
      model: 'x', max_tokens: 40, temperature: 0,
      messages: [{ role: 'system', content: source }, { role: 'user', content: question }],
    });
    assert.equal(ranked.length, 3);
    assert.ok(ranked[0].score >= ranked[2].score);
    const anchors = c.sfcl.anchors;
    assert.ok(Array.isArray(anchors), JSON.stringify(c.sfcl));
    for (const a of anchors) {
      assert.ok(['confirmed', 'derived', 'constrained'].includes(a.verdict) || a.flagged, JSON.stringify(a));
    }
  });
}
