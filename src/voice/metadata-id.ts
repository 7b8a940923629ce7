/**
 * Our id as a vendor echoes it back (a call's `metadata.call_id`): a positive safe integer, given
 * as a JSON number or as a string of digits. Anything else (≥ 2^53, negative, zero, fractional,
 * not digits, another type) cannot be one of our ids: null, and the event is then an event of an
 * unknown call (answered 200, `unknown_calls`), never a database error. The vendor signed the
 * request, so a 4xx would only make it retry what can never match.
 */
export function idFromMetadata(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : null;
  if (typeof value !== 'string' || !/^[0-9]{1,16}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}
