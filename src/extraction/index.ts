import type { Config } from '../config.ts';
import type { Extractor } from './extractor.ts';
import { createLlmBudget, type LlmBudget } from './llm-budget.ts';
import { createOfflineExtractor } from './offline-extractor.ts';
import { createOpenAiExtractor } from './openai-extractor.ts';

export type * from './extractor.ts';

/**
 * Chooses the extractor once from the settings: an OpenAI-compatible server when LLM_BASE_URL is set, else offline rules.
 * The LLM's requests go through one budget of LLM_CONCURRENCY slots (llm-budget.ts), taken at the
 * input's priority (webhook extraction first, call scoring later); offline rules need none.
 */
export function createExtractor(config: Pick<Config, 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL'> & { LLM_CONCURRENCY?: number }): Extractor {
  if (config.LLM_BASE_URL) {
    const llm = createOpenAiExtractor({ baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL ?? 'gpt-4o-mini' });
    return withLlmBudget(llm, createLlmBudget(config.LLM_CONCURRENCY ?? 16));
  }
  return createOfflineExtractor();
}

/** The extractor whose every request takes a slot of the budget at its input's priority (default first). */
export function withLlmBudget(extractor: Extractor, budget: LlmBudget): Extractor & { budget: LlmBudget } {
  return {
    name: extractor.name,
    budget,
    extract: (input) => budget.run(input.priority ?? 'first', () => extractor.extract(input)),
  };
}
