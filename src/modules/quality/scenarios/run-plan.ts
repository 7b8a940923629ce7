import { sql } from 'kysely';
import type { Deps } from '../../../deps.ts';
import type { CampaignsTable } from '../../../db/tables/campaigns.ts';
import type { AssistantRow } from '../../../db/tables/voice.ts';
import { spokenContent } from '../../../voice/call-content.ts';
import { templateContext } from '../../../voice/call-template.ts';
import { DEFAULT_SYSTEM_PROMPT } from '../../agent/agent-brain.ts';
import { assistantsByIds } from '../../assistants/assistants.repository.ts';
import { createRedactor, type Redactor } from '../../privacy/redaction/redaction.ts';
import { DEFAULT_REDACTION, policyOf } from '../../privacy/redaction-policy/redaction-policy.ts';
import type { ConversationPlan } from './conversation.ts';

/**
 * What the agent of a run says and knows, built as loadCallScript (agent/call-script.ts) builds a
 * call's: the campaign's prompt (the tested prompt_history entry's, else the one calls use now, as
 * campaign-prompts.ts reads it) and its assistant, with the placeholders filled from the sample
 * contact; the system prompt chosen as relay-session.ts chooses it (the assistant's, else the
 * campaign's prompt, else the default). One statement reads the campaign, the prompt and the
 * redaction rule, kept CACHE_MS per campaign and tested entry (a prompt_history entry never
 * changes; the runs of a campaign's scenarios come together): a change of the campaign's assistant
 * or redaction reaches runs within those seconds, as redaction reaches calls (call-redaction.ts).
 */
const CACHE_MS = 5_000;
const CACHE_MAX = 1_000;
const caches = new WeakMap<object, Map<string, { value: Promise<Loaded>; until: number }>>();
export const SAMPLE_PHONE = '+15555550100';

export interface RunPlan extends ConversationPlan {
  promptText: string | null;
  systemPromptSource: 'assistant' | 'campaign' | 'default';
  /** The campaign's redaction of transcripts, null when its transcripts keep their text. */
  redactor: Redactor | null;
}

type CampaignRow = Pick<CampaignsTable, 'owner_id' | 'title' | 'description' | 'campaign_type' | 'campaign_phone' | 'assistant_id'> & {
  id: number; campaign_data: unknown; prompt: string | null;
  redact_categories: string[] | null; redact_places: string[] | null; account_categories: string[] | null; account_places: string[] | null;
};

const promptText = (column: string) => sql.raw(`CASE jsonb_typeof(${column}->'prompt') WHEN 'string' THEN ${column}->>'prompt' WHEN 'object' THEN (${column}->'prompt')::text END`);

interface Loaded {
  campaign: CampaignRow;
  assistant: AssistantRow | null;
}

type RunKey = { campaign_id: number; prompt_history_id: number | null };

function loaded(deps: Deps, run: RunKey): Promise<Loaded> {
  let cache = caches.get(deps.db);
  if (!cache) caches.set(deps.db, (cache = new Map()));
  const key = `${run.campaign_id}:${run.prompt_history_id}`;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && hit.until > now) return hit.value;
  if (cache.size >= CACHE_MAX) cache.clear();
  const value = read(deps, run);
  cache.set(key, { value, until: now + CACHE_MS });
  // A failed read is not kept.
  value.catch(() => cache.delete(key));
  return value;
}

async function read(deps: Deps, run: RunKey): Promise<Loaded> {
  const { rows: [campaign] } = await sql<CampaignRow>`
    SELECT cp.id, cp.owner_id, cp.title, cp.description, cp.campaign_type, cp.campaign_phone, cp.campaign_data, cp.assistant_id,
      CASE
        WHEN ${run.prompt_history_id}::bigint IS NOT NULL THEN (SELECT ${promptText('h.prompt_data')} FROM prompt_history h WHERE h.id = ${run.prompt_history_id}::bigint AND h.campaign_id = cp.id)
        WHEN EXISTS (SELECT 1 FROM prompt_history h WHERE h.campaign_id = cp.id) THEN (
          SELECT ${promptText('h.prompt_data')} FROM prompt_history h
          WHERE h.campaign_id = cp.id AND h.status IN ('approved', 'auto_approved') ORDER BY h.id DESC LIMIT 1)
        ELSE cp.campaign_data->>'prompt'
      END AS prompt,
      pc.redact_categories, pc.redact_places, ps.redact_categories AS account_categories, ps.redact_places AS account_places
    FROM campaigns cp
    LEFT JOIN campaign_privacy pc ON pc.campaign_id = cp.id
    LEFT JOIN privacy_settings ps ON ps.owner_id = cp.owner_id
    WHERE cp.id = ${run.campaign_id}`.execute(deps.db);
  if (!campaign) throw new Error(`campaign ${run.campaign_id} no longer exists`);
  const assistant = campaign.assistant_id === null ? null : (await assistantsByIds(deps.db, [campaign.assistant_id])).get(campaign.assistant_id) ?? null;
  return { campaign, assistant };
}

export async function loadRunPlan(deps: Deps, run: RunKey & { contact_data: Record<string, unknown> | null }, maxTurns: number): Promise<RunPlan> {
  const { campaign, assistant } = await loaded(deps, run);
  const data = run.contact_data ?? {};
  const phone = typeof data.phone_number === 'string' ? data.phone_number : SAMPLE_PHONE;
  const context = templateContext({ id: 0, phone_number: phone, status: 'new', contact_data: data }, campaign);
  const spoken = spokenContent(deps.config.PUBLIC_BASE_URL, { context, prompt: campaign.prompt, assistant, route: { provider: assistant?.provider ?? deps.config.VOICE_PROVIDER, connectionId: null } });
  // The campaign's redaction rule, else the account's, else the default, where it covers transcripts.
  const account = policyOf({ redact_categories: campaign.account_categories, redact_places: campaign.account_places }, DEFAULT_REDACTION);
  const policy = policyOf({ redact_categories: campaign.redact_categories, redact_places: campaign.redact_places }, account);
  const redacts = policy.categories.length > 0 && policy.places.includes('transcript');
  return {
    system: spoken.assistant?.systemPrompt || spoken.prompt || DEFAULT_SYSTEM_PROMPT,
    systemPromptSource: spoken.assistant?.systemPrompt ? 'assistant' : spoken.prompt ? 'campaign' : 'default',
    promptText: spoken.prompt,
    firstMessage: spoken.assistant?.firstMessage ?? null,
    model: spoken.assistant?.model ?? deps.config.LLM_MODEL ?? null,
    canTransfer: Boolean(spoken.assistant?.transferNumber),
    maxTurns,
    redactor: redacts ? createRedactor({ categories: policy.categories, keepPhones: [phone] }) : null,
  };
}
