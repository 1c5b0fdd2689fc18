// The helper under vitest: the test context stops the server when the
// test finishes (onTestFinished), as node:test's t.after does.
import { test, expect } from 'vitest';
import OpenAI from 'openai';
import { startFaultbench } from '../index.mjs';

const models = { m: { context_window: 200000, max_output: 8192 } };

test('a 429 then success: the OpenAI SDK waits what retry-after asks', async (ctx) => {
  const fb = await startFaultbench({ t: ctx, scenario: { models,
    script: [{ when: { attempt: 1 }, respond: { status: 429, headers: { 'retry-after-ms': '300' } } }] } });
  const openai = new OpenAI({ baseURL: fb.openaiBaseURL, apiKey: 'test' });
  await openai.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
  await fb.assertStatuses(429, 200);
  await fb.assertHonoredRetryAfter();
  expect((await fb.journal())[1].retry_count).toBe(1);
});

let stopped;
test('the server is gone once the test that started it has finished (first)', async (ctx) => {
  const fb = await startFaultbench({ t: ctx, scenario: { models, script: [] } });
  stopped = fb.openaiBaseURL;
  const r = await fetch(stopped + 'models');
  expect(r.status).toBeLessThan(500);
});

test('the server is gone once the test that started it has finished (second)', async () => {
  await expect(fetch(stopped + 'models')).rejects.toThrow();
});
