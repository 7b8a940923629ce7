import { requireContactDataSize } from '../../shared/contact-data-limit.ts';
import type { Db } from '../../db/connection.ts';
import type { Clock } from '../../shared/clock.ts';
import { forbidden, HttpError, unauthorized, unprocessable } from '../../http/errors.ts';
import { requirePhone } from '../../shared/phone.ts';
import { digestToken } from '../../shared/credentials.ts';
import { queueContactsNow } from '../contact-lifecycle/queueing.ts';
import type { DueWake } from '../contact-lifecycle/queueing.ts';
import { insertContacts, type WrittenContact } from '../contacts/contacts.repository.ts';
import type { ContactIntegrationsRepository, IntegrationRow } from './contact-integrations.repository.ts';
import { readContactInput, type ContactInput, type InputSource } from './create-contact-input.ts';

const WINDOW_MS = 60_000;
/** Contacts one array body may carry (413 above); each counts against the rate limit. */
export const MAX_ARRAY_ITEMS = 100;

/** The token's integration, or 401. */
export async function authenticateIntegration(repo: ContactIntegrationsRepository, token: string | null): Promise<IntegrationRow> {
  if (!token) throw unauthorized('Integration token required: Authorization: Bearer <token>');
  const integration = await repo.findByTokenHash(digestToken(token));
  if (!integration) throw unauthorized('Invalid integration token');
  return integration;
}

/**
 * Fixed one-minute windows per integration, counted in the database so that every
 * process shares them; each contact in a request counts once.
 */
export async function enforceRateLimit(input: { repo: ContactIntegrationsRepository; integration: IntegrationRow; weight: number; now: Date }) {
  const { repo, integration, weight, now } = input;
  const windowStart = Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS;
  const hits = await repo.hit(integration.id, new Date(windowStart), weight);
  if (hits > integration.rate_limit_per_minute) {
    const retryAfter = Math.max(1, Math.ceil((windowStart + WINDOW_MS - now.getTime()) / 1000));
    throw new HttpError(429, `Rate limit of ${integration.rate_limit_per_minute} contacts per minute exceeded for this integration; retry in ${retryAfter} s`, { 'retry-after': String(retryAfter) });
  }
}

/**
 * Creates the contact, or updates the one the campaign already has for this phone (its
 * contact_data merged, timezone set when given). Only a new contact is queued, and only
 * when start_call applies: the request's start_call, else the integration's
 * auto_start_calls or the campaign's auto_calls.
 */
