import type { Db } from '../../db/connection.ts';
import { forbidden, HttpError, unauthorized, unprocessable } from '../../shared/errors.ts';
import { requirePhone } from '../../shared/phone.ts';
import { digestToken } from '../../shared/secrets.ts';
import { queueContactsNow } from '../dialer/outbound/queue.ts';
import type { DialerWake } from '../dialer/wake.ts';
import { insertContacts, type WrittenContact } from '../contacts/contacts.repository.ts';
import type { ContactIntegrationsRepository, IntegrationRow } from './contact-integrations.repository.ts';
import type { ContactInput } from './create-contact.input.ts';

const WINDOW_MS = 60_000;

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
export async function createOrUpdateContact(input: { db: Db; integration: IntegrationRow; contact: ContactInput; defaultCountry: string; loc: string; dialerWake: DialerWake }) {
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
      .select(['id', 'campaign_id', 'phone_number', 'status', 'contact_data', 'timezone', 'source', 'creation_method', 'calls_attempts', 'message_attempts', 'next_action_time', 'next_action_reason', 'created_at', 'updated_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return { ...row, contact_data: row.contact_data as Record<string, unknown> | null, campaign_title: campaign.title, call_enqueued: queued.length > 0 };
  });
}
