// The official Gemini TypeScript SDK (@google/genai) against `faultbench
// serve`: a plain and a streamed generateContent, countTokens, a function
// call echoed back (plain and streamed), and the errors serve sends (429
// RESOURCE_EXHAUSTED with its RetryInfo, per minute and per day, 503
// UNAVAILABLE, 500 INTERNAL, 404 NOT_FOUND, the window's and
// maxOutputTokens' 400, an error inside a stream, a malformed body), each
// parsed as the SDK's ApiError or refused as broken JSON; the transport
// faults (a reset, an empty 200, a stream cut before its finishReason,
// bytes that are no HTTP), 504 DEADLINE_EXCEEDED and the 403 of a request
// without a key; and what the journal records. Run inside a network namespace with only loopback
// (.ci/run).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { GoogleGenAI, ApiError } from '@google/genai';
import { startServe } from '../serve.mjs';

let serve;
before(async () => { serve = await startServe(); });
after(async () => { await serve?.stop(); });

const gemini = (scenario, session) => new GoogleGenAI({
  apiKey: 't',
  httpOptions: { baseUrl: serve.bases[scenario], headers: { 'X-Faultbench-Session': session } },
});
const ask = (model = 'gemini-test', extra = {}) => ({ model, contents: 'Say hello.', config: { maxOutputTokens: 1024, ...extra } });

test('Gemini: a plain and a streamed generateContent, journalled', async () => {
  const c = gemini('plain', 'g-plain');
  const r = await c.models.generateContent(ask());
  assert.equal(r.candidates[0].finishReason, 'STOP');
  assert.equal(r.usageMetadata.candidatesTokenCount, 100);
  assert.equal(r.text.length, 400);
  let text = '';
  let last;
  for await (const chunk of await c.models.generateContentStream(ask())) {
    text += chunk.text ?? '';
    last = chunk;
  }
  assert.equal(text, r.text);
  assert.equal(last.candidates[0].finishReason, 'STOP');
  assert.equal(last.usageMetadata.promptTokenCount, r.usageMetadata.promptTokenCount);
  const j = await serve.journal('plain', 'g-plain');
  assert.deepEqual(j.map((e) => [e.status, e.kind, e.stream ?? false, e.wire]),
    [[200, 'ok', false, 'gemini'], [200, 'ok', true, 'gemini']]);
});

test('Gemini: countTokens counts as the answer charges; MAX_TOKENS is truncation', async () => {
  const c = gemini('plain', 'g-count');
  const n = await c.models.countTokens({ model: 'gemini-test', contents: 'Say hello.' });
  const r = await c.models.generateContent(ask('gemini-test', { maxOutputTokens: 20 }));
  assert.equal(n.totalTokens, r.usageMetadata.promptTokenCount);
  assert.equal(r.candidates[0].finishReason, 'MAX_TOKENS');
  assert.equal(r.usageMetadata.candidatesTokenCount, 20);
});

test('Gemini: a function call, echoed back and answered', async () => {
  const c = gemini('tool-use', 'g-tools');
  const first = await c.models.generateContent(ask());
  const call = first.functionCalls[0];
  assert.ok(call.name);
  const next = await c.models.generateContent({
    ...ask(),
    contents: [{ role: 'user', parts: [{ text: 'Say hello.' }] }, first.candidates[0].content,
      { role: 'user', parts: [{ functionResponse: { id: call.id, name: call.name, response: { output: 'hello' } } }] }],
  });
  assert.equal(next.candidates[0].finishReason, 'STOP');
  // A session of its own, so that its first request is the one that calls.
  const streamed = [];
  for await (const chunk of await gemini('tool-use', 'g-tools-stream').models.generateContentStream(ask())) {
    streamed.push(...(chunk.functionCalls ?? []));
  }
  assert.deepEqual(streamed.map((f) => [f.name, f.args]), [[call.name, call.args]]);

  await assert.rejects(c.models.generateContent({
    ...ask(), contents: [{ role: 'user', parts: [{ functionResponse: { name: 'x', response: {} } }] }],
  }), (e) => e instanceof ApiError && e.status === 400 && /function response turn/.test(e.message));
});

test('Gemini: errors as ApiError, the wait in RetryInfo, and one inside a stream', async () => {
  const c = gemini('faults', 'g-faults');
  await assert.rejects(c.models.generateContent(ask('gemini-rl')), (e) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 429);
    const body = JSON.parse(e.message);
    assert.equal(body.error.status, 'RESOURCE_EXHAUSTED');
    const info = body.error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.RetryInfo');
    assert.equal(info.retryDelay, '14s');
    return true;
  });
  await assert.rejects(c.models.generateContent(ask('gemini-busy')),
    (e) => e instanceof ApiError && e.status === 503 && /UNAVAILABLE/.test(e.message));
  await assert.rejects(c.models.generateContent({ ...ask('gemini-small', { maxOutputTokens: 10 }), contents: 'x'.repeat(400) }),
    (e) => e instanceof ApiError && e.status === 400 && /The input token count \(\d+\) exceeds the maximum number of tokens allowed \(\d+\)/.test(e.message));
  await assert.rejects((async () => {
    for await (const _ of await c.models.generateContentStream(ask('gemini-cut'))) { /* the frames before the error */ }
  })(), (e) => /RESOURCE_EXHAUSTED|UNAVAILABLE/.test(String(e.message)));
  const j = await serve.journal('faults', 'g-faults');
  assert.deepEqual(j.map((e) => e.kind), ['rate_limit', 'overloaded', 'context_overflow', 'overloaded']);
});