export async function createOrUpdateContact(input: { db: Db; integration: IntegrationRow; contact: ContactInput; defaultCountry: string; loc: string; dialerWake: DueWake }) {
  const { db, integration, contact, defaultCountry, loc } = input;
  const campaignId = contact.campaignId ?? integration.campaign_ids[0];
  if (campaignId === undefined) throw unprocessable([loc, 'campaign_id'], 'The integration has no campaign left; add one in its settings', 'value_error');
  if (!integration.campaign_ids.includes(campaignId)) throw forbidden();
  const phone = requirePhone(contact.phone, defaultCountry, [loc, 'phone']);

  const data = { ...contact.contactData };
  if (contact.name !== null) data.name = contact.name;
  const determine = contact.determineTimezone ?? integration.determine_timezone;
  // undefined lets the contact take its number's zone.
  const timezone = contact.timezone ?? (determine ? undefined : null);
  const explicitTimezone = contact.timezone !== null;

  return db.transaction().execute(async (trx) => {
    const campaign = await trx.selectFrom('campaigns').select(['id', 'title', 'auto_calls', 'owner_id']).where('id', '=', campaignId).executeTakeFirst();
    if (!campaign || campaign.owner_id !== integration.owner_id) throw forbidden();
    // One statement decides create-or-update, so concurrent posts of one phone never collide.
    const [{ id, inserted }] = (await insertContacts(trx, campaign.owner_id, [{
      campaign_id: campaign.id, phone_number: phone.e164, status: 'new', contact_data: data, ...(timezone === undefined ? {} : { timezone }),
      source: integration.name, creation_method: 'integration',
    }], { merge: { timezone: explicitTimezone ? 'replace' : 'keep' } })) as [WrittenContact];
    const start = contact.startCall ?? (integration.auto_start_calls || campaign.auto_calls);
    const queued = inserted && start ? await queueContactsNow(trx, { contactIds: [id], reason: 'integration', wake: input.dialerWake }) : [];
    const row = await trx
      .selectFrom('contacts')
      .select(['id', 'campaign_id', 'phone_number', 'status', 'contact_data', 'timezone', 'source', 'creation_method', 'calls_attempts', 'message_attempts', 'next_action_time', 'next_action_code', 'next_action_reason', 'created_at', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // Merged into an existing contact, data under the limit can add up past it: refused, and
    // the transaction (the merge, any queueing) rolls back.
    requireContactDataSize(row.contact_data, [loc, 'contact_data']);
    return { ...row, contact_data: row.contact_data as Record<string, unknown> | null, campaign_title: campaign.title, call_enqueued: queued.length > 0 };
  });
}

/** What the create-contact endpoint reads of its HTTP request. */
export interface CreateContactRequest {
  post: boolean;
  /** The token of an `Authorization: Bearer` header, else null. */
  bearer: string | null;
  /** The body came as JSON, so its values keep their JSON types (a form's are text). */
  json: boolean;
  query: Record<string, unknown>;
  /** The parsed body of a POST; undefined for a GET. */
  body: unknown;
  log: { error(details: object, message: string): void };
}

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/**
 * One request to the create-contact endpoint: the integration found by its token (header,
 * body, then the legacy query token) and charged for every contact, then one contact (a POST
 * object falls back to the query for what it lacks) or, for an array body, each item on its
 * own, with an error in place of the items that fail.
 */
export async function createContactsFromRequest(input: { db: Db; repo: ContactIntegrationsRepository; clock: Clock; defaultCountry: string; dialerWake: DueWake; request: CreateContactRequest }) {
  const { db, repo, clock, defaultCountry, dialerWake, request } = input;
  const { query, body } = request;
  const isArray = Array.isArray(body);
  if (isArray && body.length > MAX_ARRAY_ITEMS) throw new HttpError(413, `At most ${MAX_ARRAY_ITEMS} contacts per request; this one has ${body.length}`);
  if (body !== undefined && body !== null && !isArray && typeof body !== 'object') throw new HttpError(422, [{ loc: ['body'], msg: 'Input should be an object or an array of objects', type: 'model_type' }]);

  const bodyObject = !isArray && body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const bodyToken = isArray ? (body as unknown[]).map((i) => str((i as Record<string, unknown> | null)?.token)).find((t) => t) ?? null : str(bodyObject.token);
  const integration = await authenticateIntegration(repo, request.bearer ?? bodyToken ?? str(query.token));
  await enforceRateLimit({ repo, integration, weight: isArray ? Math.max(1, body.length) : 1, now: clock.now() });

  const one = (sources: InputSource[], loc: string) =>
    createOrUpdateContact({ db, integration, contact: readContactInput(sources), defaultCountry, loc, dialerWake });

  if (!isArray) {
    const sources: InputSource[] = [];
    if (request.post) sources.push({ values: bodyObject, loc: 'body', typed: request.json });
    sources.push({ values: query, loc: 'query', typed: false });
    return one(sources, sources[0]!.loc);
  }
  const results = [];
  for (const [i, item] of (body as unknown[]).entries()) {
    try {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new HttpError(422, [{ loc: ['body', i], msg: 'Input should be a valid dictionary or object', type: 'dict_type' }]);
      results.push(await one([{ values: item as Record<string, unknown>, loc: 'body', typed: true }], 'body'));
    } catch (error) {
      if (!(error instanceof HttpError)) {
        request.log.error({ err: error, item: i }, 'create-contact item failed');
        results.push({ error: { status: 500, detail: 'Internal Server Error' } });
        continue;
      }
      const detail = typeof error.detail === 'string' ? error.detail : error.detail.map((d) => ({ ...d, loc: d.loc[0] === 'body' && d.loc[1] !== i ? ['body', i, ...d.loc.slice(1)] : d.loc }));
      results.push({ error: { status: error.statusCode, detail } });
    }
  }
  return results;
}
