import { randomUUID } from 'node:crypto';
import { createUser } from '../../src/modules/users/users.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import type { TestApp } from './test-app.ts';

/** Factories build each test's own data through the same services the API uses. */
export interface Account {
  id: number;
  email: string;
  password: string;
  apiKey: string;
  /** Headers that authenticate as this account. */
  headers: Record<string, string>;
}

export async function createAccount(t: TestApp, options: { superuser?: boolean } = {}): Promise<Account> {
  const email = `user-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const user = await createUser(t.deps.db, { email, password, is_superuser: options.superuser ?? false, full_name: 'Test User' });
  const key = await createApiKey(t.deps.db, user.id, 'test');
  return { id: user.id, email, password, apiKey: key.key, headers: { 'x-api-key': key.key } };
}

export async function login(t: TestApp, username: string, password: string): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/api/v1/login/access-token', payload: new URLSearchParams({ username, password }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return res.json().access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
