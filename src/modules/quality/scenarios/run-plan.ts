import type { Deps } from '../../../deps.ts';
import { spokenContent } from '../../../voice/call-content.ts';
import { templateContext } from '../../../voice/call-template.ts';
import { DEFAULT_SYSTEM_PROMPT } from '../../agent/agent-brain.ts';
import { assistantsByIds } from '../../assistants/assistants.repository.ts';
import { promptsFor } from '../../campaigns/campaign-prompts.ts';
import { createRedactor, type Redactor } from '../../privacy/redaction/redaction.ts';
import { DEFAULT_REDACTION, policyOf } from '../../privacy/redaction-policy/redaction-policy.ts';
import type { ConversationPlan } from './conversation.ts';
import { historyEntry } from './scenarios.repository.ts';

/**
 * What the agent of a run says and knows, built as loadCallScript (agent/call-script.ts) builds a
 * call's: the campaign's prompt (the tested prompt_history entry's, else the one calls use now) and
 * its assistant, with the placeholders filled from the sample contact; the system prompt chosen as
 * relay-session.ts chooses it (the assistant's, else the campaign's prompt, else the default).
 */
export const SAMPLE_PHONE = '+15555550100';

export interface RunPlan extends ConversationPlan {
  promptText: string | null;
  systemPromptSource: 'assistant' | 'campaign' | 'default';
  /** The campaign's redaction of transcripts, null when its transcripts keep their text. */
  redactor: Redactor | null;
}

export async function loadRunPlan(deps: Deps, run: { campaign_id: number; prompt_history_id: number | null; contact_data: Record<string, unknown> | null }, maxTurns: number): Promise<RunPlan> {
  const campaign = await deps.db.selectFrom('campaigns').selectAll().where('id', '=', run.campaign_id).executeTakeFirstOrThrow();
  const tested = run.prompt_history_id === null ? undefined : await historyEntry(deps.db, campaign.id, run.prompt_history_id);
  const prompt = tested ? tested.prompt : (await promptsFor(deps.db, [campaign.id])).get(campaign.id) ?? null;
  const assistant = campaign.assistant_id === null ? null : (await assistantsByIds(deps.db, [campaign.assistant_id])).get(campaign.assistant_id) ?? null;
  const data = run.contact_data ?? {};
  const phone = typeof data.phone_number === 'string' ? data.phone_number : SAMPLE_PHONE;
  const context = templateContext({ id: 0, phone_number: phone, status: 'new', contact_data: data }, campaign);
  const spoken = spokenContent(deps.config.PUBLIC_BASE_URL, { context, prompt, assistant, route: { provider: assistant?.provider ?? deps.config.VOICE_PROVIDER, connectionId: null } });
  const systemPromptSource = spoken.assistant?.systemPrompt ? 'assistant' : spoken.prompt ? 'campaign' : 'default';
  return {
    system: spoken.assistant?.systemPrompt || spoken.prompt || DEFAULT_SYSTEM_PROMPT,
    systemPromptSource,
    promptText: spoken.prompt,
    firstMessage: spoken.assistant?.firstMessage ?? null,
    model: spoken.assistant?.model ?? deps.config.LLM_MODEL ?? null,
    canTransfer: Boolean(spoken.assistant?.transferNumber),
    maxTurns,
    redactor: await transcriptRedactor(deps, campaign, phone),
  };
}

/** The campaign's redaction rule (else the account's, else the default) where it covers transcripts. */
async function transcriptRedactor(deps: Deps, campaign: { id: number; owner_id: number }, phone: string): Promise<Redactor | null> {
  const [own, account] = await Promise.all([
    deps.db.selectFrom('campaign_privacy').select(['redact_categories', 'redact_places']).where('campaign_id', '=', campaign.id).executeTakeFirst(),
    deps.db.selectFrom('privacy_settings').select(['redact_categories', 'redact_places']).where('owner_id', '=', campaign.owner_id).executeTakeFirst(),
  ]);
  const policy = policyOf(own, policyOf(account, DEFAULT_REDACTION));
  if (policy.categories.length === 0 || !policy.places.includes('transcript')) return null;
  return createRedactor({ categories: policy.categories, keepPhones: [phone] });
}
