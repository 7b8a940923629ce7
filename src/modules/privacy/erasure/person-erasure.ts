import { sql, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { conflict } from '../../../http/errors.ts';
import { suppressContacts } from '../../contact-lifecycle/contact-lifecycle.repository.ts';
import { updateContactRow } from '../../contacts/contacts.repository.ts';
import { erasedMark, erasureSalt } from '../../../shared/erased-number.ts';
import { countsOf } from './person-export.ts';
import { selectPerson, type Person } from './person-selection.ts';
import { FORGET_REASONS } from '../../quality/scorecards/call-scores.repository.ts';

type Trx = Transaction<Database>;

/** What an erased value becomes in free text (audit details, import rows). */
export const ERASED_TEXT = '[erased]';

/**
 * Erases one person from an account, in one transaction: their contacts keep their place (calls
 * and analytics count them) but lose their data, their number becomes its salted mark and their
 * status do_not_disturb; their calls, agent conversations, texts, queued texts and webhook
 * deliveries lose what was said and sent; the do-not-call list keeps the person's numbers as
 * marks only (and gains them if absent), so they are never dialled or texted again; audit details,
 * import rows and the live stream's events lose the number and e-mail. Refused (409) while a
 * call with the person is in progress. Answers the counts of what was erased and the mark the
 * number became.
 */
export async function erasePerson(trx: Trx, person: Person, actor: { userId: number | null }, now: Date) {
  const found = await selectPerson(trx, person);
  const live = await trx.selectFrom('calls').select('id').where('id', 'in', found.callIds.length ? found.callIds : [0]).where('status', '=', 'in progress').executeTakeFirst();
  if (live) throw conflict(`A call with this person is in progress (call ${live.id}): end it (POST /api/v1/calls/${live.id}/end) or wait for its end, then erase`);
  const salt = await erasureSalt(trx, person.ownerId);
  const marks = new Map(found.phones.map((p) => [p, erasedMark(salt, p)]));
  const markSql = (column: string) => sql`CASE ${sql.ref(column)} ${sql.join([...marks].map(([p, m]) => sql`WHEN ${p} THEN ${m}`), sql` `)} ELSE ${sql.ref(column)} END`;

  // The lifecycle stops them first (by their numbers), then their data goes.
  await suppressContacts(trx, person.ownerId, found.phones.map((phone) => ({ phone, reason: 'erased on the person\'s request' })));
  const contacts = await trx.selectFrom('contacts').select(['id', 'phone_number']).where('id', 'in', found.contactIds.length ? found.contactIds : [0]).execute();
  for (const c of contacts) await updateContactRow(trx, Number(c.id), { phone_number: marks.get(c.phone_number) ?? erasedMark(salt, c.phone_number), contact_data: '{}', timezone: null, source: null });

  const ids = (list: number[]) => (list.length ? list : [0]);
  await sql`
    UPDATE calls SET call_data = jsonb_build_object('provider', call_data -> 'provider', 'ended_reason', call_data -> 'ended_reason', 'transcript', '[]'::jsonb, 'erased', true),
      contact_data = '{}'::jsonb, record_url = NULL, to_number = ${markSql('to_number')}, from_number = ${markSql('from_number')}, personal_data_purged_at = ${now}
    WHERE id = ANY(${ids(found.callIds)}::bigint[])`.execute(trx);
  await sql`UPDATE agent_conversations SET transcript = '[]'::jsonb, transfer_to = NULL WHERE call_id = ANY(${ids(found.callIds)}::bigint[])`.execute(trx);
  await sql`UPDATE call_scores SET answers = ${FORGET_REASONS} WHERE call_id = ANY(${ids(found.callIds)}::bigint[]) AND answers IS NOT NULL`.execute(trx);
  await sql`
    UPDATE messages SET body = '', to_number = ${markSql('to_number')}, from_number = ${markSql('from_number')}, error_message = NULL, personal_data_purged_at = ${now}
    WHERE id = ANY(${ids(found.messageIds)}::bigint[])`.execute(trx);
  // Texts not sent yet are not sent at all.
  await sql`UPDATE message_jobs SET body = NULL, status = CASE WHEN status IN ('pending', 'claimed') THEN 'cancelled' ELSE status END,
      reason = CASE WHEN status IN ('pending', 'claimed') THEN 'the person was erased' ELSE reason END
    WHERE id = ANY(${ids(found.jobIds)}::bigint[])`.execute(trx);
  await sql`UPDATE webhook_deliveries SET payload = '{}'::jsonb, response_body = NULL, personal_data_purged_at = ${now} WHERE id = ANY(${ids(found.deliveryIds)}::bigint[])`.execute(trx);
  await sql`DELETE FROM live_events WHERE call_id = ANY(${ids(found.callIds)}::bigint[])`.execute(trx);

  // The law's part: each number stays on the do-not-call list, as its mark only.
  await sql`UPDATE suppressions SET phone_number = ${markSql('phone_number')} WHERE id = ANY(${ids(found.suppressionIds)}::bigint[])`.execute(trx);
  const { rows: added } = await sql<{ id: number }>`
    INSERT INTO suppressions (owner_id, phone_number, reason, source, created_by_user_id)
    SELECT ${person.ownerId}, m, 'erased on the person''s request', 'manual', ${actor.userId} FROM unnest(${[...marks.values()]}::text[]) AS m
    ON CONFLICT (owner_id, phone_number) DO NOTHING RETURNING id`.execute(trx);

  const texts = [...found.phones, ...(person.email ? [person.email] : [])];
  const scrubbed = await scrubText(trx, person.ownerId, texts);
  return { erased: { ...countsOf(found), suppressions_added: added.length, ...scrubbed }, mark: marks.get(person.phone)! };
}

/** The number and e-mail written out in free text (audit details, import rows and errors) become ERASED_TEXT. */
async function scrubText(trx: Trx, ownerId: number, texts: string[]) {
  const replaced = (column: string) => texts.reduce((expr, t) => sql`replace(${expr}, ${JSON.stringify(t).slice(1, -1)}, ${ERASED_TEXT})`, sql`${sql.ref(column)}::text`);
  const mentions = (column: string) => sql.join(texts.map((t) => sql`strpos(${sql.ref(column)}::text, ${JSON.stringify(t).slice(1, -1)}) > 0`), sql` OR `);
  // The audit trail lets its details (only) be rewritten under this transaction-local flag (migration 0038).
  await sql`SELECT set_config('voice_campaigns.audit_erasure', 'on', true)`.execute(trx);
  const audit = await sql`UPDATE audit_events SET details = ${replaced('details')}::jsonb WHERE owner_id = ${ownerId} AND (${mentions('details')})`.execute(trx);
  await sql`SELECT set_config('voice_campaigns.audit_erasure', 'off', true)`.execute(trx);
  const chunks = await sql`
    UPDATE import_task_chunks k SET rows = ${replaced('rows')}::json FROM import_tasks t
    WHERE t.id = k.task_id AND t.owner_id = ${ownerId} AND (${mentions('rows')})`.execute(trx);
  await sql`UPDATE import_tasks SET errors = ${replaced('errors')}::jsonb WHERE owner_id = ${ownerId} AND (${mentions('errors')})`.execute(trx);
  const dnc = await sql`
    UPDATE suppression_imports SET rows = ${replaced('rows')}::jsonb, errors = ${replaced('errors')}::jsonb
    WHERE owner_id = ${ownerId} AND ((${mentions('rows')}) OR (${mentions('errors')}))`.execute(trx);
  return { audit_events: Number(audit.numAffectedRows ?? 0), import_chunks: Number(chunks.numAffectedRows ?? 0) + Number(dnc.numAffectedRows ?? 0) };
}
