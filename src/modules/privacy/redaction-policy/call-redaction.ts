import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import { createRedactor, type Redactor } from '../redaction/redaction.ts';
import { DEFAULT_REDACTION, policyOf, type RedactionPlace } from './redaction-policy.ts';

/** How one call's data is redacted: the redactor (the contact's own number kept) and where it applies. */
export interface CallRedaction {
  redactor: Redactor;
  places: ReadonlySet<RedactionPlace>;
}

// A call's rule is read once per batch of events and kept a few seconds: a vendor sends a call's
// turns one request each. A change of settings in this process clears it (forgetCallRedactions);
// another process follows within CACHE_MS.
const CACHE_MS = 5_000;
const CACHE_MAX = 10_000;
const caches = new WeakMap<Db, Map<number, { value: CallRedaction | null; until: number }>>();

/** Forgets every call's cached rule (after a change of settings). */
export function forgetCallRedactions(db: Db): void {
  caches.get(db)?.clear();
}

/**
 * The redaction of each call (null: nothing to redact for it), by the campaign's choice, else the
 * account's, else DEFAULT_REDACTION. A call that does not exist is absent from the map.
 */
export async function callRedactions(db: Db, callIds: readonly number[]): Promise<Map<number, CallRedaction | null>> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const now = Date.now();
  const out = new Map<number, CallRedaction | null>();
  const missing: number[] = [];
  for (const id of new Set(callIds)) {
    const hit = cache.get(id);
    if (hit && hit.until > now) out.set(id, hit.value);
    else missing.push(id);
  }
  if (missing.length === 0) return out;
  const { rows } = await sql<{ id: number | string; phone_number: string; categories: string[] | null; places: string[] | null; account_categories: string[] | null; account_places: string[] | null }>`
    SELECT k.id, ct.phone_number, cp.redact_categories AS categories, cp.redact_places AS places,
           ps.redact_categories AS account_categories, ps.redact_places AS account_places
    FROM calls k
    JOIN contacts ct ON ct.id = k.contact_id
    LEFT JOIN campaign_privacy cp ON cp.campaign_id = k.campaign_id
    LEFT JOIN privacy_settings ps ON ps.owner_id = ct.owner_id
    WHERE k.id = ANY(${missing}::bigint[])`.execute(db);
  if (cache.size + rows.length > CACHE_MAX) cache.clear();
  for (const row of rows) {
    const account = policyOf({ redact_categories: row.account_categories, redact_places: row.account_places }, DEFAULT_REDACTION);
    const policy = policyOf({ redact_categories: row.categories, redact_places: row.places }, account);
    const value = policy.categories.length === 0 || policy.places.length === 0 ? null
      : { redactor: createRedactor({ categories: policy.categories, keepPhones: [row.phone_number] }), places: new Set(policy.places) };
    out.set(Number(row.id), value);
    cache.set(Number(row.id), { value, until: now + CACHE_MS });
  }
  return out;
}

/** One call's redaction for a place, or null when that place of that call keeps its text. */
export async function redactionAt(db: Db, callId: number | null, place: RedactionPlace): Promise<Redactor | null> {
  if (callId === null) return null;
  const r = (await callRedactions(db, [callId])).get(callId);
  return r?.places.has(place) ? r.redactor : null;
}
