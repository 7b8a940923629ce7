import { createHmac, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import { VoiceProviderError, type SipNumbers, type SipVendorNumber } from '../../voice/provider.ts';
import type { SipCallRoute } from '../../voice/sip-codes.ts';

/** How long a process may take to make a number's vendor objects before another takes over (vendor requests time out well before). */
const LEASE_SECONDS = 60;
/** How often a call waiting for another process's lease looks again. */
const WAIT_MS = 200;

/**
 * The vendor's number for a trunk call (issue 29): Vapi and Retell place trunk calls only from a
 * number they know, made once per (trunk, route, caller ID) through their API and remembered in
 * sip_trunk_vendor_numbers. The row keeps a fingerprint of the trunk settings the objects were
 * made from: an HMAC under SECRET_KEY (the password is part of it, so a plain hash would let a
 * database reader test guesses), and a changed trunk makes new objects. Two processes dialling the
 * same number at once: one takes the row's lease (making_by, making_until, migration 0047) and asks
 * the vendor, with no transaction open across the request (on the embedded database a transaction
 * holds the process's one connection); the other waits for the row to become current, or for the
 * lease to run out. A changed trunk moves the same vendor number to a new credential (vendors keep
 * one record per number); the older credential is left at the vendor (a call may still be running on it).
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

/** The number without this process's in-flight sharing: what each process does (exported for the cross-process test). */
export async function findOrMakeNumber(
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
  const where = { trunkId, routeKey, from };
  const deadline = Date.now() + (LEASE_SECONDS + 5) * 1000;
  for (;;) {
    // Known and current: one read (every call of a trunk campaign asks).
    const known = await readRow(deps.db, where);
    if (known && known.fingerprint === fingerprint && known.vendor_number_id) return known.vendor_number_id;
    const lease = randomUUID();
    if (await takeLease(deps.db, where, lease)) return makeUnderLease(deps, where, vendor, sip, fingerprint, lease, known);
    if (Date.now() > deadline) throw new VoiceProviderError('unavailable', 'another process is still setting up the trunk\'s number at the vendor', true);
    await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
  }
}

type RowKey = { trunkId: number; routeKey: string; from: string };

const readRow = (db: Deps['db'], k: RowKey) => db.selectFrom('sip_trunk_vendor_numbers').select(['fingerprint', 'vendor_credential_id', 'vendor_number_id'])
  .where('trunk_id', '=', k.trunkId).where('route', '=', k.routeKey).where('number', '=', k.from).executeTakeFirst();

/** The row's lease, when nobody holds it (or its holder's ran out); a number never made gets its row here, not current (fingerprint ''). */
async function takeLease(db: Deps['db'], k: RowKey, lease: string): Promise<boolean> {
  const { rows } = await sql<{ making_by: string }>`
    INSERT INTO sip_trunk_vendor_numbers AS v (trunk_id, route, number, fingerprint, making_by, making_until)
    VALUES (${k.trunkId}, ${k.routeKey}, ${k.from}, '', ${lease}, now() + make_interval(secs => ${LEASE_SECONDS}))
    ON CONFLICT (trunk_id, route, number) DO UPDATE SET making_by = EXCLUDED.making_by, making_until = EXCLUDED.making_until
      WHERE v.making_until IS NULL OR v.making_until < now()
    RETURNING making_by`.execute(db);
  return rows[0]?.making_by === lease;
}

async function makeUnderLease(
  deps: Pick<Deps, 'db'>, k: RowKey, vendor: SipNumbers, sip: SipCallRoute, fingerprint: string, lease: string,
  seen: { fingerprint: string; vendor_credential_id: string | null; vendor_number_id: string | null } | undefined,
): Promise<string> {
  const mine = () => deps.db.updateTable('sip_trunk_vendor_numbers').where('trunk_id', '=', k.trunkId).where('route', '=', k.routeKey)
    .where('number', '=', k.from).where('making_by', '=', lease);
  try {
    // Read again under the lease: the holder before us may have made it between our read and our lease.
    const known = (await readRow(deps.db, k)) ?? seen;
    if (known && known.fingerprint === fingerprint && known.vendor_number_id) return known.vendor_number_id;
    const previous = known?.vendor_number_id ? { credentialId: known.vendor_credential_id, numberId: known.vendor_number_id } : null;
    let made: SipVendorNumber;
    try {
      made = await vendor.provision(sip, k.from, previous);
    } catch (error) {
      if (error instanceof VoiceProviderError) throw error;
      // No call was placed: a known outcome, the attempt given back (retryable).
      throw new VoiceProviderError('unavailable', `the vendor could not set up the trunk's number: ${(error as Error).message}`, true);
    }
    await mine().set({ fingerprint, vendor_credential_id: made.credentialId, vendor_number_id: made.numberId, created_at: sql`now()`, making_by: null, making_until: null }).execute();
    return made.numberId;
  } finally {
    // Made or not, the lease ends (a no-op once the result is written).
    await mine().set({ making_by: null, making_until: null }).execute();
  }
}
