import { IANAZone } from 'luxon';

/**
 * The one wording for a time zone the service does not know, wherever one is given (a contact,
 * a work schedule, an import row, analytics), with `type: "timezone"` in a 422.
 */
export function unknownTimeZone(name: string): string {
  const shown = name.length > 64 ? `${name.slice(0, 64)}…` : name;
  return `'${shown}' is not an IANA time zone name (e.g. Europe/Berlin, America/New_York)`;
}

/** True for names of IANA time zones this runtime knows (e.g. Europe/Berlin). */
export function isValidTimeZone(name: string): boolean {
  return name.length <= 64 && IANAZone.isValidZone(name);
}
