import type { Deps } from '../../deps.ts';
import type { MessageJobRow } from '../../db/tables/messaging.ts';
import { countSegments } from '../../messaging/segments.ts';
import type { SimTextReply, TextSendResult } from '../../messaging/text-channel.ts';
import { composeTexts, type ComposedText, type ComposeRows } from './compose-text.ts';
import { messagingSettingsOfMany, type MessagingSettings } from './messaging-defaults.ts';
import { lockClaimedJobs, settleJobs, type JobSettlement } from './text-jobs.repository.ts';
import { textVerdicts, type TextLawInput, type TextVerdict } from './text-law.ts';
import { textRoutesFor, type TextRoute } from './text-routes.ts';
import { recordSendResults } from './send-result.ts';
import { openWhatsAppSessions, whatsappForm } from './whatsapp-window.ts';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { countTextAttempts } from '../contact-lifecycle/contact-lifecycle.repository.ts';

/** What a contact's `_sim.text_reply` may ask the simulator for; anything else lets it draw. */
const SIM_TEXT_REPLIES = new Set<string>(['none', 'question', 'call_me', 'stop', 'interested', 'landline'] satisfies SimTextReply[]);

/**
 * A batch of claimed jobs, from their words to the vendor's answers:
 * 1. read the contacts, campaigns and settings once (the law's inputs and the words' data); when a model will write, ask the law first
 *    without locks (a text that must wait or may not go costs no model call);
 * 2. write the words (an operator's as given, else composeTexts);
 * 3. one transaction: the jobs still ours, the contacts locked (id order), the law asked again
 *    (caps under the numbers' locks), the Message rows written `sending`, message_attempts
 *    counted, the jobs ended;
 * 4. send each once, and record the answers (send-result.ts).
 */
