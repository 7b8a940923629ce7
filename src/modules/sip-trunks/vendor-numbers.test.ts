import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { appWithAccounts, type Account } from '../../../test/helpers/factories.ts';
import type { SipNumbers, SipVendorNumber } from '../../voice/provider.ts';
import type { SipCallRoute } from '../../voice/sip-codes.ts';
import { findOrMakeNumber } from './vendor-numbers.ts';

/**
 * A trunk number's vendor objects are made once across processes under the row's lease, and no
 * transaction is held while the vendor answers (on the embedded database one would hold every other
 * statement of the process). Each findOrMakeNumber call here is what one process does.
 */
let t: TestApp;
let alice: Account;
beforeAll(async () => void ({ t, alice } = await appWithAccounts()));
afterAll(() => t?.close());

const FROM = '+14155550150';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A vendor whose number takes `ms` to make; `fail` refuses the next request. */
function slowVendor(ms: number) {
  const made: (SipVendorNumber | null)[] = [];
  const vendor: SipNumbers & { fail: boolean; made: typeof made } = {
    fail: false,
    made,
    async provision(_route, _from, previous) {
      await sleep(ms);
      if (vendor.fail) {
        vendor.fail = false;
        throw new Error('the vendor timed out');
      }
      made.push(previous);
      return { credentialId: `cred-${made.length}`, numberId: previous?.numberId ?? `num-${made.length}` };
    },
  };
  return vendor;
}

async function route(): Promise<SipCallRoute> {
  const trunk = await t.request({ method: 'POST', url: '/api/v1/sip-trunks/', headers: alice.headers, payload: { name: 'Carrier', username: 'acme', password: 'lease-test-password', caller_ids: [FROM] } });
  expect(trunk.statusCode).toBe(200);
  return { uri: 'sip:+12125550100@trunk.example.com', trunkUri: 'sip:trunk.example.com', trunkId: trunk.json().id, username: 'acme', password: 'lease-test-password', gateways: [], callerIds: [FROM] };
}

describe('a trunk number made once across processes', () => {
  it('lets one process ask the vendor while another waits for its answer, with the database free meanwhile', async () => {
    const sip = await route();
    const vendor = slowVendor(400);
    const first = findOrMakeNumber(t.deps, 'vapi', vendor, sip, FROM);
    await sleep(50);
    const second = findOrMakeNumber(t.deps, 'vapi', vendor, sip, FROM);
    await sleep(50);
    // While the vendor is answering, another statement of the process is not held behind a transaction.
    const started = Date.now();
    await t.deps.db.selectFrom('campaigns').select('id').limit(1).execute();
    expect(Date.now() - started).toBeLessThan(200);
    expect(await Promise.all([first, second])).toEqual(['num-1', 'num-1']);
    expect(vendor.made).toEqual([null]);
    const row = await t.deps.db.selectFrom('sip_trunk_vendor_numbers').selectAll().where('trunk_id', '=', sip.trunkId!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ vendor_number_id: 'num-1', vendor_credential_id: 'cred-1', making_by: null, making_until: null });
    // Current: no vendor request at all.
    expect(await findOrMakeNumber(t.deps, 'vapi', vendor, sip, FROM)).toBe('num-1');
    expect(vendor.made).toHaveLength(1);
  });

  it('takes over a lease whose process died, and gives the lease back when the vendor fails', async () => {
    const sip = await route();
    const vendor = slowVendor(10);
    await t.deps.db.insertInto('sip_trunk_vendor_numbers')
      .values({ trunk_id: sip.trunkId!, route: 'retell', number: FROM, fingerprint: '', vendor_credential_id: null, vendor_number_id: null, making_by: 'a-dead-process', making_until: new Date(Date.now() - 1000) })
      .execute();
    vendor.fail = true;
    await expect(findOrMakeNumber(t.deps, 'retell', vendor, sip, FROM)).rejects.toMatchObject({ code: 'unavailable', retryable: true });
    const released = await t.deps.db.selectFrom('sip_trunk_vendor_numbers').selectAll().where('trunk_id', '=', sip.trunkId!).executeTakeFirstOrThrow();
    expect(released).toMatchObject({ making_by: null, vendor_number_id: null });
    expect(await findOrMakeNumber(t.deps, 'retell', vendor, sip, FROM)).toBe('num-1');
    // The trunk changes: the same number is remade from what the vendor has.
    expect(await findOrMakeNumber(t.deps, 'retell', vendor, { ...sip, password: 'a-new-password' }, FROM)).toBe('num-1');
    expect(vendor.made).toEqual([null, { credentialId: 'cred-1', numberId: 'num-1' }]);
  });
});
