import type { WebhookIntegrationRow } from '../../db/tables/webhooks.ts';
import { SecretBoxError, type SecretBox } from '../../shared/secret-box.ts';

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

/** The masks of a stored row's credentials; one sealed under another SECRET_KEY shows as a bare mask. */
export function maskedCredentials(row: Credentials, box: SecretBox): Credentials {
  const masked = {} as Credentials;
  for (const field of CREDENTIAL_FIELDS) {
    try {
      masked[field] = mask(box.open(row[field]));
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      masked[field] = '****';
    }
  }
  return masked;
}

/** What a send needs in the clear; throws SecretBoxError when SECRET_KEY changed. */
export function openForSending(row: WebhookIntegrationRow, box: SecretBox) {
  return {
    password: box.open(row.basic_password),
    token: box.open(row.bearer_token),
    apiKey: box.open(row.api_key_value),
    signingSecret: box.open(row.signing_secret),
  };
}
