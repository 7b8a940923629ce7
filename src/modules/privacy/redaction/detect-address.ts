/**
 * Street addresses, by the shape each language writes them in:
 * - en: number, capitalised name, street type: "221B Baker Street", "42 West 5th Ave, Apt 3";
 * - fr: number, street type, name: "12 bis rue de la Paix, 75002 Paris";
 * - es: street type, name, number: "calle Mayor 12", "Avenida de la Constitución, n.º 45";
 * - de: name ending in a street word, number: "Hauptstraße 5", "Berliner Str. 12a".
 * A postal code is redacted alone when a postal-code word precedes it ("zip code 10001",
 * "código postal 28013", "code postal 75002", "PLZ 10115").
 *
 * Street names must be capitalised (particles like "de la" aside): that is what keeps
 * "3 kids down the street" out, and what STT does with street names. Limits: lowercase
 * transcripts, street names without a type word ("Broadway"), PO boxes, and addresses
 * spoken with the number in words are missed.
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

/**
 * Latin letters, accented ones included, and their capitals. The patterns run over every
 * character of every transcript, and without the "u" flag (which \p{L} needs) they run
 * several times faster.
 */
const UPPER = 'A-Z\\u00C0-\\u00D6\\u00D8-\\u00DE';
const LETTERS = 'A-Za-z\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u024F';
const NAME = `[${UPPER}][${LETTERS}'’-]*`;
/**
 * Street-type words start a sentence as often as not, so their first letter may be either
 * case; the patterns carry no "i" flag because that would let NAME match lowercase words.
 */
function anyCaseFirst(words: readonly string[]): string {
  return words.map((word) => `[${word[0]!.toUpperCase()}${word[0]!.toLowerCase()}]${word.slice(1)}`).join('|');
}
const ORDINAL_NAME = '\\d{1,3}(?:st|nd|rd|th)';
const UNIT = `(?:,?\\s+(?:Apt|Apartment|Suite|Ste|Unit|Floor|#)\\.?\\s*#?[${LETTERS}\\d-]{1,5})?`;

const ENGLISH = new RegExp(
  `(?<![${LETTERS}\\d])\\d{1,6}[A-Za-z]?\\s+(?:(?:${NAME}|${ORDINAL_NAME})\\s+){1,4}` +
    `(?:Street|St\\.?|Avenue|Ave\\.?|Road|Rd\\.?|Boulevard|Blvd\\.?|Lane|Ln\\.?|Drive|Dr\\.?|Court|Ct\\.?|Place|Pl\\.?|` +
    `Way|Terrace|Parkway|Pkwy\\.?|Circle|Highway|Hwy\\.?|Square|Sq\\.?)(?![${LETTERS}])${UNIT}`,
  'g',
);

const FRENCH_PARTICLE = "(?:de|du|des|la|le|les|l['’]|d['’]|et|aux?)";
const FRENCH = new RegExp(
  `(?<![${LETTERS}\\d])\\d{1,4}(?:\\s*(?:bis|ter))?,?\\s+(?:${anyCaseFirst(['rue', 'avenue', 'av\\.', 'boulevard', 'bd', 'place', 'chemin', 'all[ée]e', 'impasse', 'quai', 'route', 'cours', 'square', 'passage'])})` +
    `\\s+(?:${FRENCH_PARTICLE}\\s*)*${NAME}(?:\\s+(?:${FRENCH_PARTICLE}\\s*)*${NAME}){0,3}` +
    `(?:,?\\s+\\d{5}(?:\\s+${NAME})?)?`,
  'g',
);

const SPANISH_PARTICLE = '(?:de|del|la|las|los|el|y)';
const SPANISH = new RegExp(
  `(?<![${LETTERS}])(?:${anyCaseFirst(['calle', 'c/', 'avenida', 'avda\\.?', 'av\\.', 'paseo', 'plaza', 'camino', 'carretera', 'ronda', 'traves[ií]a', 'glorieta'])})` +
    `\\s+(?:${SPANISH_PARTICLE}\\s+)*${NAME}(?:\\s+(?:${SPANISH_PARTICLE}\\s+)*${NAME}){0,3}` +
    `,?\\s+(?:n[.ºo°]*\\s*|n[uú]mero\\s+)?\\d{1,4}(?:\\s*[A-Za-z](?![${LETTERS}]))?` +
    // The floor and door: "3º B", "2º izquierda".
    `(?:,?\\s+\\d{1,2}[ºª°]?\\s*(?:izquierda|derecha|izda\\.?|dcha\\.?|centro|[A-Za-z])?(?![${LETTERS}\\d]))?`,
  'g',
);

const GERMAN = new RegExp(
  // "Hauptstraße 5", or an adjective in -er before a separate street word: "Berliner Straße 12".
  `(?<![${LETTERS}])(?:[${UPPER}][${LETTERS}]*er\\s+(?:Stra(?:ß|ss)e|Str\\.|Weg|Platz|Allee|Ring|Damm)|` +
    `[${UPPER}][${LETTERS}-]*(?:stra(?:ß|ss)e|str\\.|weg|gasse|platz|allee|ring|damm|ufer))` +
    `\\s+\\d{1,4}\\s?[a-z]?(?![${LETTERS}\\d])`,
  'g',
);

const POSTAL_CODE = /(?:zip(?: code)?|postal code|postcode|c[oó]digo postal|code postal|postleitzahl|plz)(?:\s+(?:is|es|est|ist))?\s*:?\s*(\d{5}(?:-\d{4})?)(?![\d])/gi;

const PATTERNS = [ENGLISH, FRENCH, SPANISH, GERMAN] as const;

export function detectAddresses(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  for (const pattern of PATTERNS) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      out.push({ category: 'address', start: match.index, end: match.index + match[0].length });
    }
  }
  POSTAL_CODE.lastIndex = 0;
  for (let match = POSTAL_CODE.exec(text); match !== null; match = POSTAL_CODE.exec(text)) {
    const code = match[1]!;
    const start = match.index + match[0].length - code.length;
    out.push({ category: 'address', start, end: start + code.length });
  }
}
