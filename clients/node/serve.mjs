// Builds faultbench with `go build` into a temporary directory, starts
// `faultbench serve` on a free loopback port with this suite's scenarios,
// and gives the base URL of each scenario and the journal.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { once } from 'node:events';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const scenarios = resolve(here, 'scenarios');
// served is how many scenarios serve lists before it is ready: one a file.
const served = readdirSync(scenarios).filter((f) => f.endsWith('.yaml')).length;

export async function startServe() {
  const dir = mkdtempSync(join(tmpdir(), 'faultbench-node-'));
  const bin = join(dir, 'faultbench');
  execFileSync('go', ['build', '-o', bin, './cmd/faultbench'], { cwd: repo, stdio: 'inherit' });
  const child = spawn(bin, ['serve', '--addr', '127.0.0.1:0', scenarios], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (b) => { err += b; });
  const bases = {};
  // serve prints "<scenario>  <base URL>  models: ..." per scenario, then takes requests.
  await new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error('faultbench serve did not start: ' + err)), 30000);
    child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`faultbench serve exited ${code}: ${err}`)); });
    child.stdout.on('data', (b) => {
      out += b;
      for (const line of out.split('\n')) {
        const m = line.match(/^(\S+)\s+(http:\/\/\S+\/)(\s|$)/);
        if (m) bases[m[1]] = m[2];
      }
      if (Object.keys(bases).length === served) { clearTimeout(timer); ok(); }
    });
  });
  child.removeAllListeners('exit');
  const origin = new URL(bases.plain).origin;
  return {
    bases,
    async journal(scenario, session) {
      const res = await fetch(`${origin}/_faultbench/journal?scenario=${scenario}&session=${session}`);
      return res.json();
    },
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
