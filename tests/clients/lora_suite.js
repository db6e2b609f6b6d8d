// LoRA adapters through the unmodified `openai` SDK: llama-server's per-request `lora` rides in the
// body as the SDK sends any extra field. `t.loraBase` serves the tiny model with a random adapter
// that sfcl wrote (`sfcl make-test-lora`) loaded at scale 0, so without `lora` the base model
// answers, and a scale above 0 changes the logits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';

const firstTop = (r) => r.choices[0].logprobs.content[0].top_logprobs.map((x) => [x.token, x.logprob]);
// The same tokens with log-probabilities within `tol` (a prompt decoded whole and one mostly taken
// from the prefix cache round differently in the last digits).
const close = (a, b, tol = 1e-4) => a.length === b.length
  && a.every(([tok, lp], i) => tok === b[i][0] && Math.abs(lp - b[i][1]) <= tol);

export function registerLoraTests(t) {
  const client = () => new OpenAI({ apiKey: t.key, baseURL: `${t.loraBase}/v1`, maxRetries: 0 });
  const ask = (extra) => client().chat.completions.create({
    model: 'tiny',
    messages: [{ role: 'user', content: 'Once upon a time' }],
    max_tokens: 8,
    temperature: 0,
    logprobs: true,
    top_logprobs: 5,
    ignore_eos: true,
    sfcl: { mode: 'off' },
    ...extra,
  });

  test('openai chat.completions with lora: scale 0 is the base model, a scale above 0 moves the logits', async () => {
    const base = await ask({});
    const zero = await ask({ lora: [{ id: 0, scale: 0 }] });
    const scaled = await ask({ lora: [{ id: 0, scale: 1 }] });
    assert.ok(close(firstTop(zero), firstTop(base)), JSON.stringify([firstTop(zero), firstTop(base)]));
    assert.equal(zero.choices[0].message.content, base.choices[0].message.content);
    assert.ok(!close(firstTop(scaled), firstTop(base), 1e-3), JSON.stringify(firstTop(scaled)));
    // The same scale again: the same answer (no state left behind by the other scales).
    const again = await ask({ lora: [{ id: 0, scale: 1 }] });
    assert.ok(close(firstTop(again), firstTop(scaled)), JSON.stringify([firstTop(again), firstTop(scaled)]));
    assert.equal(again.choices[0].message.content, scaled.choices[0].message.content);
  });

  test('openai chat.completions stream with lora: the streamed text is the plain answer', async () => {
    const plain = await ask({ lora: [{ id: 0, scale: 1 }], logprobs: false, top_logprobs: undefined });
    const stream = await client().chat.completions.create({
      model: 'tiny',
      messages: [{ role: 'user', content: 'Once upon a time' }],
      max_tokens: 8,
      temperature: 0,
      ignore_eos: true,
      sfcl: { mode: 'off' },
      lora: [{ id: 0, scale: 1 }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, plain.choices[0].message.content);
  });

  test('openai SDK: a lora id the server does not have is a 400 naming the field', async () => {
    await assert.rejects(ask({ lora: [{ id: 3, scale: 1 }] }),
      (e) => e.status === 400 && e.error?.param === 'lora[0].id');
  });
}
