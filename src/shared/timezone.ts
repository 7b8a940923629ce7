import { IANAZone } from 'luxon';

/** True for names of IANA time zones this runtime knows (e.g. Europe/Berlin). */
export function isValidTimeZone(name: string): boolean {
  return name.length <= 64 && IANAZone.isValidZone(name);
}
