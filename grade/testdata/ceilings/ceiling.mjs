// A probe client with a known Retry-After policy, as ceiling.py, for Node
// 20 and its global fetch (no dependencies): one request per attempt to
// ANTHROPIC_BASE_URL's Messages API; exit 0 with the answer, 1 when it
// gives up. POLICY is none, fallback60, giveup60, giveup120, cap300 or
// unbounded (ceiling.py says what each does).
//
//   faultbench grade --speed 60 -- node grade/testdata/ceilings/ceiling.mjs giveup60
const policies = {
  none: [null, 'wait'], fallback60: [60, 'backoff'], giveup60: [60, 'giveup'],
  giveup120: [120, 'giveup'], cap300: [300, 'cap'], unbounded: [null, 'wait'],
};
const policy = process.argv[2];
const [ceiling, above] = policies[policy];
const url = process.env.ANTHROPIC_BASE_URL + '/v1/messages';
const body = JSON.stringify({ model: process.env.FAULTBENCH_MODEL || 'primary', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }] });
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));

async function send() {
  try {
    const r = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-api-key': process.env.ANTHROPIC_API_KEY || '', 'anthropic-version': '2023-06-01' } });
    await r.text();
    return [r.status, r.headers];
  } catch {
    return [599, new Headers()]; // a reset or a refused connection: retried as a 5xx
  }
}

for (let attempt = 1; ; attempt++) {
  const [status, headers] = await send();
  if (status === 200) { console.log('answered at attempt', attempt); process.exit(0); }
  if ((status < 500 && status !== 429) || headers.get('x-should-retry') === 'false') { console.log('stopped on', status); process.exit(1); }
  if (policy !== 'unbounded' && attempt >= 10) { console.log('gave up after', attempt, 'attempts'); process.exit(1); }
  const backoff = Math.min(8, 0.5 * 2 ** Math.min(attempt - 1, 5));
  const asked = headers.get('retry-after');
  if (asked === null) { await sleep(policy === 'unbounded' ? 3 : backoff); continue; }
  const s = Number(asked);
  if (ceiling === null || s <= ceiling) await sleep(s);
  else if (above === 'backoff') await sleep(backoff);
  else if (above === 'cap') await sleep(ceiling);
  else { console.log('retry-after', s, 'is over', ceiling, 's: giving up'); process.exit(1); }
}