export async function sendTextJobs(deps: Deps, jobs: MessageJobRow[], workerId: string): Promise<void> {
  if (jobs.length === 0) return;
  const { targets, rows } = await loadTargets(deps, jobs);
  const gone = jobs.filter((j) => !targets.has(j.id));
  await settleJobs(deps.db, gone.map((j) => ({ id: j.id, status: 'skipped', reason: 'the contact or campaign no longer exists' })), workerId);
  let live = jobs.filter((j) => targets.has(j.id));

  if (deps.config.LLM_BASE_URL !== undefined && live.some((j) => j.body === null)) {
    const early = await deps.db.transaction().execute((trx) => textVerdicts(trx, live.map((j) => targets.get(j.id)!.law), deps.clock.now()));
    await settleJobs(deps.db, live.flatMap((j, i) => settlement(j, early[i]!)), workerId);
    live = live.filter((_, i) => early[i]!.kind === 'send');
  }
  const composing = live.filter((j) => j.body === null);
  const composed = await composeTexts(deps, composing.map((j) => ({ contactId: j.contact_id, callId: j.call_id, purpose: j.purpose, replyToMessageId: j.reply_to_message_id })), rows);
  const words = new Map<number, Pick<ComposedText, 'body' | 'segments' | 'encoding'>>(composing.map((j, i) => [j.id, composed[i]!]));
  for (const j of live) if (j.body !== null) words.set(j.id, { body: j.body, ...countSegments(j.body) });
  const routes = await routesOf(deps, live, targets);

  // Per job: the WhatsApp template it goes out as (outside the 24-hour window), else its words.
  const templates = new Map<number, string>();
  const written = await deps.db.transaction().execute(async (trx) => {
    const ours = await lockClaimedJobs(trx, live.map((j) => j.id), workerId);
    const mine = live.filter((j) => ours.has(j.id));
    const fresh = new Map((await trx.selectFrom('contacts').select(['id', 'status', 'phone_number', 'timezone', 'message_attempts'])
      .where('id', 'in', mine.length > 0 ? mine.map((j) => j.contact_id) : [0]).orderBy('id').forUpdate().execute()).map((c) => [c.id, c]));
    const now = deps.clock.now();
    const present = mine.filter((j) => fresh.has(j.contact_id));
    const verdicts = await textVerdicts(trx, present.map((j) => ({ ...targets.get(j.id)!.law, contact: fresh.get(j.contact_id)! })), now);
    await applyWhatsAppWindow(trx, present, verdicts, (j) => targets.get(j.id)!.settings, now, templates);
    const sending = present.filter((_, i) => verdicts[i]!.kind === 'send');
    const rows = sending.length === 0 ? [] : await trx.insertInto('messages').values(sending.map((j) => {
      const t = targets.get(j.id)!;
      const w = words.get(j.id)!;
      const route = routes.get(j.campaign_id)!;
      return {
        owner_id: j.owner_id, campaign_id: j.campaign_id, contact_id: j.contact_id, call_id: j.call_id,
        direction: 'outbound' as const, role_id: j.purpose === 'manual' ? 'operator' as const : 'assistant' as const, source: t.settings.channel,
        purpose: j.purpose, body: templates.has(j.id) ? `WhatsApp template ${templates.get(j.id)} (outside the 24-hour window; the words written were not sent)` : w.body, status: 'sending' as const, to_number: fresh.get(j.contact_id)!.phone_number, from_number: route.from,
        provider: route.provider.name, voice_connection_id: route.connectionId, segments: w.segments, encoding: w.encoding,
        sent_by_user_id: j.sent_by_user_id, sent_by_sub_user_id: j.sent_by_sub_user_id,
        // The service's clock, as calls' start_time: the caps count texts by it.
        created_at: now, updated_at: now,
      };
    })).returning(['id']).execute();
    // INSERT ... VALUES returns its rows in the order of the values.
    const messageOf = new Map(sending.map((j, i) => [j.id, Number(rows[i]!.id)]));
    const perContact = new Map<number, number>();
    for (const j of sending) perContact.set(j.contact_id, (perContact.get(j.contact_id) ?? 0) + 1);
    await countTextAttempts(trx, perContact, now);
    await settleJobs(trx, [
      ...mine.filter((j) => !fresh.has(j.contact_id)).map((j): JobSettlement => ({ id: j.id, status: 'skipped', reason: 'the contact no longer exists' })),
      ...present.flatMap((j, i) => (verdicts[i]!.kind === 'send' ? [{ id: j.id, status: 'sent' as const, reason: null, messageId: messageOf.get(j.id)! }] : settlement(j, verdicts[i]!))),
    ]);
    return sending.map((j) => ({ job: j, messageId: messageOf.get(j.id)!, to: fresh.get(j.contact_id)!.phone_number }));
  });

  const results = await Promise.all(written.map(async (w) => {
    const t = targets.get(w.job.id)!;
    let result: TextSendResult;
    try {
      result = await routes.get(w.job.campaign_id)!.provider.send({
        messageId: w.messageId, channel: t.settings.channel, to: w.to, from: routes.get(w.job.campaign_id)!.from, body: words.get(w.job.id)!.body,
        messagingServiceSid: t.settings.messaging_service_sid, contentSid: templates.get(w.job.id) ?? null, simReply: t.simReply,
      });
    } catch (error) {
      result = { kind: 'lost', message: (error as Error).message };
    }
    return { ...w, result };
  }));
  await recordSendResults(deps, results);
}

/**
 * WhatsApp texts inside the transaction, after the law: inside the 24-hour window as written,
 * outside it as the campaign's approved template (recorded in `templates`), else skipped with
 * the reason (whatsapp-window.ts), never tried.
 */
async function applyWhatsAppWindow(
  trx: Transaction<Database>, jobs: MessageJobRow[], verdicts: TextVerdict[], settingsOf: (j: MessageJobRow) => MessagingSettings, now: Date, templates: Map<number, string>,
) {
  const whatsapp = jobs.filter((j, i) => verdicts[i]!.kind === 'send' && settingsOf(j).channel === 'whatsapp');
  if (whatsapp.length === 0) return;
  const open = await openWhatsAppSessions(trx, whatsapp.map((j) => j.contact_id), now);
  for (const [i, j] of jobs.entries()) {
    if (verdicts[i]!.kind !== 'send' || settingsOf(j).channel !== 'whatsapp') continue;
    const form = whatsappForm(open.has(j.contact_id), settingsOf(j).whatsapp_content_sid);
    if (form.kind === 'closed') verdicts[i] = { kind: 'skip', reason: form.reason };
    else if (form.kind === 'template') templates.set(j.id, form.contentSid);
  }
}

