import type { Db } from '../../db/connection.ts';
import { forbidden, notFound, unprocessable } from '../../http/errors.ts';
import { CURRENCIES, DEFAULT_CURRENCY, type Currency } from '../../shared/currencies.ts';
import { isValidTimeZone, unknownTimeZone } from '../../shared/timezone.ts';
import type { Principal } from '../auth/principal.ts';
import type { DisplayPreferences } from './display-preferences.schemas.ts';

const KNOWN = new Set<string>(CURRENCIES);

/** A stored code the list no longer holds (a currency withdrawn from ISO 4217) reads as the default, so the answer stays valid. */
const currencyOf = (stored: string): Currency => (KNOWN.has(stored) ? (stored as Currency) : DEFAULT_CURRENCY);

/** The account's preferences; a sub-user reads its owner's (it works inside that account). */
export async function readDisplayPreferences(db: Db, principal: Principal): Promise<DisplayPreferences> {
  const row = await db.selectFrom('users').select(['display_timezone', 'display_currency']).where('id', '=', principal.ownerId).executeTakeFirst();
  if (!row) throw notFound('User');
  return { display_timezone: row.display_timezone, display_currency: currencyOf(row.display_currency) };
}

/**
 * The zone with the capitals of the runtime's own list ("europe/berlin" is stored as Europe/Berlin).
 * Not resolvedOptions(): ICU answers old aliases there (Asia/Kolkata becomes Asia/Calcutta), and a
 * name the list does not hold but the runtime accepts (Asia/Kolkata on Node 20) is kept as written.
 */
function canonicalZone(name: string): string {
  if (!isValidTimeZone(name)) throw unprocessable(['body', 'display_timezone'], unknownTimeZone(name), 'timezone');
  return listedZones().get(name.toLowerCase()) ?? name;
}

let zonesByLowerCase: Map<string, string> | undefined;
const listedZones = () => (zonesByLowerCase ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z])));

/** The owner's change (a sub-user: 403). The zone is checked against the runtime's IANA database, as contacts' zones are. */
export async function updateDisplayPreferences(db: Db, principal: Principal, body: DisplayPreferences): Promise<DisplayPreferences> {
  if (principal.kind !== 'user') throw forbidden();
  const zone = body.display_timezone === null ? null : canonicalZone(body.display_timezone.trim());
  await db.updateTable('users').set({ display_timezone: zone, display_currency: body.display_currency }).where('id', '=', principal.ownerId).execute();
  return readDisplayPreferences(db, principal);
}
