// A probe client of known behaviour for `faultbench grade`, in Node 20
// (fetch, no package): the same client as probe.py, whose docstring says
// each POLICY.
//
//   faultbench grade -- node grade/testdata/probes/probe.mjs POLICY [START_SECONDS]
const env = process.env;
const policy = process.argv[2] ?? 'careful';
const start = Number(process.argv[3] ?? 0);
const careful = ['careful', 'ignorer', 'exact'].includes(policy);
const wire = env.FAULTBENCH_WIRE ?? 'anthropic';
const stream = env.FAULTBENCH_STREAM === 'true';
const fallback = (env.FAULTBENCH_FALLBACK_MODEL ?? '').split(',').filter(Boolean);
const overflow = /context|input token count|exceed/i;
const sleep = (s) => new Promise((r) => setTimeout(r, s * 1000));
const uniform = (a, b) => a + Math.random() * (b - a);

class Failure extends Error {
  constructor(status, body = '', headers = {}) {
    super(`${status} ${body.slice(0, 200)}`);
    Object.assign(this, { status, body, headers });
  }
}

async function request(model, prompt, maxTokens) {
  let url, body, headers, done;
  if (wire === 'openai') {
    url = env.OPENAI_BASE_URL.replace(/\/$/, '') + '/chat/completions';
    body = { model, max_tokens: maxTokens, stream, messages: [{ role: 'user', content: prompt }] };
    headers = { authorization: 'Bearer ' + (env.OPENAI_API_KEY ?? '') };
    done = '[DONE]';
  } else if (wire === 'gemini') {
    const verb = stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
    url = `${env.GOOGLE_GEMINI_BASE_URL.replace(/\/$/, '')}/v1beta/models/${model}:${verb}`;
    body = { contents: [{ role: 'user', parts: [{ text: prompt }] }], generationConfig: { maxOutputTokens: maxTokens } };
    headers = { 'x-goog-api-key': env.GEMINI_API_KEY ?? '' };
    done = 'finishReason';
  } else {
    url = env.ANTHROPIC_BASE_URL.replace(/\/$/, '') + '/v1/messages';
    body = { model, max_tokens: maxTokens, stream, messages: [{ role: 'user', content: prompt }] };
    headers = { 'x-api-key': env.ANTHROPIC_API_KEY ?? '', 'anthropic-version': '2023-06-01' };
    done = 'message_stop';
  }
  headers['content-type'] = 'application/json';
  // The deadline is the answer's headers' (a hung request sends none):
  // one over the body too would, on a starved host, give up on a 400
  // already received and ask again.
  let res, text;
  const ctl = new AbortController();
  const deadline = setTimeout(() => ctl.abort(new Error('no answer in 15 s')), 15000);
  try {
    res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: ctl.signal });
    clearTimeout(deadline);
    text = await res.text();
  } catch (e) { // reset, timeout, a cut body
    throw new Failure(0, String(e));
  } finally {
    clearTimeout(deadline);
  }
  if (!res.ok) throw new Failure(res.status, text, Object.fromEntries(res.headers));
  if (stream && !text.includes(done)) throw new Failure(0, 'the stream ended before its end');
  return text;
}

const permanent = (f) => [400, 401, 403, 404].includes(f.status) || (f.status === 429 && f.body.includes('insufficient_quota'));

function askedWait(f) {
  const h = f.headers;
  if (policy !== 'ignorer' && h['retry-after-ms']) return Number(h['retry-after-ms']) / 1000;
  if (h['retry-after']) {
    const s = Number(h['retry-after']);
    return Number.isFinite(s) ? s : null;
  }
  const m = /"retryDelay"\s*:\s*"([0-9.]+)s"/.exec(f.body);
  return m ? Number(m[1]) : null;
}

function carefulWait(f, n) {
  const asked = askedWait(f);
  if (asked !== null) return policy === 'exact' ? asked : asked * uniform(1, 1.1);
  const b = 0.5 * 2 ** n;
  return policy === 'exact' ? b : uniform(b / 2, b);
}

async function main() {
  await sleep(start);
  let model = env.FAULTBENCH_MODEL || 'primary';
  let prompt = 'Say hello, please. '.repeat(8);
  let maxTokens = 1024;
  const attempts = { careful: 6, ignorer: 6, exact: 6, blind: 6, spinner: 40, hiccup: 9 }[policy] ?? 1;
  let overloads = 0;
  let last;
  for (let n = 0; n < attempts; n++) {
    if (n > 0) {
      if (careful) await sleep(carefulWait(last, n - 1));
      else if (policy === 'blind') await sleep(1);
      else if (policy === 'hiccup' && n === 4) await sleep(0.15);
    }
    try {
      const text = await request(model, prompt, maxTokens);
      console.log(`answered: ${text.length} characters`);
      return 0;
    } catch (e) {
      if (!(e instanceof Failure)) throw e;
      last = e;
      console.error(`attempt ${n + 1}: ${e.message}`);
    }
    if (!careful) continue;
    if (last.status === 400 && overflow.test(last.body)) {
      maxTokens = 512;
      prompt = prompt.slice(0, Math.floor(prompt.length / 2));
      continue;
    }
    if (permanent(last)) break;
    if (policy !== 'ignorer' && last.headers['x-should-retry'] === 'false') break;
    if (last.status === 503 || last.status === 529) {
      overloads++;
      if (overloads >= 3 && fallback.length > 0 && model !== fallback[0]) model = fallback[0];
    }
  }
  console.error(`failed: ${last.message}`);
  return policy === 'swallow' ? 0 : 1;
}

process.exit(await main());
