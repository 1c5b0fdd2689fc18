// The helper against the official TypeScript SDKs, each with its own
// retries on, as a user's agent runs them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { startFaultbench } from '../index.mjs';

const models = { m: { context_window: 200000, max_output: 8192 } };
const hi = [{ role: 'user', content: 'hi' }];

test('a 429 then success: the OpenAI SDK waits what retry-after asks', async (t) => {
  const fb = await startFaultbench({ t, scenario: { models,
    script: [{ when: { attempt: 1 }, respond: { status: 429, headers: { 'retry-after-ms': '300' } } }] } });
  const openai = new OpenAI({ baseURL: fb.openaiBaseURL, apiKey: 'test' });
  await openai.chat.completions.create({ model: 'm', messages: hi });
  await fb.assertStatuses(429, 200);
  await fb.assertHonoredRetryAfter();
  const [first, second] = await fb.journal();
  assert.equal(first.retry_after_ms, 300);
  assert.equal(second.retry_count, 1, 'the SDK counts its retry in X-Stainless-Retry-Count');
});

test('two overloads: the Anthropic SDK retries twice, then gets through', async (t) => {
  const fb = await startFaultbench({ t, scenario: { models,
    script: [{ times: 2, respond: { status: 529, headers: { 'retry-after-ms': '100' } } }] } });
  const anthropic = new Anthropic({ baseURL: fb.anthropicBaseURL, apiKey: 'test' });
  const msg = await anthropic.messages.create({ model: 'm', max_tokens: 4096, messages: hi });
  assert.equal(msg.stop_reason, 'end_turn');
  await fb.assertAttempts(3);
  await fb.assertHonoredRetryAfter();
  await fb.assertNoResendAfterPermanent();
});

test('a permanent error: the SDK gives up at once, and the assertion sees a client that would not', async (t) => {
  const fb = await startFaultbench({ t, session: 'perm', scenario: { models,
    script: [{ when: { attempt: 1 }, respond: { status: 400 } }] } });
  const anthropic = new Anthropic({ baseURL: fb.anthropicBaseURL, apiKey: 'test' });
  await assert.rejects(anthropic.messages.create({ model: 'm', max_tokens: 4096, messages: hi }), { status: 400 });
  await fb.assertAttempts(1);
  await fb.assertNoResendAfterPermanent();
  await anthropic.messages.create({ model: 'm', max_tokens: 4096, messages: hi }); // a client that resends it
  await assert.rejects(fb.assertNoResendAfterPermanent(), /request 1 got 400, a permanent error, and 1 more were sent after it/);
});

test('Gemini: @google/genai on the session base URL', async (t) => {
  const fb = await startFaultbench({ t, scenario: { models } });
  const ai = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: fb.geminiBaseURL } });
  const r = await ai.models.generateContent({ model: 'm', contents: 'hi' });
  assert.ok(r.text.length > 0);
  const [e] = await fb.journal();
  assert.deepEqual([e.wire, e.status, e.session], ['gemini', 200, 'test']);
});

test('a client that does not wait fails assertHonoredRetryAfter, naming the gap', async (t) => {
  const fb = await startFaultbench({ t, scenario: { models,
    script: [{ when: { attempt: 1 }, respond: { status: 429, headers: { 'retry-after': '30' } } }] } });
  const openai = new OpenAI({ baseURL: fb.openaiBaseURL, apiKey: 'test', maxRetries: 0 });
  await assert.rejects(openai.chat.completions.create({ model: 'm', messages: hi }), { status: 429 });
  // The early retry is refused, as a real limiter refuses it.
  await assert.rejects(openai.chat.completions.create({ model: 'm', messages: hi }), { status: 429 });
  await assert.rejects(fb.assertHonoredRetryAfter(), /request 2 came \d+ms after request 1, whose 429 asked to wait 30000ms/);
  await assert.rejects(fb.assertAttempts(3), /2 attempts, expected 3 \(journal: 429 429\)/);
});
