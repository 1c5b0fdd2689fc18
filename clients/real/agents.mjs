// The OpenAI Agents SDK (@openai/agents): one agent, one run, on the
// Responses API at OPENAI_BASE_URL, its retries as shipped.
import { Agent, run, setTracingDisabled } from '@openai/agents';

setTracingDisabled(true);
const agent = new Agent({ name: 'hello', instructions: 'Answer briefly.', model: process.env.FAULTBENCH_MODEL || 'primary' });
try {
  const r = await run(agent, 'Say hello.');
  console.log(`answered: ${String(r.finalOutput).length} characters`);
} catch (e) {
  console.error(`failed: ${e.message}`);
  process.exit(1);
}
