import type { Db } from '../../db/connection.ts';
import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import { SEALED_PREFIX, SecretBoxError, type SecretBox } from '../../shared/secret-box.ts';

/** The integration's credentials for the receiver: stored sealed (see shared/secret-box.ts). */
export const CREDENTIAL_FIELDS = ['basic_password', 'bearer_token', 'api_key_value'] as const;
type Credentials = Record<(typeof CREDENTIAL_FIELDS)[number], string | null>;

/**
 * Seals the credentials a request gave; the others are the stored (already sealed)
 * values carried over by an update, and stay as they are.
 */
export function sealGiven<T extends Credentials>(values: T, given: ReadonlySet<string>, box: SecretBox): T {
  const sealed = { ...values };
  for (const field of CREDENTIAL_FIELDS) if (given.has(field)) sealed[field] = box.seal(values[field]) as T[typeof field];
  return sealed;
}

/** A secret as answers show it: a fixed mask, with the last 4 characters of long ones. */
export const mask = (secret: string | null) => (secret === null ? null : secret.length >= 16 ? `****${secret.slice(-4)}` : '****');

/** A sealed secret as answers show it; one sealed under another SECRET_KEY shows as a bare mask. */
export function maskSealed(box: SecretBox, stored: string | null): string | null {
  try {
    return mask(box.open(stored));
  } catch (error) {
    if (!(error instanceof SecretBoxError)) throw error;
    return '****';
  }
}

/** The masks of a stored row's credentials. */
export function maskedCredentials(row: Credentials, box: SecretBox): Credentials {
  const masked = {} as Credentials;
  for (const field of CREDENTIAL_FIELDS) masked[field] = maskSealed(box, row[field]);
  return masked;
}

/**
 * What a send needs in the clear: only the credential its auth_type uses (a stale one
 * of another type must not block it) and the signing secret. Throws SecretBoxError,
 * naming the way out, when one was sealed under another SECRET_KEY.
 */
export function openForSending(row: WebhookIntegrationRow, box: SecretBox) {
  const open = (value: string | null, remedy: string) => {
    try {
      return box.open(value);
    } catch (error) {
      if (error instanceof SecretBoxError) throw new SecretBoxError(`${error.message}; ${remedy}`);
      throw error;
    }
  };
  const credential = (field: (typeof CREDENTIAL_FIELDS)[number], type: string) =>
    row.auth_type === type ? open(row[field], `save ${field} again (PUT)`) : null;
  return {
    password: credential('basic_password', 'basic'),
    token: credential('bearer_token', 'bearer'),
    apiKey: credential('api_key_value', 'api_key'),
    signingSecret: open(row.signing_secret, `rotate the signing secret (POST /api/v1/integrations/webhooks/${row.id}/signing-secret)`)!,
  };
}

/**
 * Seals what was stored before sealing existed. Runs at start-up; each value is replaced
 * only if it is still the plain one read, so processes starting together seal it once.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<number> {
  const fields = [...CREDENTIAL_FIELDS, 'signing_secret'] as const;
  const rows = await db
    .selectFrom('webhook_integrations')
    .select(['id', ...fields])
    .where((eb) => eb.or(fields.map((f) => eb.and([eb(f, 'is not', null), eb(f, 'not like', `${SEALED_PREFIX}%`)]))))
    .execute();
  let sealed = 0;
  for (const row of rows) {
    for (const field of fields) {
      const plain = row[field];
      if (plain === null || plain.startsWith(SEALED_PREFIX)) continue;
      const result = await db.updateTable('webhook_integrations').set({ [field]: box.seal(plain) }).where('id', '=', row.id).where(field, '=', plain).executeTakeFirst();
      sealed += Number(result.numUpdatedRows);
    }
  }
  return sealed;
}
