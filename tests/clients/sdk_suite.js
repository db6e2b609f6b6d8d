// The official SDKs' checks, shared by the servers that speak sfcl's API: `sfcl serve`
// (sdk.test.js) and `sfcl gateway` in front of llama-server (gateway.test.js). `t` holds, once the
// caller's before() has run, the key and the base URLs of four servers of one kind:
//   base:         a small model, nothing scripted (model id "tiny")
//   scriptedBase: its output follows ' The total is $12,500.00, the fee $12,600.00.'
//   demoBase:     the demo model, output following ' It is sunny in Paris today.' (tool calls come
//                 from the grammar: the script only steers prose)
//   jsonBase:     output following '{"total": "$12,600.00"}'
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';

export const SCRIPTS = {
  scripted: ' The total is $12,500.00, the fee $12,600.00.',
  demo: ' It is sunny in Paris today.',
  json: '{"total": "$12,600.00"}',
};

export function registerSdkTests(t) {
  const anthropic = () => new Anthropic({ apiKey: t.key, baseURL: t.base, maxRetries: 0 });
  const openai = () => new OpenAI({ apiKey: t.key, baseURL: `${t.base}/v1`, maxRetries: 0 });
  const EVENTS = { 'X-SFCL-Events': '1' };
  const SYSTEM = 'Invoice total: $12,500.00. Fee: $1,200.00.';

  test('anthropic messages.create', async () => {
    const msg = await anthropic().messages.create({
      model: 'tiny', max_tokens: 8, temperature: 0, system: 'Total: $12,500.00.',
      messages: [{ role: 'user', content: 'What is the total?' }], metadata: { user_id: 'u-1' },
    });
    assert.equal(msg.type, 'message');
    assert.equal(msg.role, 'assistant');
    assert.equal(msg.content[0].type, 'text');
    assert.equal(typeof msg.content[0].text, 'string');
    assert.equal(msg.stop_reason, 'max_tokens');
    assert.equal(msg.usage.output_tokens, 8);
    assert.ok(Number.isInteger(msg.usage.input_tokens));
  });

  test('anthropic messages.stream with finalMessage()', async () => {
    const stream = anthropic().messages.stream({
      model: 'tiny', max_tokens: 10, temperature: 0, messages: [{ role: 'user', content: 'Say something' }],
    });
    let deltas = '';
    stream.on('text', (t) => { deltas += t; });
    const msg = await stream.finalMessage();
    assert.equal(msg.stop_reason, 'max_tokens');
    assert.equal(msg.usage.output_tokens, 10);
    assert.equal(msg.content[0].text, deltas);
  });

  test('anthropic messages.countTokens', async () => {
    const r = await anthropic().messages.countTokens({ model: 'tiny', messages: [{ role: 'user', content: 'hello world' }] });
    assert.ok(r.input_tokens > 11);
  });

  test('openai chat.completions.create, plain and streamed', async () => {
    const c = await openai().chat.completions.create({
      model: 'tiny', max_tokens: 6, temperature: 0, messages: [{ role: 'user', content: 'hi' }],
    });
    assert.equal(c.object, 'chat.completion');
    assert.equal(c.choices[0].message.role, 'assistant');
    assert.equal(c.choices[0].finish_reason, 'length');
    assert.equal(c.usage.completion_tokens, 6);
    const stream = await openai().chat.completions.create({
      model: 'tiny', max_tokens: 6, temperature: 0, stream: true, messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    let finish = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    assert.equal(finish, 'length');
    assert.equal(text, c.choices[0].message.content);
  });

  // Clients ship hard-coded model names: with one model served, any name is answered by it.
  test('a hard-coded foreign model name is answered, and models.retrieve finds the served id', async () => {
    const msg = await anthropic().messages.create({
      model: 'claude-3-5-sonnet-20240620', max_tokens: 3, temperature: 0, messages: [{ role: 'user', content: 'x' }],
    });
    const served = (await openai().models.list()).data[0].id;
    assert.equal(msg.model, served);
    const c = await openai().chat.completions.create({
      model: 'gpt-4o', max_tokens: 3, temperature: 0, messages: [{ role: 'user', content: 'x' }],
    });
    assert.equal(c.model, served);
    assert.equal((await openai().models.retrieve(served)).id, served);
    assert.equal((await anthropic().models.retrieve(served)).id, served);
  });

  test('errors arrive as the SDKs typed error classes', async () => {
    await assert.rejects(anthropic().models.retrieve('no-such-model'),
      (e) => e instanceof Anthropic.NotFoundError && e.status === 404);
    await assert.rejects(openai().models.retrieve('no-such-model'),
      (e) => e instanceof OpenAI.NotFoundError && e.status === 404);
    await assert.rejects(
      anthropic().messages.create({ model: 'tiny', max_tokens: 0, messages: [{ role: 'user', content: 'x' }] }),
      (e) => e instanceof Anthropic.BadRequestError && e.error?.error?.type === 'invalid_request_error');
    const bad = new Anthropic({ apiKey: 'wrong', baseURL: t.base, maxRetries: 0 });
    await assert.rejects(
      bad.messages.create({ model: 'tiny', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }),
      (e) => e instanceof Anthropic.AuthenticationError);
    await assert.rejects(
      openai().chat.completions.create({ model: 'tiny', messages: [{ role: 'wizard', content: 'x' }] }),
      (e) => e instanceof OpenAI.BadRequestError && e.status === 400);
  });

  // SFCL events on (X-SFCL-Events: 1): the plain SDK loops keep working and the events arrive.
  test('openai stream with SFCL events: the plain delta loop works, events ride in chunk.sfcl', async () => {
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.scriptedBase}/v1`, maxRetries: 0, defaultHeaders: EVENTS });
    const stream = await client.chat.completions.create({
      model: 'tiny', max_tokens: 40, temperature: 0, stream: true,
      messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'What is the total?' }],
    });
    let text = '';
    const events = [];
    for await (const chunk of stream) {
      text += chunk.choices[0].delta.content ?? '';  // no optional chaining: every chunk has a choice
      if (chunk.sfcl?.event) events.push(chunk.sfcl);
    }
    assert.ok(text.includes('$12,500.00'), text);
    const confirmed = events.find((e) => e.event === 'anchor_confirmed' && e.text === '$12,500.00');
    assert.ok(confirmed, JSON.stringify(events));
    assert.equal(confirmed.anchor_type, 'amount');
    assert.equal(confirmed.verdict, 'confirmed');
    const backtrack = events.find((e) => e.event === 'backtrack');
    assert.ok(backtrack, JSON.stringify(events));
    assert.ok(backtrack.removed.startsWith('$12,6'), backtrack.removed);
    assert.equal(backtrack.verdict, 'unsupported');
    assert.ok(['mismatch', 'absent'].includes(backtrack.reason), backtrack.reason);
  });

  test('anthropic raw stream with SFCL events: event.type is the event name, the anchor type is anchor_type',
    async () => {
      const client = new Anthropic({ apiKey: t.key, baseURL: t.scriptedBase, maxRetries: 0, defaultHeaders: EVENTS });
      const stream = await client.messages.create({
        model: 'tiny', max_tokens: 40, temperature: 0, stream: true, system: SYSTEM,
        messages: [{ role: 'user', content: 'What is the total?' }],
      });
      let text = '';
      const types = [];
      const events = [];
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
        if (['anchor_confirmed', 'anchor_checked', 'backtrack', 'fallback'].includes(event.type)) events.push(event);
      }
      assert.equal(types[0], 'message_start');
      assert.equal(types.at(-1), 'message_stop');
      assert.ok(text.includes('$12,500.00'), text);
      const confirmed = events.find((e) => e.type === 'anchor_confirmed' && e.text === '$12,500.00');
      assert.ok(confirmed, JSON.stringify(events));
      assert.equal(confirmed.anchor_type, 'amount');
      assert.equal(confirmed.event, 'anchor_confirmed');
      assert.ok(events.some((e) => e.type === 'backtrack' && e.removed.startsWith('$12,6')), JSON.stringify(events));
    });

  test('anthropic messages.stream helper with SFCL events still assembles the message', async () => {
    const client = new Anthropic({ apiKey: t.key, baseURL: t.scriptedBase, maxRetries: 0, defaultHeaders: EVENTS });
    const stream = client.messages.stream({
      model: 'tiny', max_tokens: 40, temperature: 0, system: SYSTEM,
      messages: [{ role: 'user', content: 'What is the total?' }],
    });
    let deltas = '';
    stream.on('text', (t) => { deltas += t; });
    const msg = await stream.finalMessage();
    assert.equal(msg.content[0].text, deltas);
    assert.ok(deltas.includes('$12,500.00'), deltas);
  });

  test('openai chat.completions.stream helper with SFCL events assembles the completion', async () => {
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.scriptedBase}/v1`, maxRetries: 0, defaultHeaders: EVENTS });
    const stream = client.chat.completions.stream({
      model: 'tiny', max_tokens: 40, temperature: 0,
      messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'What is the total?' }],
    });
    let deltas = '';
    stream.on('content', (delta) => { deltas += delta; });
    const completion = await stream.finalChatCompletion();
    assert.equal(completion.choices[0].message.content, deltas);
    assert.ok(deltas.includes('$12,500.00'), deltas);
  });

  // ---- tools and structured output
  const WEATHER_SCHEMA = {
    type: 'object', properties: { city: { type: 'string', maxLength: 12 } }, required: ['city'],
  };
  const ANTHROPIC_TOOLS = [{ name: 'get_weather', description: 'Current weather in a city', input_schema: WEATHER_SCHEMA }];
  const OPENAI_TOOLS = [{
    type: 'function', function: { name: 'get_weather', description: 'Current weather in a city', parameters: WEATHER_SCHEMA },
  }];
  const QUESTION = { role: 'user', content: 'What is the weather in Paris?' };

  function checkToolUse(msg) {
    assert.equal(msg.stop_reason, 'tool_use', JSON.stringify(msg));
    const call = msg.content.find((b) => b.type === 'tool_use');
    assert.ok(call, JSON.stringify(msg.content));
    assert.equal(call.name, 'get_weather');
    assert.equal(typeof call.input.city, 'string');
    assert.ok(call.id.startsWith('toolu_'));
    return call;
  }

  test('anthropic tool loop: tool_use from the grammar, tool_result, final answer', async () => {
    const client = new Anthropic({ apiKey: t.key, baseURL: t.demoBase, maxRetries: 0 });
    const first = await client.messages.create({
      model: 'tiny', max_tokens: 80, temperature: 0, tools: ANTHROPIC_TOOLS, tool_choice: { type: 'any' },
      messages: [QUESTION],
    }).catch((e) => { throw new Error(JSON.stringify(e.error ?? e.message)); });
    const call = checkToolUse(first);
    const second = await client.messages.create({
      model: 'tiny', max_tokens: 40, temperature: 0, tools: ANTHROPIC_TOOLS,
      messages: [QUESTION, { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 degrees' }] }],
    });
    assert.equal(second.stop_reason, 'end_turn');
    assert.equal(second.content[0].type, 'text');
    assert.ok(second.content[0].text.includes('sunny'), second.content[0].text);
    // An error result and earlier thinking are accepted too.
    const third = await client.messages.create({
      model: 'tiny', max_tokens: 5, tools: ANTHROPIC_TOOLS,
      messages: [QUESTION, { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm', signature: 'x' }, ...first.content] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, is_error: true, content: [{ type: 'text', text: 'timeout' }] }] }],
    });
    assert.equal(third.type, 'message');
  });

  test('anthropic tool loop, streamed: content_block_start tool_use, input_json_delta, stop_reason tool_use', async () => {
    const client = new Anthropic({ apiKey: t.key, baseURL: t.demoBase, maxRetries: 0 });
    const events = [];
    const stream = client.messages.stream({
      model: 'tiny', max_tokens: 80, temperature: 0, tools: ANTHROPIC_TOOLS,
      tool_choice: { type: 'tool', name: 'get_weather' }, messages: [QUESTION],
    });
    stream.on('streamEvent', (e) => events.push(e.type === 'content_block_delta' ? e.delta.type : e.type));
    const first = await stream.finalMessage();
    const call = checkToolUse(first);
    // The input grows as the checked text is released: more than one input_json_delta.
    assert.ok(events.filter((e) => e === 'input_json_delta').length > 1, events.join());
    assert.ok(events.includes('content_block_stop'), events.join());
    const second = client.messages.stream({
      model: 'tiny', max_tokens: 40, temperature: 0, tools: ANTHROPIC_TOOLS,
      messages: [QUESTION, { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 21 degrees' }] }],
    });
    let text = '';
    second.on('text', (t) => { text += t; });
    const answer = await second.finalMessage();
    assert.equal(answer.stop_reason, 'end_turn');
    assert.ok(text.includes('sunny'), text);
  });

  test('openai tool loop: tool_calls from the grammar, role tool, final answer (plain and streamed)', async () => {
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.demoBase}/v1`, maxRetries: 0 });
    const first = await client.chat.completions.create({
      model: 'tiny', max_tokens: 80, temperature: 0, tools: OPENAI_TOOLS, tool_choice: 'required', messages: [QUESTION],
    });
    assert.equal(first.choices[0].finish_reason, 'tool_calls');
    const call = first.choices[0].message.tool_calls[0];
    assert.equal(call.function.name, 'get_weather');
    assert.equal(typeof JSON.parse(call.function.arguments).city, 'string');
    const runner = client.chat.completions.stream({
      model: 'tiny', max_tokens: 80, temperature: 0, tools: OPENAI_TOOLS,
      tool_choice: { type: 'function', function: { name: 'get_weather' } }, messages: [QUESTION],
    });
    let argumentDeltas = 0;
    runner.on('chunk', (c) => {
      if (c.choices[0]?.delta?.tool_calls?.[0]?.function?.arguments) argumentDeltas += 1;
    });
    const streamed = await runner.finalChatCompletion();
    assert.equal(streamed.choices[0].finish_reason, 'tool_calls');
    // The arguments arrive in pieces as the text is released, and the SDK's sum of them parses.
    assert.ok(argumentDeltas > 1, String(argumentDeltas));
    assert.equal(typeof JSON.parse(streamed.choices[0].message.tool_calls[0].function.arguments).city, 'string');
    assert.equal(streamed.choices[0].message.tool_calls[0].function.arguments, call.function.arguments);
    const answer = await client.chat.completions.create({
      model: 'tiny', max_tokens: 40, temperature: 0, tools: OPENAI_TOOLS,
      messages: [QUESTION, first.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'Sunny, 21 degrees' }],
    });
    assert.equal(answer.choices[0].finish_reason, 'stop');
    assert.ok(answer.choices[0].message.content.includes('sunny'), answer.choices[0].message.content);
  });

  test('openai response_format json_schema: valid by construction, parsed by the client, checked by SFCL', async () => {
    const client = new OpenAI({ apiKey: t.key, baseURL: `${t.jsonBase}/v1`, maxRetries: 0, defaultHeaders: EVENTS });
    const c = await client.chat.completions.parse({
      model: 'tiny', max_tokens: 60, temperature: 0,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'invoice', strict: true,
          schema: { type: 'object', properties: { total: { type: 'string', maxLength: 16 } }, required: ['total'], additionalProperties: false },
        },
      },
      messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: 'What is the total?' }],
    });
    const parsed = c.choices[0].message.parsed;
    assert.equal(typeof parsed.total, 'string', c.choices[0].message.content);
    // The script wrote $12,600.00 inside the string; the checker backtracked it and the grammar followed.
    assert.ok(!parsed.total.includes('12,600'), parsed.total);
    assert.ok(c.sfcl.backtracks >= 1, JSON.stringify(c.sfcl));
    await assert.rejects(
      client.chat.completions.create({ model: 'tiny', messages: [QUESTION], response_format: { type: 'xml' } }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === 'response_format.type');
  });
}
