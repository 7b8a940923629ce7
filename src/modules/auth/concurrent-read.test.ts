import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { createAccount, type Account } from '../../../test/helpers/factories.ts';
import { createCampaignWithCalls } from '../calls/calls.test-factory.ts';

/**
 * Reads by id run concurrently with the credential check. The check must still decide:
 * no row for a bad or revoked credential, 403/404 unchanged, 401 before any 422.
 */
let t: TestApp;
let alice: Account;
let bob: Account;
let fixture: { contactId: number; callId: number };

beforeAll(async () => {
  t = await createTestApp();
  alice = await createAccount(t);
  bob = await createAccount(t);
  const made = await createCampaignWithCalls(t.deps.db, alice.id);
  fixture = { contactId: made.contact.id, callId: made.callIds[0]! };
});
afterAll(() => t?.close());

const paths = () => [`/api/v1/contacts/${fixture.contactId}`, `/api/v1/calls/${fixture.callId}`];

describe('reads by id with the credential checked concurrently', () => {
  it('returns the row to its owner', async () => {
    for (const url of paths()) {
      const res = await t.request({ method: 'GET', url, headers: alice.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().id).toBeGreaterThan(0);
    }
  });

  it('answers 401 and nothing of the row for a missing, unknown or just-deleted key', async () => {
    const created = await t.request({ method: 'POST', url: '/api/v1/api-keys', headers: alice.headers, payload: { name: 'short-lived' } });
    const { id, key } = created.json();
    expect((await t.request({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: alice.headers })).statusCode).toBe(200);
    for (const headers of [{}, { 'x-api-key': 'vck_not_a_key' }, { 'x-api-key': key }]) {
      for (const url of paths()) {
        const res = await t.request({ method: 'GET', url, headers });
        expect(res.statusCode).toBe(401);
        expect(Object.keys(res.json())).toEqual(['detail']);
        expect(res.body).not.toContain('+1');
      }
    }
  });

  it('keeps 403 for another account and 404 for an unknown id', async () => {
    for (const url of paths()) expect((await t.request({ method: 'GET', url, headers: bob.headers })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api/v1/contacts/987654321', headers: alice.headers })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/v1/calls/987654321', headers: alice.headers })).statusCode).toBe(404);
  });
});
