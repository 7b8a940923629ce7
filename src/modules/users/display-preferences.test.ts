import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithAccounts, createSubUser, type Account, type SubUser } from '../../../test/helpers/factories.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let alice: Account;
let bob: Account;
let aliceSub: SubUser;

beforeAll(async () => {
  ({ t, alice, bob } = await appWithAccounts());
  aliceSub = await createSubUser(t, alice.id);
});
afterAll(() => t?.close());

const URL = '/api/v1/users/me/preferences';
const read = async (headers: Record<string, string>) => {
  const res = await t.request({ method: 'GET', url: URL, headers });
  return { status: res.statusCode, body: res.json() };
};
const write = async (headers: Record<string, string>, payload: unknown) => {
  const res = await t.request({ method: 'PUT', url: URL, headers, payload: payload as Record<string, unknown> });
  return { status: res.statusCode, body: res.json() };
};

describe('display preferences', () => {
  it('start as the viewer\'s own zone and USD', async () => {
    expect(await read(bob.headers)).toEqual({ status: 200, body: { display_timezone: null, display_currency: 'USD' } });
  });

  it('are changed by the owner, read back, and stay the owner\'s alone', async () => {
    const saved = await write(alice.headers, { display_timezone: 'America/New_York', display_currency: 'EUR' });
    expect(saved).toEqual({ status: 200, body: { display_timezone: 'America/New_York', display_currency: 'EUR' } });
    expect((await read(alice.headers)).body).toEqual(saved.body);
    expect((await read(bob.headers)).body).toEqual({ display_timezone: null, display_currency: 'USD' });
  });

  it('are the owner\'s for a sub-user, who may read but not change them', async () => {
    await write(alice.headers, { display_timezone: 'Asia/Tokyo', display_currency: 'JPY' });
    expect(await read(aliceSub.headers)).toEqual({ status: 200, body: { display_timezone: 'Asia/Tokyo', display_currency: 'JPY' } });
    expect((await write(aliceSub.headers, { display_timezone: null, display_currency: 'USD' })).status).toBe(403);
    expect((await read(alice.headers)).body.display_timezone).toBe('Asia/Tokyo');
  });

  it('go back to the viewer\'s zone with null, and store a zone as the runtime spells it', async () => {
    expect((await write(alice.headers, { display_timezone: null, display_currency: 'USD' })).body).toEqual({ display_timezone: null, display_currency: 'USD' });
    expect((await write(alice.headers, { display_timezone: 'europe/berlin', display_currency: 'USD' })).body.display_timezone).toBe('Europe/Berlin');
    // Kept as written, not turned into the alias ICU resolves it to (Asia/Calcutta).
    expect((await write(alice.headers, { display_timezone: 'Asia/Kolkata', display_currency: 'INR' })).body.display_timezone).toBe('Asia/Kolkata');
  });

  it('refuse an unknown zone or currency with a 422 naming the field, and change nothing', async () => {
    await write(alice.headers, { display_timezone: 'Europe/Paris', display_currency: 'GBP' });
    const zone = await write(alice.headers, { display_timezone: 'Mars/Olympus', display_currency: 'USD' });
    expect(zone.status).toBe(422);
    expect(zone.body.detail[0]).toMatchObject({ loc: ['body', 'display_timezone'], type: 'timezone' });
    const currency = await write(alice.headers, { display_timezone: null, display_currency: 'XXX' });
    expect(currency.status).toBe(422);
    expect(currency.body.detail[0].loc).toEqual(['body', 'display_currency']);
    expect((await write(alice.headers, { display_timezone: null })).status).toBe(422);
    expect((await read(alice.headers)).body).toEqual({ display_timezone: 'Europe/Paris', display_currency: 'GBP' });
  });

  it('need a credential', async () => {
    expect((await read({})).status).toBe(401);
    expect((await write({}, { display_timezone: null, display_currency: 'USD' })).status).toBe(401);
  });
});
