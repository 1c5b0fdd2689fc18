// The official TypeScript SDKs read the prompt cache's usage fields that
// `faultbench serve` sends (docs/cost.md), streamed and not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { startServe } from '../serve.mjs';

let serve;
before(async () => { serve = await startServe(); });
after(async () => { await serve?.stop(); });

const long = (n) => 'abcd'.repeat(n); // n tokens by the mock's rule

test('Anthropic: cache_control writes, then a resend reads, in usage and cache_creation', async () => {
  const c = new Anthropic({ baseURL: serve.bases.cache.replace(/\/$/, ''), apiKey: 't', maxRetries: 0,
    defaultHeaders: { 'X-Faultbench-Session': 'a-cache' } });
  const req = {
    model: 'sonnet', max_tokens: 100,
    system: [{ type: 'text', text: long(2000), cache_control: { type: 'ephemeral', ttl: '1h' } }],
    messages: [{ role: 'user', content: 'Say hello.' }],
  };
  const first = await c.messages.create(req);
  assert.equal(first.usage.cache_creation_input_tokens, 2000);
  assert.equal(first.usage.cache_creation.ephemeral_1h_input_tokens, 2000);
  assert.equal(first.usage.cache_read_input_tokens, 0);
  const final = await c.messages.stream(req).finalMessage();
  assert.equal(final.usage.cache_read_input_tokens, 2000);
  assert.equal(final.usage.cache_creation_input_tokens, 0);
});

test('OpenAI: cached_tokens on Chat Completions and the Responses API', async () => {
  const c = new OpenAI({ baseURL: serve.bases.cache + 'v1', apiKey: 't', maxRetries: 0,
    defaultHeaders: { 'X-Faultbench-Session': 'o-cache' } });
  const chat = { model: 'gpt-test', messages: [{ role: 'system', content: long(1100) }, { role: 'user', content: long(300) }] };
  const one = await c.chat.completions.create(chat);
  assert.equal(one.usage.prompt_tokens_details.cached_tokens, 0);
  const two = await c.chat.completions.create(chat);
  assert.equal(two.usage.prompt_tokens, 1400);
  assert.equal(two.usage.prompt_tokens_details.cached_tokens, 1280);
  const resp = { model: 'gpt-test', instructions: long(1100), input: long(300) };
  await c.responses.create(resp);
  const again = await c.responses.create(resp);
  assert.equal(again.usage.input_tokens_details.cached_tokens, 1280);
});
