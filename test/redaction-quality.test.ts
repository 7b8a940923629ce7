import { describe, expect, it } from 'vitest';
import { buildLabelledSet } from './fixtures/redaction/labelled-set.ts';
import { scoreRedaction } from './fixtures/redaction/score.ts';

/**
 * The goals of issue "Privacy by default" on the labelled set (npm run measure:redaction
 * prints the table): recall >= 0.98 at precision >= 0.95 for cards, IBANs and SSNs. The
 * other floors are what was measured in-sample minus a margin, so a rule change that loses
 * ground fails here; held-out figures (lower for the worded categories) are in
 * bench/redaction-quality.ts and docs/privacy.md.
 */
const FLOORS = {
  card: { recall: 0.98, precision: 0.95 },
  iban: { recall: 0.98, precision: 0.95 },
  ssn: { recall: 0.98, precision: 0.95 },
  email: { recall: 0.95, precision: 0.95 },
  phone: { recall: 0.95, precision: 0.95 },
  address: { recall: 0.93, precision: 0.95 },
  dob: { recall: 0.9, precision: 0.95 },
  name: { recall: 0.9, precision: 0.9 },
} as const;

describe('redaction quality on the labelled set', () => {
  const set = buildLabelledSet();
  const score = scoreRedaction(set);

  it('has enough planted values in English, Spanish and French to measure', () => {
    expect(set.reduce((n, t) => n + t.values.length, 0)).toBeGreaterThanOrEqual(150);
    for (const language of ['en', 'es', 'fr']) expect(set.some((t) => t.language === language)).toBe(true);
  });

  for (const [category, floor] of Object.entries(FLOORS) as [keyof typeof FLOORS, (typeof FLOORS)[keyof typeof FLOORS]][]) {
    it(`${category}: recall >= ${floor.recall} at precision >= ${floor.precision}`, () => {
      const measured = score.overall[category];
      expect(measured.recall, measured.misses.join('\n')).toBeGreaterThanOrEqual(floor.recall);
      expect(measured.precision, measured.falseAlarms.join('\n')).toBeGreaterThanOrEqual(floor.precision);
    });
  }

  it('redacts none of the look-alikes: order, invoice and tracking numbers, Luhn-invalid cards, the contact\'s own phone', () => {
    expect(Object.fromEntries(score.lookAlikesRedacted)).toEqual({});
  });
});
