import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { VoiceProviderError, type SipNumbers, type SipVendorNumber } from '../../voice/provider.ts';
import type { SipCallRoute } from '../../voice/sip-codes.ts';

/** The advisory lock class of a trunk number's vendor objects (7301 campaigns ... 7304 accounts). */
const VENDOR_NUMBER_LOCK_CLASS = 7_329;

/**
 * The vendor's number for a trunk call (issue 29): Vapi and Retell place trunk calls only from a
 * number they know, made once per (trunk, route, caller ID) through their API and remembered in
 * sip_trunk_vendor_numbers. The row keeps a fingerprint of the trunk settings the objects were
 * made from: an HMAC under SECRET_KEY (the password is part of it, so a plain hash would let a
 * database reader test guesses), and a changed trunk makes new objects. Two processes dialling the
 * same number at once wait on a transaction-scoped advisory lock, so the vendor gets one of each.
 * A changed trunk moves the same vendor number to a new credential (vendors keep one record per
 * number); the older credential is left at the vendor (a call may still be running on it).
 */
/** This process's requests for a number in flight: the calls of one round that need it wait on one request. */
const inFlight = new Map<string, Promise<string>>();

export async function vendorNumberFor(
  deps: Pick<Deps, 'db' | 'config'>,
  routeKey: string,
  vendor: SipNumbers,
  sip: SipCallRoute,
  from: string | null,
): Promise<string> {
  const key = `${sip.trunkId}|${routeKey}|${from}|${sip.username}|${sip.password}|${sip.trunkUri}|${sip.gateways.join(',')}`;
  const pending = inFlight.get(key);
  if (pending) return pending;
  const request = findOrMakeNumber(deps, routeKey, vendor, sip, from).finally(() => inFlight.delete(key));
  inFlight.set(key, request);
  return request;
}

async function findOrMakeNumber(
  deps: Pick<Deps, 'db' | 'config'>,
  routeKey: string,
  vendor: SipNumbers,
  sip: SipCallRoute,
  from: string | null,
): Promise<string> {
  if (sip.trunkId === null) {
    throw new VoiceProviderError('rejected', 'this vendor sends calls through a SIP trunk only from a number it knows: name a SIP trunk with its caller IDs for the campaign (PUT /api/v1/campaigns/{id}/sip-trunk)', false);
  }
  if (!from) throw new VoiceProviderError('rejected', 'the campaign\'s SIP trunk lists no caller ID to call from (the trunk\'s caller_ids)', false);
  const trunkId = sip.trunkId;
  const fingerprint = createHmac('sha256', deps.config.SECRET_KEY)
    .update(JSON.stringify([sip.trunkUri, sip.username, sip.password, [...sip.gateways].sort()]))
    .digest('hex');
  // Known and current: no lock, no transaction (every call of a trunk campaign asks).
  const current = await deps.db.selectFrom('sip_trunk_vendor_numbers').select(['fingerprint', 'vendor_number_id'])
    .where('trunk_id', '=', trunkId).where('route', '=', routeKey).where('number', '=', from).executeTakeFirst();
  if (current && current.fingerprint === fingerprint && current.vendor_number_id) return current.vendor_number_id;
  return deps.db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${VENDOR_NUMBER_LOCK_CLASS}, hashtext(${`${trunkId}|${routeKey}|${from}`}))`.execute(trx);
    const known = await trx.selectFrom('sip_trunk_vendor_numbers').select(['fingerprint', 'vendor_credential_id', 'vendor_number_id'])
      .where('trunk_id', '=', trunkId).where('route', '=', routeKey).where('number', '=', from).executeTakeFirst();
    if (known && known.fingerprint === fingerprint && known.vendor_number_id) return known.vendor_number_id;
    let made: SipVendorNumber;
    try {
      const previous = known?.vendor_number_id ? { credentialId: known.vendor_credential_id, numberId: known.vendor_number_id } : null;
      made = await vendor.provision(sip, from, previous);
    } catch (error) {
      if (error instanceof VoiceProviderError) throw error;
      // No call was placed: a known outcome, the attempt given back (retryable).
      throw new VoiceProviderError('unavailable', `the vendor could not set up the trunk's number: ${(error as Error).message}`, true);
    }
    await trx.insertInto('sip_trunk_vendor_numbers')
      .values({ trunk_id: trunkId, route: routeKey, number: from, fingerprint, vendor_credential_id: made.credentialId, vendor_number_id: made.numberId })
      .onConflict((oc) => oc.columns(['trunk_id', 'route', 'number']).doUpdateSet({
        fingerprint, vendor_credential_id: made.credentialId, vendor_number_id: made.numberId, created_at: sql`now()`,
      }))
      .execute();
    return made.numberId;
  });
}
