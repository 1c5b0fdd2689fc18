// openai's AzureOpenAI client against `faultbench serve`'s Azure OpenAI
// routes, unmodified but for its endpoint (the scenario's base URL) and a
// dummy key: a plain and a streamed completion on a deployment (the
// stream's first chunk has no choices, as Azure's), the gateway's 429
// with its waits in milliseconds, the content filter's 400, an error
// inside a stream, each parsed as the SDK's own error; and what the
// journal records. Run inside a network namespace with only loopback
// (.ci/run).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { AzureOpenAI, RateLimitError, BadRequestError, APIError } from 'openai';
import { startServe } from '../serve.mjs';

let serve;
before(async () => { serve = await startServe(); });
after(async () => { await serve?.stop(); });

const azure = (session) => new AzureOpenAI({
  endpoint: serve.bases.azure.replace(/\/$/, ''),
  apiKey: 'dummy',
  apiVersion: '2024-10-21',
  maxRetries: 0,
  defaultHeaders: { 'X-Faultbench-Session': session },
});
const ask = (model) => ({ model, max_completion_tokens: 1024, messages: [{ role: 'user', content: 'Say hello.' }] });

test('Azure: a plain and a streamed completion on a deployment, journalled', async () => {
  const c = azure('az-plain');
  const r = await c.chat.completions.create(ask('gpt-4o'));
  assert.equal(r.choices[0].finish_reason, 'stop');
  assert.ok(r.choices[0].message.content.length > 0);
  const chunks = [];
  for await (const chunk of await c.chat.completions.create({ ...ask('gpt-4o'), stream: true })) {
    chunks.push(chunk);
  }
  assert.deepEqual(chunks[0].choices, []);
  assert.ok(chunks[0].prompt_filter_results);
  const text = chunks.map((k) => k.choices[0]?.delta?.content ?? '').join('');
  assert.equal(text, r.choices[0].message.content);
  const j = await serve.journal('azure', 'az-plain');
  assert.deepEqual(j.map((e) => [e.status, e.kind, e.stream ?? false, e.wire, e.model]),
    [[200, 'ok', false, 'azure', 'gpt-4o'], [200, 'ok', true, 'azure', 'gpt-4o']]);
});

test('Azure: the gateway 429 as RateLimitError, its wait in retry-after-ms and x-ms-retry-after-ms', async () => {
  const c = azure('az-rl');
  for (const stream of [false, true]) {
    await assert.rejects(c.chat.completions.create({ ...ask('azure-rl'), stream }), (e) => {
      assert.ok(e instanceof RateLimitError, String(e));
      assert.equal(e.status, 429);
      assert.equal(e.code, '429');
      // serve runs in real time: the wait is what the 3 s window has left.
      const ms = Number(e.headers.get('retry-after-ms'));
      assert.ok(ms > 0 && ms <= 3000, String(ms));
      assert.equal(e.headers.get('x-ms-retry-after-ms'), String(ms));
      assert.equal(e.headers.get('retry-after'), String(Math.ceil(ms / 1000)));
      assert.match(e.message, new RegExp(`Requests to the ChatCompletions_Create Operation .* Please retry after ${Math.ceil(ms / 1000)} seconds\\.`));
      return true;
    });
  }
});

test('Azure: the content filter as BadRequestError, code content_filter', async () => {
  const c = azure('az-filter');
  for (const stream of [false, true]) {
    await assert.rejects(c.chat.completions.create({ ...ask('azure-filter'), stream }), (e) => {
      assert.ok(e instanceof BadRequestError, String(e));
      assert.equal(e.code, 'content_filter');
      assert.equal(e.param, 'prompt');
      assert.equal(e.error.innererror.code, 'ResponsibleAIPolicyViolation');
      return true;
    });
  }
});

test('Azure: an error inside a stream, after 3 chunks, as APIError', async () => {
  const c = azure('az-err');
  let n = 0;
  await assert.rejects((async () => {
    for await (const chunk of await c.chat.completions.create({ ...ask('azure-err'), stream: true })) {
      if (chunk) n++;
    }
  })(), (e) => e instanceof APIError && /overloaded/.test(e.message));
  assert.equal(n, 3);
});
