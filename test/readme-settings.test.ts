import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/config.ts';

/**
 * The README's settings table is what operators read: it lists every setting the service reads
 * (and no other), each with the default the code applies. Vendors' settings come from their
 * definitions, so a vendor added without its rows fails here.
 */
const README = readFileSync(resolve(import.meta.dirname, '..', 'README.md'), 'utf8');

/** The table's rows: the names in the first column (some rows list several) and their defaults. */
function rows(): { names: string[]; defaults: string[] }[] {
  return [...README.matchAll(/^\| (`[A-Z][A-Z0-9_]*`(?:, `[A-Z][A-Z0-9_]*`)*) \| ([^|]*) \|/gm)].map((m) => ({
    names: [...m[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((n) => n[1]!),
    defaults: [...m[2]!.matchAll(/`([^`]*)`/g)].map((d) => d[1]!),
  }));
}

describe('the README\'s settings table', () => {
  it('lists every setting of the service once, and no other', () => {
    const listed = rows().flatMap((r) => r.names);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it('gives each setting the default the code applies', () => {
    for (const { names, defaults } of rows()) {
      names.forEach((name, i) => {
        const schemaDefault = SETTINGS[name]!.default;
        if (schemaDefault === undefined) return;
        // A row of several settings gives their defaults in the same order; a row of one, the first.
        expect(defaults[names.length > 1 ? i : 0], name).toBe(String(schemaDefault));
      });
    }
  });
});
