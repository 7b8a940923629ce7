import type { Db } from '../../db/connection.ts';
import type { Deps } from '../../deps.ts';
import type { MessagePurpose } from '../../db/tables/messaging.ts';
import { countSegments } from '../../messaging/segments.ts';
import { defaultTemplate, fillTextTemplate, type TextContext } from './text-template.ts';
import { writeTextWithLlm } from './text-writer-llm.ts';
import { messagingSettingsOf } from './messaging-defaults.ts';

/**
 * The words of a text: the LLM's when LLM_BASE_URL is set and its answer passes the checks
 * (text-writer-llm.ts), else the campaign's template (or the default one), filled from the
 * contact, the call and the campaign.
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

const THREAD_TURNS = 10;
const TRANSCRIPT_TURNS = 30;

export async function composeText(deps: Pick<Deps, 'db' | 'config'>, input: ComposeInput): Promise<ComposedText> {
  const ctx = await loadContext(deps.db, input);
  const settings = ctx.settings;
  const prompt = input.promptOverride !== undefined ? input.promptOverride : settings.prompt;
  const template = input.templateOverride !== undefined ? input.templateOverride : settings.template;
  let fallbackReason: string | undefined;
  if (deps.config.LLM_BASE_URL) {
    const written = await writeTextWithLlm({
      baseUrl: deps.config.LLM_BASE_URL,
      apiKey: deps.config.LLM_API_KEY,
      model: deps.config.LLM_MODEL,
      prompt,
      purpose: describePurpose(input.purpose),
      context: { contact: ctx.text.contact, campaign: ctx.text.campaign, call: ctx.text.call, transcript: ctx.transcript, conversation: ctx.thread },
    });
    if (written.ok) return done(written.body, 'llm');
    fallbackReason = written.why;
  }
  const body = fillTextTemplate(template ?? defaultTemplate(input.purpose, ctx.text), ctx.text);
  return done(body, 'template', fallbackReason);
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

async function loadContext(db: Db, input: ComposeInput): Promise<Loaded> {
  const contact = await db.selectFrom('contacts')
    .select(['id', 'phone_number', 'status', 'contact_data', 'campaign_id', 'timezone'])
    .where('id', '=', input.contactId).executeTakeFirstOrThrow();
  const campaign = await db.selectFrom('campaigns')
    .select(['id', 'title', 'description', 'campaign_type', 'campaign_phone', 'campaign_data'])
    .where('id', '=', contact.campaign_id).executeTakeFirstOrThrow();
  const settings = await messagingSettingsOf(db, campaign.id);
  const call = input.callId === null ? undefined : await db.selectFrom('calls')
    .select(['id', 'status', 'action_status', 'call_duration', 'start_time', 'end_time', 'call_data'])
    .where('id', '=', input.callId).executeTakeFirst();
  const thread = await db.selectFrom('messages').select(['role_id', 'body'])
    .where('contact_id', '=', contact.id).orderBy('id', 'desc').limit(THREAD_TURNS).execute();
  const data = (call?.call_data ?? {}) as { transcript?: { role: string; text: string }[]; analysis?: { summary?: string } };
  const contactData = (contact.contact_data && typeof contact.contact_data === 'object' ? contact.contact_data : {}) as Record<string, unknown>;
  const visibleData = Object.fromEntries(Object.entries(contactData).filter(([k]) => !k.startsWith('_')));
  return {
    text: {
      contact: { ...visibleData, id: contact.id, phone_number: contact.phone_number, status: contact.status },
      campaign: { ...((campaign.campaign_data ?? {}) as Record<string, unknown>), id: campaign.id, title: campaign.title, description: campaign.description, campaign_type: campaign.campaign_type, campaign_phone: campaign.campaign_phone },
      call: call ? { id: call.id, status: call.status, action_status: call.action_status, call_duration: call.call_duration, start_time: call.start_time, summary: data.analysis?.summary ?? null } : null,
    },
    settings,
    transcript: (data.transcript ?? []).slice(-TRANSCRIPT_TURNS).map((t) => ({ role: t.role, text: t.text })),
    thread: thread.reverse().map((m) => ({ from: m.role_id === 'contact' ? 'person' : 'business', text: m.body })),
  };
}
