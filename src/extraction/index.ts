import type { Config } from '../config.ts';
import type { Extractor } from './extractor.ts';
import { createOfflineExtractor } from './offline-extractor.ts';
import { createOpenAiExtractor } from './openai-extractor.ts';

export type * from './extractor.ts';

/** Chooses the extractor once from the settings: an OpenAI-compatible server when LLM_BASE_URL is set, else offline rules. */
export function createExtractor(config: Pick<Config, 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL'>): Extractor {
  if (config.LLM_BASE_URL) {
    return createOpenAiExtractor({ baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, model: config.LLM_MODEL ?? 'gpt-4o-mini' });
  }
  return createOfflineExtractor();
}
