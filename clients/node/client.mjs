// A client to grade: one turn through the official TypeScript SDK of the
// scenario's wire (@anthropic-ai/sdk, openai's Chat Completions, or
// @google/genai's generateContent), with the SDK's own retry policy as
// shipped (@google/genai's: none), streamed when the scenario streams. It
// reads what `faultbench grade` puts in its environment
// (ANTHROPIC_BASE_URL, OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL and the
// keys, FAULTBENCH_MODEL, FAULTBENCH_WIRE, FAULTBENCH_STREAM) and exits 0
// with the answer, 1 with the error.
//
//   faultbench grade -- node clients/node/client.mjs
//
// FAULTBENCH_CLIENT_TIMEOUT_MS sets the SDK's per-request timeout (the
// SDKs' default is ten minutes).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { GoogleGenAI } from '@google/genai';

const env = process.env;
const model = env.FAULTBENCH_MODEL || 'primary';
const stream = env.FAULTBENCH_STREAM === 'true';
const timeout = env.FAULTBENCH_CLIENT_TIMEOUT_MS ? Number(env.FAULTBENCH_CLIENT_TIMEOUT_MS) : undefined;
const prompt = 'Say hello.';

async function anthropic() {
  const client = new Anthropic({ timeout });
  const body = { model, max_tokens: 1024, messages: [{ role: 'user', content: prompt }] };
  if (stream) {
    const s = client.messages.stream(body);
    return (await s.finalMessage()).content.map((b) => b.text ?? '').join('');
  }
  const m = await client.messages.create(body);
  return m.content.map((b) => b.text ?? '').join('');
}

async function openai() {
  const client = new OpenAI({ timeout });
  const body = { model, max_tokens: 1024, messages: [{ role: 'user', content: prompt }] };
  if (stream) {
    let text = '';
    for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) {
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    return text;
  }
  const c = await client.chat.completions.create(body);
  return c.choices[0].message.content;
}

async function gemini() {
  // The base URL and the key come from GOOGLE_GEMINI_BASE_URL and
  // GEMINI_API_KEY (or GOOGLE_API_KEY).
  const client = new GoogleGenAI(timeout ? { httpOptions: { timeout } } : {});
  const params = { model, contents: prompt, config: { maxOutputTokens: 1024 } };
  if (stream) {
    let text = '';
    for await (const chunk of await client.models.generateContentStream(params)) {
      text += chunk.text ?? '';
    }
    return text;
  }
  return (await client.models.generateContent(params)).text ?? '';
}

const wires = { anthropic, openai, gemini };

try {
  const text = await (wires[env.FAULTBENCH_WIRE] ?? anthropic)();
  console.log(`answered: ${text.length} characters`);
} catch (e) {
  console.error(`failed: ${e.status ?? ''} ${e.message}`);
  process.exit(1);
}
