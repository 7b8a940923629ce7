import { sql } from 'kysely';
import type { Db } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import type { MessagePurpose } from '../../db/tables/messaging.ts';
import { countSegments } from '../../messaging/segments.ts';
import { defaultTemplate, fillTextTemplate, type TextContext } from './text-template.ts';
import { writeTextWithLlm } from './text-writer-llm.ts';
import { messagingSettingsOfMany } from './messaging-defaults.ts';

/**
 * The words of a text: the LLM's when LLM_BASE_URL is set and its answer passes the checks
 * (text-writer-llm.ts), else the campaign's template (or the default one), filled from the
 * contact, the call and the campaign. A batch of texts reads its context in a few statements.
 */
export interface ComposeInput {
  contactId: number;
  callId: number | null;
  purpose: MessagePurpose;
  replyToMessageId: number | null;
  /** A preview of settings not saved yet (the dashboard's campaign form). */
  promptOverride?: string | null;
  templateOverride?: string | null;
}

export interface ComposedText {
  body: string;
  by: 'llm' | 'template';
  segments: number;
  encoding: 'GSM-7' | 'UCS-2';
  /** Why the LLM's answer was not used, when it was asked. */
  fallbackReason?: string;
}

type ComposeDeps = Pick<Deps, 'db' | 'config'>;

export async function composeText(deps: ComposeDeps, input: ComposeInput): Promise<ComposedText> {
  return (await composeTexts(deps, [input]))[0]!;
}

/**
 * The contacts, campaigns and settings a batch's words are filled from, by id. The text sender
 * has read them already (send-text.ts) and passes them in, so a batch reads them once.
 */
export interface ComposeRows {
  contacts: Map<number, { id: number; phone_number: string; status: string; contact_data: unknown; campaign_id: number }>;
  campaigns: Map<number, { id: number; title: string; description: string | null; campaign_type: string; campaign_phone: string | null; campaign_data: unknown }>;
  settings: Map<number, { prompt: string | null; template: string | null }>;
}

/** One text per input, in order; `rows` must hold every input's contact and its campaign. */
export async function composeTexts(deps: ComposeDeps, inputs: ComposeInput[], rows?: ComposeRows): Promise<ComposedText[]> {
  if (inputs.length === 0) return [];
  const llm = deps.config.LLM_BASE_URL;
  const contexts = await loadContexts(deps.db, inputs, rows ?? await readComposeRows(deps.db, inputs.map((i) => i.contactId)), { forModel: llm !== undefined });
  return Promise.all(inputs.map(async (input, i) => {
    const ctx = contexts[i]!;
    const prompt = input.promptOverride !== undefined ? input.promptOverride : ctx.settings.prompt;
    const template = input.templateOverride !== undefined ? input.templateOverride : ctx.settings.template;
    let fallbackReason: string | undefined;
    if (llm) {
      const written = await writeTextWithLlm({
        baseUrl: llm, apiKey: deps.config.LLM_API_KEY, model: deps.config.LLM_MODEL, prompt,
        purpose: describePurpose(input.purpose),
        context: { contact: ctx.text.contact, campaign: ctx.text.campaign, call: ctx.text.call, transcript: ctx.transcript, conversation: ctx.thread },
      });
      if (written.ok) return done(written.body, 'llm');
      fallbackReason = written.why;
    }
    return done(fillTextTemplate(template ?? defaultTemplate(input.purpose, ctx.text), ctx.text), 'template', fallbackReason);
  }));
}

function done(body: string, by: ComposedText['by'], fallbackReason?: string): ComposedText {
  const { segments, encoding } = countSegments(body);
  return { body, by, segments, encoding, ...(fallbackReason ? { fallbackReason } : {}) };
}

function describePurpose(purpose: MessagePurpose): string {
  switch (purpose) {
    case 'follow_up': return 'follow-up after a call that did not reach the person (say we tried to call, invite a reply)';
    case 'confirmation': return 'confirmation after a call where the person was interested (thank them, say what happens next)';
    case 'reply': return 'answer the person\'s last message in the conversation (answer a question only from the instructions and data)';
    default: return 'a message an operator asked for';
  }
}

