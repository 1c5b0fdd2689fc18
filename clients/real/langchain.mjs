// LangChain JS (@langchain/anthropic's ChatAnthropic), its retries as shipped.
import { ChatAnthropic } from '@langchain/anthropic';

const model = new ChatAnthropic({
  model: process.env.FAULTBENCH_MODEL || 'primary',
  anthropicApiUrl: process.env.ANTHROPIC_BASE_URL,
  maxTokens: 1024,
});
try {
  const m = await model.invoke('Say hello.');
  console.log(`answered: ${String(m.content).length} characters`);
} catch (e) {
  console.error(`failed: ${e.message}`);
  process.exit(1);
}
