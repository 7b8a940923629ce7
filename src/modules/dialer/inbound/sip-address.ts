import { sql } from 'kysely';
import type { Db } from '../../../db/connection.ts';
import { normalisePhone } from '../../../shared/phone.ts';

/**
 * Inbound calls by SIP address (issue 29): an Inbound campaign's campaign_sip is the address its
 * callers (or the customer's PBX) reach it on. A vendor's request names the called address as a
 * SIP URI (Twilio's SIP Domain: `To=sip:sales@acme.sip.twilio.com;transport=tls`); it matches the
 * campaign whose campaign_sip has the same user@host: the scheme, port, parameters and headers
 * are ignored (a PBX may send the same address over another transport or port), host and user
 * compared without case (phone-style users such as +1415... have none).
 */
export function sipAddressKey(text: string): string | null {
  const m = /^sips?:([^;?]*)/i.exec(text.trim());
  if (!m) return null;
  const at = m[1]!.lastIndexOf('@');
  const user = at >= 0 ? m[1]!.slice(0, at) : '';
  let host = at >= 0 ? m[1]!.slice(at + 1) : m[1]!;
  // host:port, [v6]:port: the port goes.
  host = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '');
  if (!host) return null;
  let decoded = user;
  try { decoded = decodeURIComponent(user); } catch { /* kept as written */ }
  return `${decoded.toLowerCase()}@${host.toLowerCase()}`;
}

/** The caller of a SIP call: the user part as E.164 when it is a phone number, else the address as sent (user@host). */
export function sipCaller(from: string, country: string): string {
  const key = sipAddressKey(from);
  if (!key) return from;
  const user = key.slice(0, key.lastIndexOf('@'));
  return (user && normalisePhone(user, country)?.e164) || key;
}

/** The active Inbound campaigns whose campaign_sip is this address (by sipAddressKey), oldest first. */
export async function campaignsAtSipAddress(db: Db, to: string): Promise<number[]> {
  const key = sipAddressKey(to);
  if (!key) return [];
  const host = key.slice(key.lastIndexOf('@') + 1);
  // The host narrows the rows in SQL; the exact comparison is sipAddressKey's.
  const { rows } = await sql<{ id: number; campaign_sip: string }>`
    SELECT id, campaign_sip FROM campaigns
    WHERE campaign_type = 'Inbound' AND NOT is_archive AND NOT is_paused AND campaign_sip IS NOT NULL
      AND strpos(lower(campaign_sip), ${host}) > 0
    ORDER BY id`.execute(db);
  return rows.filter((r) => sipAddressKey(r.campaign_sip) === key).map((r) => Number(r.id));
}
