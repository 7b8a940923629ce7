import { unprocessable } from '../http/errors.ts';

/**
 * The most a contact's contact_data may hold, as JSON text in UTF-8. What real use stores is a
 * CRM's fields: a name, an e-mail, an address, a few dates and notes, well under 2 KB (the largest
 * in our fixtures and examples is 0.3 KB); 64 KiB leaves room for long notes. Unbounded, 1 MB
 * values let four list requests take the service to 2.5 GB (issue 23), and every call copies
 * contact_data into its row and its webhook payload.
 */
export const CONTACT_DATA_MAX_BYTES = 64 * 1024;

/** What the OpenAPI descriptions say of the limit. */
export const CONTACT_DATA_LIMIT_NOTE = `at most ${CONTACT_DATA_MAX_BYTES / 1024} KiB as JSON text (UTF-8); more is a 422 naming the field`;

/** The byte size of `value` as JSON text. */
export const jsonBytes = (value: unknown) => (value == null ? 0 : Buffer.byteLength(JSON.stringify(value)));

/** Why `value` may not be stored as contact_data, or null when it may. */
export function contactDataTooLarge(value: unknown): string | null {
  const bytes = jsonBytes(value);
  return bytes > CONTACT_DATA_MAX_BYTES
    ? `contact_data is ${bytes} bytes as JSON; at most ${CONTACT_DATA_MAX_BYTES} (64 KiB) are accepted`
    : null;
}

/** A 422 at `loc` (the contact_data field of the request) when `value` is over the limit. */
export function requireContactDataSize(value: unknown, loc: (string | number)[]): void {
  const tooLarge = contactDataTooLarge(value);
  if (tooLarge) throw unprocessable(loc, tooLarge, 'too_long');
}
