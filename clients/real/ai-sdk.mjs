// The AI SDK (ai + @ai-sdk/anthropic), its retries as shipped (maxRetries 2).
import { generateText } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';

const anthropic = createAnthropic({ baseURL: process.env.ANTHROPIC_BASE_URL + '/v1' });
try {
  const { text } = await generateText({ model: anthropic(process.env.FAULTBENCH_MODEL || 'primary'), prompt: 'Say hello.', maxOutputTokens: 1024 });
  console.log(`answered: ${text.length} characters`);
} catch (e) {
  console.error(`failed: ${e.message}`);
  process.exit(1);
}
