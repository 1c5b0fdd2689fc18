// faultbench for a Node test: starts `faultbench serve --empty` on a free
// loopback port, declares the test's scenario over its admin route
// (POST /_faultbench/scenarios), and gives the base URLs of the scenario's
// session for the official SDKs, its journal and one-line assertions.
// No runtime dependency beyond Node >= 20.
import { spawn } from 'node:child_process';
import { readFile, access } from 'node:fs/promises';
import { constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import assert from 'node:assert/strict';

const INSTALL = 'install it with `go install github.com/faultbench/faultbench/cmd/faultbench@latest` ' +
  '(Go >= 1.26; the binary lands in $(go env GOPATH)/bin), or set FAULTBENCH_BIN to its path';

// The statuses an official SDK never retries: a permanent error.
const retried = new Set([408, 409, 429]);
export const isPermanent = (status) => status >= 400 && status < 500 && !retried.has(status);

let counter = 0;
const running = new Set();
process.on('exit', () => { for (const c of running) c.kill('SIGKILL'); });

/** Finds the faultbench binary: FAULTBENCH_BIN, else `faultbench` on PATH. */
export async function findBinary(env = process.env) {
  if (env.FAULTBENCH_BIN) {
    try {
      await access(env.FAULTBENCH_BIN, constants.X_OK);
      return env.FAULTBENCH_BIN;
    } catch {
      throw new Error(`faultbench: FAULTBENCH_BIN=${env.FAULTBENCH_BIN} is not an executable file; ${INSTALL}`);
    }
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, process.platform === 'win32' ? 'faultbench.exe' : 'faultbench');
    try {
      await access(p, constants.X_OK);
      return p;
    } catch { /* not here */ }
  }
  throw new Error(`faultbench: no faultbench binary on PATH; ${INSTALL}`);
}

/**
 * Starts faultbench serve with one scenario for a test. See index.d.ts.
 */
export async function startFaultbench(opts) {
  const { scenario, session, t, bin } = opts ?? {};
  if (scenario === undefined) throw new TypeError('startFaultbench: give a scenario: an object, or the path of a scenario file');
  let body, file;
  if (typeof scenario === 'string') {
    file = scenario;
    body = await readFile(scenario, 'utf8');
  } else {
    const sc = { ...scenario };
    sc.name ??= `test-${process.pid}-${++counter}`;
    sc.description ??= 'declared in a test';
    body = JSON.stringify(sc);
  }
  const exe = bin ?? await findBinary();
  const child = spawn(exe, ['serve', '--empty', '--addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (b) => { out += b; });
  const origin = await new Promise((ok, fail) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); fail(new Error(`faultbench serve did not start within 30 s: ${err}`)); }, 30000);
    child.on('error', (e) => { clearTimeout(timer); fail(new Error(`faultbench: cannot start ${exe}: ${e.message}; ${INSTALL}`)); });
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`faultbench serve exited ${code}: ${err}`)); });
    child.stderr.on('data', (b) => {
      err += b;
      const m = err.match(/ scenarios on (http:\/\/\S+) /);
      if (m) { clearTimeout(timer); ok(m[1]); }
    });
  });
  child.removeAllListeners('exit');
  const exited = new Promise((ok) => child.once('exit', ok));
  const stop = async () => {
    if (!running.has(child)) return;
    running.delete(child);
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    await exited;
    clearTimeout(timer);
  };
  const q = session ? `?session=${encodeURIComponent(session)}` : '';
  const res = await fetch(`${origin}/_faultbench/scenarios${q}`, { method: 'POST', body, headers: { 'content-type': 'application/yaml' } });
  const added = await res.json();
  if (res.status !== 201) {
    await stop();
    let msg = added?.error?.message ?? JSON.stringify(added);
    if (file) msg = msg.split('\n').map((l) => (/^\d/.test(l) ? `${file}:${l}` : `${file}: ${l}`)).join('\n');
    const e = new Error(`faultbench: the scenario is refused (${res.status}):\n${msg}`);
    e.problems = added?.error?.problems ?? [];
    throw e;
  }
  const fb = new Faultbench(added, stop, () => out);
  if (t?.after) t.after(stop); // node:test
  else if (t?.onTestFinished) t.onTestFinished(stop); // vitest's test context
  return fb;
}

class Faultbench {
  #stop;
  #stdout;
  constructor(added, stop, stdout) {
    this.name = added.name;
    this.session = added.session;
    this.anthropicBaseURL = added.anthropic_base_url.replace(/\/$/, '');
    this.openaiBaseURL = added.openai_base_url.replace(/\/$/, '');
    this.geminiBaseURL = added.gemini_base_url;
    this.journalURL = added.journal_url;
    this.#stop = stop;
    this.#stdout = stdout;
  }

  /** The session's journal: every request, in order. */
  async journal() {
    const res = await fetch(this.journalURL);
    if (!res.ok) throw new Error(`faultbench: journal: ${res.status}`);
    return res.json();
  }

  /** The session's model requests: the journal without routes that reached no model (count_tokens, a wrong path). */
  async requests() {
    return (await this.journal()).filter((e) => !e.route);
  }

  async #say() {
    const r = await this.requests();
    return `journal: ${r.map((e) => e.status || e.kind).join(' ') || 'no request'}`;
  }

  async assertAttempts(n) {
    const r = await this.requests();
    assert.equal(r.length, n, `faultbench ${this.name}: ${r.length} attempts, expected ${n} (${await this.#say()})`);
  }

  async assertStatuses(...want) {
    const got = (await this.requests()).map((e) => e.status);
    assert.deepEqual(got, want, `faultbench ${this.name}: statuses ${got.join(' ')}, expected ${want.join(' ')}`);
  }

  /** Every request that followed an answer asking to wait came at least that long after it. */
  async assertHonoredRetryAfter() {
    const r = await this.requests();
    r.forEach((e, i) => {
      if (i === 0 || e.honored_retry_after !== false) return;
      assert.fail(`faultbench ${this.name}: request ${e.n} came ${e.gap_ms}ms after request ${r[i - 1].n}, whose ${r[i - 1].status} asked to wait ${r[i - 1].retry_after_ms}ms (${r.map((x) => x.status).join(' ')})`);
    });
  }

  /** No request followed one that got a permanent error (a 4xx the SDKs never retry: not 408, 409, 429). */
  async assertNoResendAfterPermanent() {
    const r = await this.requests();
    const i = r.findIndex((e) => isPermanent(e.status));
    if (i >= 0 && i < r.length - 1) {
      assert.fail(`faultbench ${this.name}: request ${r[i].n} got ${r[i].status}, a permanent error, and ${r.length - 1 - i} more were sent after it (${r.map((x) => x.status).join(' ')})`);
    }
  }

  /** Stops the server; a test's end does it when startFaultbench was given the test's context. */
  stop() { return this.#stop(); }

  async [Symbol.asyncDispose]() { await this.#stop(); }

  /** What serve printed on stdout: after stop, the journal as a ledger table. */
  get output() { return this.#stdout(); }
}
