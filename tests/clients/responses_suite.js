// The OpenAI Responses API (POST /v1/responses) through unmodified clients: the `openai` SDK
// (responses.create, raw streams, the responses.stream helper) and the AI SDK's default OpenAI
// provider (`openai('model')` speaks the Responses API). `t` is sdk_suite.js's set of servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, streamText } from 'ai';

export function registerResponsesTests(t) {
  const EVENTS = { 'X-SFCL-Events': '1' };
  const SYSTEM = 'Invoice total: $12,500.00. Fee: $1,200.00.';
  const client = (base, headers = {}) =>
    new OpenAI({ apiKey: t.key, baseURL: `${base}/v1`, maxRetries: 0, defaultHeaders: headers });
  const WEATHER_TOOL = {
    type: 'function', name: 'get_weather', description: 'Current weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string', maxLength: 12 } }, required: ['city'] },
  };
  const QUESTION = { role: 'user', content: 'What is the weather in Paris?' };

  test('openai responses.create: resp_ and msg_ ids, output_text, usage, incomplete at max_output_tokens', async () => {
    const r = await client(t.base).responses.create({
      model: 'gpt-4.1', max_output_tokens: 8, temperature: 0,
      input: [{ role: 'system', content: 'Book' }, { role: 'user', content: 'What is the best book' }],
    });
    assert.ok(r.id.startsWith('resp_'), r.id);
    assert.equal(r.object, 'response');
    assert.equal(r.output[0].type, 'message');
    assert.ok(r.output[0].id.startsWith('msg_'), r.output[0].id);
    assert.equal(typeof r.output_text, 'string');
    assert.equal(r.output_text, r.output[0].content[0].text);
    assert.equal(r.usage.output_tokens, 8);
    assert.equal(r.usage.total_tokens, r.usage.input_tokens + 8);
    assert.equal(r.status, 'incomplete');
    assert.equal(r.incomplete_details.reason, 'max_output_tokens');
    assert.equal(r.model, (await client(t.base).models.list()).data[0].id);
  });

  test('responses: the checked text is what arrives, with the verdicts in sfcl', async () => {
    const r = await client(t.scriptedBase).responses.create({
      model: 'tiny', max_output_tokens: 40, temperature: 0, instructions: SYSTEM, input: 'What is the total?',
    });
    assert.ok(r.output_text.includes('$12,500.00'), r.output_text);
    assert.ok(!r.output_text.includes('$12,600.00'), r.output_text);
    assert.ok(r.sfcl.backtracks >= 1, JSON.stringify(r.sfcl));
    assert.ok(r.sfcl.anchors.some((a) => a.text === '$12,500.00' && a.verdict === 'confirmed'), JSON.stringify(r.sfcl));
  });

  test('responses raw stream: typed events in order, sequence numbers, SFCL events in keepalive', async () => {
    const stream = await client(t.scriptedBase, EVENTS).responses.create({
      model: 'tiny', max_output_tokens: 40, temperature: 0, instructions: SYSTEM, input: 'What is the total?',
      stream: true,
    });
    const types = [];
    const sequence = [];
    let text = '';
    let last = null;
    const checks = [];
    for await (const e of stream) {
      types.push(e.type);
      sequence.push(e.sequence_number);
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'keepalive' && e.sfcl) checks.push(e.sfcl);
      if (e.type === 'response.completed' || e.type === 'response.incomplete') last = e;
    }
    assert.deepEqual(sequence, sequence.map((_, i) => i));
    assert.deepEqual(types.slice(0, 4),
      ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    const tail = types.filter((x) => x !== 'keepalive').slice(-4);
    assert.deepEqual(tail.slice(0, 3),
      ['response.output_text.done', 'response.content_part.done', 'response.output_item.done']);
    assert.ok(last, types.join());
    assert.equal(last.response.output[0].content[0].text, text);
    assert.ok(text.includes('$12,500.00'), text);
    assert.ok(checks.some((c) => c.event === 'backtrack' && c.removed.startsWith('$12,6')), JSON.stringify(checks));
    assert.ok(checks.some((c) => c.event === 'anchor_confirmed' && c.text === '$12,500.00'), JSON.stringify(checks));
    assert.equal(typeof last.response.sfcl.status, 'string');
  });

  test('openai responses.stream helper with SFCL events assembles the response', async () => {
    const stream = client(t.scriptedBase, EVENTS).responses.stream({
      model: 'tiny', max_output_tokens: 40, temperature: 0, instructions: SYSTEM, input: 'What is the total?',
    });
    let deltas = '';
    stream.on('response.output_text.delta', (e) => { deltas += e.delta; });
    const final = await stream.finalResponse();
    assert.equal(final.output_text, deltas);
    assert.ok(deltas.includes('$12,500.00'), deltas);
  });

  test('responses tool loop: a function_call item, its function_call_output, the answer (plain and streamed)', async () => {
    const c = client(t.demoBase);
    const first = await c.responses.create({
      model: 'tiny', max_output_tokens: 80, temperature: 0, tools: [WEATHER_TOOL], tool_choice: 'required',
      input: [QUESTION],
    });
    const call = first.output.find((o) => o.type === 'function_call');
    assert.ok(call, JSON.stringify(first.output));
    assert.equal(call.name, 'get_weather');
    assert.ok(call.id.startsWith('fc_') && call.call_id.startsWith('call_'), JSON.stringify(call));
    assert.equal(typeof JSON.parse(call.arguments).city, 'string');
    let argumentDeltas = 0;
    const stream = c.responses.stream({
      model: 'tiny', max_output_tokens: 80, temperature: 0, tools: [WEATHER_TOOL],
      tool_choice: { type: 'function', name: 'get_weather' }, input: [QUESTION],
    });
    stream.on('response.function_call_arguments.delta', () => { argumentDeltas += 1; });
    const streamed = await stream.finalResponse();
    const streamedCall = streamed.output.find((o) => o.type === 'function_call');
    assert.ok(argumentDeltas > 1, String(argumentDeltas));
    assert.equal(streamedCall.arguments, call.arguments);
    const answer = await c.responses.create({
      model: 'tiny', max_output_tokens: 40, temperature: 0, tools: [WEATHER_TOOL],
      input: [QUESTION, ...first.output, { type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21 degrees' }],
    });
    assert.equal(answer.status, 'completed');
    assert.ok(answer.output_text.includes('sunny'), answer.output_text);
  });

  test('responses text.format json_schema: valid JSON by construction, checked by SFCL', async () => {
    const r = await client(t.jsonBase).responses.create({
      model: 'tiny', max_output_tokens: 60, temperature: 0, instructions: SYSTEM, input: 'What is the total?',
      text: {
        format: {
          type: 'json_schema', name: 'invoice', strict: true,
          schema: { type: 'object', properties: { total: { type: 'string', maxLength: 16 } }, required: ['total'], additionalProperties: false },
        },
      },
    });
    const parsed = JSON.parse(r.output_text);
    assert.equal(typeof parsed.total, 'string');
    assert.ok(!parsed.total.includes('12,600'), parsed.total);
    assert.ok(r.sfcl.backtracks >= 1, JSON.stringify(r.sfcl));
  });

  test('responses errors: what needs stored responses or built-in tools is a 400 naming the field', async () => {
    const c = client(t.base);
    const refused = async (body, param) => assert.rejects(c.responses.create({ model: 'tiny', input: 'x', ...body }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === param && e.message.length > 20);
    await refused({ previous_response_id: 'resp_123' }, 'previous_response_id');
    await refused({ tools: [{ type: 'web_search' }] }, 'tools[0].type');
    await refused({ max_output_tokenz: 5 }, 'max_output_tokenz');
    await refused({ input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'http://x/y.png' }] }] },
      'input[0].content[0].type');
    await refused({ text: { format: { type: 'xml' } } }, 'text.format.type');
  });

  test('AI SDK default OpenAI provider (Responses API): generateText and streamText', async () => {
    const openai = createOpenAI({ apiKey: t.key, baseURL: `${t.scriptedBase}/v1` });
    const r = await generateText({
      model: openai('gpt-4.1'), system: SYSTEM, prompt: 'What is the total?', temperature: 0, maxOutputTokens: 40,
      maxRetries: 0,
    });
    assert.ok(r.text.includes('$12,500.00'), r.text);
    assert.ok(!r.text.includes('$12,600.00'), r.text);
    assert.ok(r.usage.outputTokens > 0);
    const s = streamText({
      model: openai('gpt-4.1'), system: SYSTEM, prompt: 'What is the total?', temperature: 0, maxOutputTokens: 40,
      maxRetries: 0,
    });
    let text = '';
    for await (const part of s.textStream) text += part;
    assert.equal(text, r.text);
    assert.ok(['stop', 'length'].includes(await s.finishReason), await s.finishReason);
  });
}
