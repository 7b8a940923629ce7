import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractor } from '../../../extraction/index.ts';
import type { CallEvent } from '../../../voice/provider.ts';
import { startFakeLlm } from '../../../../test/fakes/llm-server.ts';
import { withLlmOptOut } from './llm-opt-out.ts';

/** The LLM's reading of a call for an opt-out the phrase list misses, against a fake OpenAI-compatible server. */
let llm: Awaited<ReturnType<typeof startFakeLlm>>;
beforeAll(async () => {
  // The fake model answers from the caller's words, as a model would.
  llm = await startFakeLlm((body) => {
    const user = JSON.parse(body.messages.find((m: { role: string }) => m.role === 'user').content.split('Context:\n')[1]);
    const said = user.transcript.filter((t: { role: string }) => t.role === 'user').map((t: { text: string }) => t.text).join(' ');
    return { content: { opt_out: /delete this number|should not be called/i.test(said) } };
  });
});
afterAll(async () => llm?.close());

const ended = (said: string): CallEvent => ({
  eventId: 'e1', callId: 1, providerCallId: 'p1', type: 'ended', at: new Date(), status: 'finished',
  transcript: [{ role: 'assistant', text: 'Hi, this is Acme.' }, { role: 'user', text: said }],
});

describe('the LLM\'s opt-out reading', () => {
  it('marks an opt-out the offline phrases miss, leaves others, and asks nothing when no LLM is configured or the phrases already found one', async () => {
    const extractor = createExtractor({ LLM_BASE_URL: llm.url, LLM_MODEL: 'fake', LLM_API_KEY: undefined });
    const [missed, fine] = await withLlmOptOut({ extractor }, [ended('Please delete this number from everything.'), ended('Sounds good, call me Friday.')]);
    expect(missed!.optOutBy).toBe('llm');
    expect(fine!.optOutBy).toBeUndefined();
    const asked = llm.seen.length;
    const [obvious] = await withLlmOptOut({ extractor }, [ended('Stop calling me.')]);
    expect(obvious!.optOutBy).toBeUndefined(); // the offline detector finds it when the call ends
    expect(llm.seen.length).toBe(asked);
    const offline = createExtractor({ LLM_BASE_URL: undefined, LLM_MODEL: undefined, LLM_API_KEY: undefined });
    expect((await withLlmOptOut({ extractor: offline }, [ended('Please delete this number.')]))[0]!.optOutBy).toBeUndefined();
  });
});