test('Gemini: a per-day quota, an internal error, an unknown model, a budget over the maximum, a malformed body', async () => {
  const c = gemini('faults', 'g-more');
  await assert.rejects(c.models.generateContent(ask('gemini-day')), (e) => {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status, 429);
    const body = JSON.parse(e.message);
    const failure = body.error.details.find((d) => d['@type'] === 'type.googleapis.com/google.rpc.QuotaFailure');
    assert.equal(failure.violations[0].quotaId, 'GenerateRequestsPerDayPerProjectPerModel');
    return true;
  });
  await assert.rejects(c.models.generateContent(ask('gemini-500')),
    (e) => e instanceof ApiError && e.status === 500 && /INTERNAL/.test(e.message));
  await assert.rejects(c.models.generateContent(ask('nope')),
    (e) => e instanceof ApiError && e.status === 404 && /NOT_FOUND/.test(e.message));
  await assert.rejects(c.models.generateContent(ask('gemini-small', { maxOutputTokens: 100 })),
    (e) => e instanceof ApiError && e.status === 400 && /maxOutputTokens value of 100/.test(e.message));
  await assert.rejects(c.models.generateContent(ask('gemini-bad')), (e) => !(e instanceof ApiError));
  await assert.rejects((async () => {
    for await (const _ of await c.models.generateContentStream(ask('gemini-bad'))) { /* a frame cut short */ }
  })(), (e) => !(e instanceof ApiError));
  const j = await serve.journal('faults', 'g-more');
  assert.deepEqual(j.map((e) => e.kind), ['quota_exhausted', 'server', 'not_found', 'invalid_request', 'malformed', 'malformed']);
});

// Each model of faults.yaml answers every request with its fault; plain,
// then streamed, on a session of its own.
const outcome = async (model) => {
  const c = gemini('faults', `g-${model}`);
  const got = [];
  try {
    await c.models.generateContent(ask(model));
    got.push('answer');
  } catch (e) { got.push(e); }
  try {
    let frames = 0;
    for await (const _ of await c.models.generateContentStream(ask(model))) frames++;
    got.push(`${frames} frames`);
  } catch (e) { got.push(e); }
  const j = await serve.journal('faults', `g-${model}`);
  return [got, j.map((e) => [e.status, e.kind, e.stream ?? false])];
};

test('Gemini: a reset, bytes that are no HTTP and a stream cut reject as fetch errors, not ApiError', async () => {
  let [got, j] = await outcome('gemini-reset');
  for (const e of got) assert.ok(e instanceof TypeError && e.cause?.code === 'UND_ERR_SOCKET', String(e));
  assert.deepEqual(j, [[0, 'connection', false], [0, 'connection', true]]);
  [got, j] = await outcome('gemini-garbage');
  for (const e of got) assert.ok(e instanceof TypeError && !(e instanceof ApiError), String(e));
  assert.deepEqual(j, [[0, 'connection', false], [0, 'connection', true]]);
  // A stream cut after 2 frames, before any finishReason: the SDK gives
  // the frames, then rejects ("terminated") when the connection drops. A
  // plain body cut half-way rejects the same way.
  [got, j] = await outcome('gemini-trunc');
  for (const e of got) assert.ok(e instanceof TypeError && /terminated/.test(e.message), String(e));
  assert.deepEqual(j, [[200, 'connection', false], [200, 'connection', true]]);
});

test('Gemini: an empty 200 is broken JSON plain, and a stream with no frame and no error', async () => {
  const [got, j] = await outcome('gemini-empty');
  assert.ok(got[0] instanceof SyntaxError, String(got[0]));
  // The SDK does not look for a finishReason: a stream that ends cleanly
  // without one (here, without any frame) is taken as done.
  assert.equal(got[1], '0 frames');
  assert.deepEqual(j, [[200, 'empty', false], [200, 'empty', true]]);
});

test('Gemini: 504 DEADLINE_EXCEEDED and the 403 of a request without a key, as ApiError', async () => {
  const [got, j] = await outcome('gemini-504');
  for (const e of got) assert.ok(e instanceof ApiError && e.status === 504 && /DEADLINE_EXCEEDED/.test(e.message), String(e));
  assert.deepEqual(j, [[504, 'server', false], [504, 'server', true]]);
  // An empty key: the SDK warns, sends no x-goog-api-key, and serve
  // answers as the API does. (No key at all would send the SDK looking
  // for Google Cloud credentials instead.)
  const c = new GoogleGenAI({ apiKey: '', httpOptions: { baseUrl: serve.bases.faults, headers: { 'X-Faultbench-Session': 'g-nokey' } } });
  await assert.rejects(c.models.generateContent(ask('gemini-504')),
    (e) => e instanceof ApiError && e.status === 403 && /PERMISSION_DENIED/.test(e.message) && /unregistered callers/.test(e.message));
  const k = await serve.journal('faults', 'g-nokey');
  assert.deepEqual(k.map((e) => [e.status, e.kind, e.model]), [[403, 'permission', 'gemini-504']]);
});