interface Loaded {
  text: TextContext;
  settings: { prompt: string | null; template: string | null };
  transcript: { role: string; text: string }[];
  thread: { from: string; text: string }[];
}

const THREAD_TURNS = 10;
const TRANSCRIPT_TURNS = 30;
const asObject = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

export async function readComposeRows(db: Db, contactIds: number[]): Promise<ComposeRows> {
  const contacts = new Map((await db.selectFrom('contacts').select(['id', 'phone_number', 'status', 'contact_data', 'campaign_id'])
    .where('id', 'in', [...new Set(contactIds)]).execute()).map((c) => [c.id, c]));
  const campaignIds = [...new Set([...contacts.values()].map((c) => c.campaign_id))];
  const campaigns = new Map(campaignIds.length === 0 ? [] : (await db.selectFrom('campaigns')
    .select(['id', 'title', 'description', 'campaign_type', 'campaign_phone', 'campaign_data'])
    .where('id', 'in', campaignIds).execute()).map((c) => [c.id, c]));
  return { contacts, campaigns, settings: await messagingSettingsOfMany(db, campaignIds) };
}

async function loadContexts(db: Db, inputs: ComposeInput[], { contacts, campaigns, settings }: ComposeRows, options: { forModel: boolean }): Promise<Loaded[]> {
  const contactIds = [...new Set(inputs.map((i) => i.contactId))];
  const callIds = [...new Set(inputs.flatMap((i) => (i.callId === null ? [] : [i.callId])))];
  const calls = new Map(callIds.length === 0 ? [] : (await db.selectFrom('calls')
    .select(['id', 'status', 'action_status', 'call_duration', 'start_time', 'call_data'])
    .where('id', 'in', callIds).execute()).map((c) => [c.id, c]));
  const threads = options.forModel ? await threadsOf(db, contactIds) : new Map<number, Loaded['thread']>();
  return inputs.map((input) => {
    const contact = contacts.get(input.contactId);
    if (!contact) throw new Error(`contact ${input.contactId} not found`);
    const campaign = campaigns.get(contact.campaign_id)!;
    const call = input.callId === null ? undefined : calls.get(input.callId);
    const data = asObject(call?.call_data) as { transcript?: { role: string; text: string }[]; analysis?: { summary?: string } };
    // The simulator's hints (`_sim`) and other underscored keys are the service's, not the person's.
    const visibleData = Object.fromEntries(Object.entries(asObject(contact.contact_data)).filter(([k]) => !k.startsWith('_')));
    return {
      text: {
        contact: { ...visibleData, id: contact.id, phone_number: contact.phone_number, status: contact.status },
        campaign: { ...asObject(campaign.campaign_data), id: campaign.id, title: campaign.title, description: campaign.description, campaign_type: campaign.campaign_type, campaign_phone: campaign.campaign_phone },
        call: call ? { id: call.id, status: call.status, action_status: call.action_status, call_duration: call.call_duration, start_time: call.start_time, summary: asObject(data.analysis).summary ?? null } : null,
      },
      settings: settings.get(contact.campaign_id)!,
      transcript: (Array.isArray(data.transcript) ? data.transcript : []).slice(-TRANSCRIPT_TURNS).map((t) => ({ role: t.role, text: t.text })),
      thread: threads.get(contact.id) ?? [],
    };
  });
}

/** The last THREAD_TURNS messages of each contact, oldest first, in one statement (messages_contact_id per contact). */
async function threadsOf(db: Db, contactIds: number[]): Promise<Map<number, Loaded['thread']>> {
  const out = new Map<number, Loaded['thread']>(contactIds.map((id) => [id, []]));
  if (contactIds.length === 0) return out;
  const { rows } = await sql<{ contact_id: number; role_id: string; body: string }>`
    SELECT u.id AS contact_id, m.role_id, m.body
    FROM unnest(${contactIds}::bigint[]) AS u(id)
    CROSS JOIN LATERAL (SELECT id, role_id, body FROM messages WHERE contact_id = u.id ORDER BY id DESC LIMIT ${THREAD_TURNS}) m
    ORDER BY u.id, m.id`.execute(db);
  for (const m of rows) out.get(Number(m.contact_id))!.push({ from: m.role_id === 'contact' ? 'person' : 'business', text: m.body });
  return out;
}