function settlement(job: MessageJobRow, verdict: TextVerdict): JobSettlement[] {
  if (verdict.kind === 'send') return [];
  if (verdict.kind === 'wait') return [{ id: job.id, status: 'pending', reason: `waits: ${verdict.reason}`, dueAt: verdict.until }];
  return [{ id: job.id, status: 'skipped', reason: verdict.reason }];
}

interface Target {
  settings: MessagingSettings;
  campaignPhone: string | null;
  simReply: SimTextReply | null;
  law: TextLawInput;
}

/**
 * The batch's contacts with their campaigns and settings, in two statements: the law's inputs
 * (`targets`, by job) and the rows the words are filled from (`rows`, for composeTexts).
 */
async function loadTargets(deps: Deps, jobs: MessageJobRow[]): Promise<{ targets: Map<number, Target>; rows: ComposeRows }> {
  const rows = await deps.db.selectFrom('contacts as c').innerJoin('campaigns as k', 'k.id', 'c.campaign_id')
    .select(['c.id', 'c.status', 'c.phone_number', 'c.timezone', 'c.message_attempts', 'c.contact_data',
      'k.id as campaign_id', 'k.is_paused', 'k.is_archive', 'k.is_auto_ai_message', 'k.campaign_phone', 'k.work_schedule',
      'k.title', 'k.description', 'k.campaign_type', 'k.campaign_data'])
    .select((eb) => [
      eb.cast<string | null>('k.call_allowed_from_time', 'text').as('call_allowed_from_time'),
      eb.cast<string | null>('k.call_allowed_to_time', 'text').as('call_allowed_to_time'),
    ])
    .where('c.id', 'in', [...new Set(jobs.map((j) => j.contact_id))]).execute();
  const byContact = new Map(rows.map((r) => [r.id, r]));
  const settings = await messagingSettingsOfMany(deps.db, [...new Set(rows.map((r) => r.campaign_id))]);
  const out = new Map<number, Target>();
  for (const job of jobs) {
    const row = byContact.get(job.contact_id);
    if (!row || row.campaign_id !== job.campaign_id) continue;
    const s = settings.get(row.campaign_id)!;
    const sim = (row.contact_data as { _sim?: { text_reply?: unknown } } | null)?._sim?.text_reply;
    out.set(job.id, {
      settings: s,
      campaignPhone: row.campaign_phone,
      simReply: typeof sim === 'string' && SIM_TEXT_REPLIES.has(sim) ? (sim as SimTextReply) : null,
      law: {
        ownerId: job.owner_id,
        purpose: job.purpose,
        contact: { id: row.id, status: row.status, phone_number: row.phone_number, timezone: row.timezone, message_attempts: row.message_attempts },
        campaign: {
          call_allowed_from_time: row.call_allowed_from_time, call_allowed_to_time: row.call_allowed_to_time, work_schedule: row.work_schedule,
          is_paused: row.is_paused, is_archive: row.is_archive, is_auto_ai_message: row.is_auto_ai_message ?? false,
        },
        settings: s,
      },
    });
  }
  return {
    targets: out,
    rows: {
      contacts: new Map(rows.map((r) => [r.id, { id: r.id, phone_number: r.phone_number, status: r.status, contact_data: r.contact_data, campaign_id: r.campaign_id }])),
      campaigns: new Map(rows.map((r) => [r.campaign_id, {
        id: r.campaign_id, title: r.title, description: r.description, campaign_type: r.campaign_type, campaign_phone: r.campaign_phone, campaign_data: r.campaign_data,
      }])),
      settings,
    },
  };
}

async function routesOf(deps: Deps, jobs: MessageJobRow[], targets: Map<number, Target>): Promise<Map<number, TextRoute>> {
  return textRoutesFor(deps, jobs.map((job) => {
    const t = targets.get(job.id)!;
    return { ownerId: job.owner_id, campaignId: job.campaign_id, campaignPhone: t.campaignPhone, messagingServiceSid: t.settings.messaging_service_sid };
  }));
}
