// The official TypeScript SDKs against `faultbench serve`: plain, streamed
// and tool-use turns on the Messages API, Chat Completions and the
// Responses API; the fault families; and what the journal records.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startServe } from '../serve.mjs';

let serve;
before(async () => { serve = await startServe(); });
after(async () => { await serve?.stop(); });

const anthropic = (scenario, session, opts = {}) => new Anthropic({
  baseURL: serve.bases[scenario].replace(/\/$/, ''), apiKey: 't', maxRetries: 0,
  defaultHeaders: { 'X-Faultbench-Session': session }, ...opts,
});
const openai = (scenario, session, opts = {}) => new OpenAI({
  baseURL: serve.bases[scenario] + 'v1', apiKey: 't', maxRetries: 0,
  defaultHeaders: { 'X-Faultbench-Session': session }, ...opts,
});
const ask = (model = 'sonnet') => ({ model, max_tokens: 1024, messages: [{ role: 'user', content: 'Say hello.' }] });

test('Anthropic: a plain and a streamed turn, journalled', async () => {
  const c = anthropic('plain', 'a-plain');
  const msg = await c.messages.create(ask());
  assert.equal(msg.stop_reason, 'end_turn');
  assert.equal(msg.usage.output_tokens, 100);
  assert.equal(msg.usage.cache_read_input_tokens, 0);
  const stream = c.messages.stream(ask());
  const final = await stream.finalMessage();
  assert.equal(final.content[0].text, msg.content[0].text);
  const j = await serve.journal('plain', 'a-plain');
  assert.deepEqual(j.map((e) => [e.status, e.kind, e.stream ?? false, e.wire]),
    [[200, 'ok', false, 'anthropic'], [200, 'ok', true, 'anthropic']]);
  assert.equal(j[1].resend, undefined, 'a streamed request is another body, not a resend');
});

test('Anthropic: count_tokens counts as the answer charges', async () => {
  const c = anthropic('plain', 'a-count');
  const n = await c.messages.countTokens({ model: 'sonnet', messages: ask().messages });
  const msg = await c.messages.create(ask());
  assert.equal(n.input_tokens, msg.usage.input_tokens);
});

test('Anthropic: a tool-use turn, the tool_use first, echoed back and answered', async () => {
  const c = anthropic('tool-use', 'a-tools');
  const first = await c.messages.create(ask());
  assert.equal(first.stop_reason, 'tool_use');
  assert.equal(first.content[0].type, 'tool_use');
  const use = first.content[0];
  const next = await c.messages.create({
    ...ask(),
    messages: [...ask().messages, { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'hello' }] }],
  });
  assert.equal(next.stop_reason, 'end_turn');
  // An agent that echoes an empty text block is refused as the real API refuses it.
  await assert.rejects(c.messages.create({
    ...ask(),
    messages: [...ask().messages, { role: 'assistant', content: [{ type: 'text', text: '' }, use] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'hello' }] }],
  }), (e) => e.status === 400 && /text content blocks must be non-empty/.test(e.message));
});

test('OpenAI Chat Completions: plain, streamed and tool calls', async () => {
  const c = openai('tool-use', 'o-tools');
  const first = await c.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }] });
  const m = first.choices[0].message;
  assert.equal(first.choices[0].finish_reason, 'tool_calls');
  assert.equal(m.content, null);
  assert.match(m.tool_calls[0].id, /^call_/);
  const stream = await c.chat.completions.create({
    model: 'gpt-test', stream: true, stream_options: { include_usage: true },
    messages: [{ role: 'user', content: 'hi' }, m, { role: 'tool', tool_call_id: m.tool_calls[0].id, content: 'hello' }],
  });
  let text = '';
  let usage;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    usage = chunk.usage ?? usage;
  }
  assert.equal(usage.completion_tokens, 40);
  assert.equal(text.length, 160);
});

test('OpenAI Responses API: plain, streamed, a function call', async () => {
  const c = openai('tool-use', 'r-tools');
  const first = await c.responses.create({ model: 'gpt-test', input: 'hi' });
  assert.equal(first.output[0].type, 'function_call');
  const call = first.output[0];
  const stream = await c.responses.create({
    model: 'gpt-test', stream: true,
    input: [{ role: 'user', content: 'hi' }, { type: 'function_call', call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: 'function_call_output', call_id: call.call_id, output: 'hello' }],
  });
  const seen = [];
  let done;
  for await (const ev of stream) {
    seen.push(ev.type);
    if (ev.type === 'response.completed') done = ev.response;
  }
  assert.deepEqual(seen.slice(0, 2), ['response.created', 'response.in_progress']);
  assert.equal(done.status, 'completed');
  assert.equal(done.output_text ?? done.output[0].content[0].text, done.output[0].content[0].text);
  const cut = await openai('plain', 'r-cut').responses.create({ model: 'gpt-test', input: 'hi', max_output_tokens: 20 });
  assert.equal(cut.status, 'incomplete');
  assert.equal(cut.incomplete_details.reason, 'max_output_tokens');
  const j = await serve.journal('tool-use', 'r-tools');
  assert.deepEqual(j.map((e) => e.wire), ['openai-responses', 'openai-responses']);
});

test('faults: a 429 the SDK retries after retry-after-ms, its retry journalled', async () => {
  const c = anthropic('faults', 'f-rl', { maxRetries: 2 });
  const msg = await c.messages.create(ask('rl'));
  assert.equal(msg.stop_reason, 'end_turn');
  const j = await serve.journal('faults', 'f-rl');
  assert.deepEqual(j.map((e) => e.status), [429, 200]);
  assert.equal(j[0].retry_after_ms, 20);
  assert.equal(j[1].retry_count, 1);
  assert.equal(j[1].resend, 1);
});

test('faults: overloads, 529 on Anthropic, 503 on OpenAI', async () => {
  await assert.rejects(anthropic('faults', 'f-over').messages.create(ask('over')),
    (e) => e.status === 529 && e.error?.error?.type === 'overloaded_error');
  await assert.rejects(openai('faults', 'f-over-o').chat.completions.create({ model: 'over', messages: [{ role: 'user', content: 'hi' }] }),
    (e) => e.status === 503 && /overloaded/.test(e.message));
});

test('faults: streams cut or failed mid-way, a malformed body, a reset', async () => {
  await assert.rejects(anthropic('faults', 'f-cut').messages.stream(ask('cut')).finalMessage());
  await assert.rejects(anthropic('faults', 'f-err').messages.stream(ask('err')).finalMessage(), /overloaded/i);
  await assert.rejects(anthropic('faults', 'f-bad').messages.create(ask('bad')));
  await assert.rejects(anthropic('faults', 'f-reset').messages.create(ask('reset')), (e) => e instanceof Anthropic.APIConnectionError);
  const cut = await serve.journal('faults', 'f-cut');
  assert.equal(cut[0].kind, 'connection');
  assert.equal(cut[0].stop_reason, undefined);
  const err = await serve.journal('faults', 'f-err');
  assert.equal(err[0].kind, 'overloaded');
  const reset = await serve.journal('faults', 'f-reset');
  assert.equal(reset[0].status, 0);
});

test('an unknown route is journalled with its route', async () => {
  const res = await fetch(serve.bases.plain + 'v1/embeddings', { method: 'POST', body: '{}' });
  assert.equal(res.status, 404);
  assert.equal((await res.json()).error.code, 'unknown_url');
  const j = await serve.journal('', '');
  assert.ok(j.some((e) => e.route === '/plain/v1/embeddings' && e.status === 404));
});
