import { parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js/max';
import { unprocessable } from '../http/errors.ts';

export interface NormalisedPhone {
  e164: string;
  country: string | null;
}

/**
 * Normalises a phone number to E.164. Numbers written without + are read in
 * `defaultCountry`. Returns null when the text cannot be a phone number.
 */
export function normalisePhone(input: string, defaultCountry: string): NormalisedPhone | null {
  const text = input.trim();
  if (text.length === 0 || text.length > 40 || !/^[+\d\s().\-\/]+$/.test(text)) return null;
  const candidate = text.startsWith('00') ? `+${text.slice(2)}` : text;
  try {
    const parsed = parsePhoneNumberWithError(candidate, defaultCountry as CountryCode);
    if (!parsed.isPossible() || !parsed.isValid()) return null;
    return { e164: parsed.number, country: parsed.country ?? null };
  } catch {
    return null;
  }
}

/** Like normalisePhone but answers a 422 at `loc` for text that is not a phone number. */
export function requirePhone(input: string, defaultCountry: string, loc: (string | number)[]): NormalisedPhone {
  const phone = normalisePhone(input, defaultCountry);
  if (!phone) throw unprocessable(loc, `'${input.slice(0, 40)}' is not a valid phone number`, 'phone_number');
  return phone;
}

/** A phone filter: E.164 when the text parses as a number, else the text as written (it then matches nothing stored). */
export const phoneFilter = (text: string | undefined, defaultCountry: string) =>
  text === undefined ? undefined : (normalisePhone(text, defaultCountry)?.e164 ?? text);
