import { describe, expect, it } from 'vitest';
import type { CallAssistant } from '../../provider.ts';
import type { CallRecording } from '../../call-recording.ts';
import { retellAgentOverride } from './retell-requests.ts';

const assistant: CallAssistant = {
  id: 1, name: 'A', providerAssistantId: 'agent_1', firstMessage: 'Hi Ann.', systemPrompt: null, voice: null, language: null, model: null,
  voicemail: { action: 'hang_up', message: null }, maxDurationSec: null, transferNumber: null,
};
const rule = (r: CallRecording['rule']): CallRecording => ({
  rule: r, chosen_by: 'campaign', jurisdiction: 'US-CA', consent: null,
  disclosure: r === 'after_disclosure' ? 'This call is recorded.' : null, consent_prompt: r === 'after_consent' ? 'May we record?' : null,
});

describe('recording rules on Retell', () => {
  it('speaks the disclosure first, keeps nothing recorded where consent is needed, and changes nothing under always', () => {
    expect(retellAgentOverride(assistant, null, rule('after_disclosure'))?.retell_llm?.begin_message).toBe('This call is recorded. Hi Ann.');
    // Retell cannot start a recording mid-call: after consent, it keeps basic attributes only.
    const consent = retellAgentOverride(assistant, null, rule('after_consent'));
    expect(consent?.agent?.data_storage_setting).toBe('basic_attributes_only');
    expect(consent?.retell_llm?.begin_message).toBe('Hi Ann.');
    const always = retellAgentOverride(assistant, null, rule('always'));
    expect(always?.agent?.data_storage_setting).toBeUndefined();
    expect(always?.retell_llm?.begin_message).toBe('Hi Ann.');
  });
});
