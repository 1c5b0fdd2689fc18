// What the helper does around the SDKs: refusals, files, the binary, shutdown.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFaultbench, findBinary } from '../index.mjs';

test('an invalid scenario is refused with its field and reason', async () => {
  await assert.rejects(startFaultbench({ scenario: { models: { m: { context_window: 10, max_output: 5 } }, script: [{ respond: { status: 999 } }] } }),
    (e) => {
      assert.match(e.message, /script\[0\]\.respond\.status: must be an error status, 400 to 599, got 999/);
      assert.equal(e.problems[0].field, 'script[0].respond.status');
      return true;
    });
});

test('a scenario file is served, and its problems carry its path and line', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'fb-ts-'));
  const good = join(dir, 'good.yaml');
  writeFileSync(good, 'name: good\ndescription: d\nmodels: {m: {context_window: 1000, max_output: 100}}\n');
  const fb = await startFaultbench({ t, scenario: good });
  assert.match(fb.anthropicBaseURL, /^http:\/\/127\.0\.0\.1:\d+\/good\/s\/test$/);
  const bad = join(dir, 'bad.yaml');
  writeFileSync(bad, 'name: bad\ndescription: d\nmodels: {m: {context_window: 1000, max_output: 100}}\nscript: [{respond: {stauts: 500}}]\n');
  await assert.rejects(startFaultbench({ scenario: bad }), new RegExp(`${bad}:4:\\d+: script\\[0\\]\\.respond\\.stauts: unknown field`));
});

test('no binary: the error says how to install it', async () => {
  await assert.rejects(findBinary({ PATH: '/nonexistent' }), /no faultbench binary on PATH; install it with `go install github.com\/faultbench\/faultbench\/cmd\/faultbench@latest`/);
  await assert.rejects(findBinary({ FAULTBENCH_BIN: '/nonexistent/faultbench' }), /FAULTBENCH_BIN=\/nonexistent\/faultbench is not an executable file/);
});

test('a test process that crashes takes its server with it', async () => {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `
    import { startFaultbench } from ${JSON.stringify(new URL('../index.mjs', import.meta.url).href)};
    const fb = await startFaultbench({ scenario: { models: { m: { context_window: 1000, max_output: 100 } } } });
    console.log(fb.journalURL);
    throw new Error('the test crashed');
  `], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b) => { out += b; });
  const [code] = await once(child, 'exit');
  assert.equal(code, 1);
  const url = out.trim();
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/_faultbench\/journal/);
  await assert.rejects(fetch(url), /fetch failed/, 'the server is gone');
});

test('stop ends serve, which prints the journal as a ledger', async () => {
  const fb = await startFaultbench({ scenario: { name: 'ledger', models: { m: { context_window: 1000, max_output: 100 } } } });
  await fetch(fb.anthropicBaseURL + '/v1/messages', { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }) });
  await fb.stop();
  assert.match(fb.output, /ledger/);
  await fb.stop(); // twice is fine
});
