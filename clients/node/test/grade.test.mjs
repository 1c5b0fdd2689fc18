// `faultbench grade` on the official TypeScript SDKs (client.mjs, their
// retries as shipped), over a part of the built-in pack that takes seconds:
// the card says what the SDKs are known to do — stop on a 400, recover
// from two 500s — and what they are known not to: they retry a 429 insufficient_quota, do not restart a stream cut
// after its 200, and (@google/genai) retry no 503 unless asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, unlinkSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../../..');
const keep = ['invalid-request', 'quota-exhausted', 'stream-cut', 'server-error-transient', 'overloaded-transient-gemini'];

test('grade: the official SDKs\' report card', { timeout: 240000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'faultbench-grade-'));
  try {
    const bin = join(dir, 'faultbench');
    execFileSync('go', ['build', '-o', bin, './cmd/faultbench'], { cwd: repo, stdio: 'inherit' });
    const pack = join(dir, 'pack');
    execFileSync(bin, ['grade', '--write-pack', pack]);
    for (const f of readdirSync(pack)) {
      if (!keep.includes(f.replace(/\.yaml$/, ''))) unlinkSync(join(pack, f));
    }
    const r = spawnSync(bin, ['grade', '--pack', pack, '--format', 'json', '--strategies', 'sdk-anthropic,sdk-openai',
      '--timeout', '60s', '--parallel', '4', '--', process.execPath, join(here, '..', 'client.mjs')],
    { encoding: 'utf8', timeout: 220000, env: { ...process.env, FAULTBENCH_CLIENT_TIMEOUT_MS: '5000' } });
    assert.equal(r.status, 0, `${r.error ?? ''} ${r.stderr}`);
    const rep = JSON.parse(r.stdout);
    const verdict = (check, scenario) => rep.grade.findings.find((f) => f.check === check && f.scenario === scenario)?.status;
    assert.equal(verdict('permanent', 'invalid-request'), 'pass');
    assert.equal(verdict('permanent', 'quota-exhausted'), 'fail');
    assert.equal(verdict('recovers', 'server-error-transient'), 'pass');
    assert.equal(verdict('recovers', 'stream-cut'), 'fail');
    // @google/genai, at GOOGLE_GEMINI_BASE_URL, retries nothing unless asked.
    assert.equal(verdict('recovers', 'overloaded-transient-gemini'), 'fail');
    const runs = Object.fromEntries(rep.grade.runs.map((x) => [x.scenario, x]));
    assert.deepEqual(runs['server-error-transient'].retry_counts, [0, 1, 2]);
    assert.equal(runs['stream-cut'].attempts, 1);
    assert.equal(runs['overloaded-transient-gemini'].attempts, 1);
    const client = rep.results.filter((x) => x.strategy === 'client');
    assert.equal(client.length, keep.length);
    assert.equal(client.find((x) => x.scenario === 'server-error-transient').outcome, 'success');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
