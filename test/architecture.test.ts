import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WRITABLE as CONTACT_FIELDS_EDITED } from '../src/modules/contacts/contacts.repository.ts';

/**
 * The layering rules of docs/architecture.md, held against the imports of every file under
 * src/ (tests excluded). A rule with known breaches lists them: a new breach fails, and so does
 * a listed one that was fixed (take it off the list), so the list only shrinks.
 */
const ROOT = resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Each file's relative imports, as paths from the repository root. */
const imports = new Map(sources('src').map((file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import\()\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return [file, specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)))] as const;
}));

function breaches(from: RegExp, to: RegExp): string[] {
  return [...imports].flatMap(([file, targets]) => (from.test(file) ? targets.filter((t) => to.test(t)).map((t) => `${file} -> ${t}`) : [])).sort();
}

describe('the layers of src/', () => {
  it('never imports test code from src/', () => {
    expect(breaches(/^src\//, /^test\//)).toEqual([]);
  });

  it('keeps the database layer, the HTTP layer and the shared helpers free of modules and vendors', () => {
    expect(breaches(/^src\/(db|http|shared)\//, /^src\/(modules|voice)\//)).toEqual([]);
  });

  it('keeps vendor adapters from importing modules (the composition root wires what they need, src/deps.ts)', () => {
    expect(breaches(/^src\/voice\//, /^src\/modules\//)).toEqual([]);
  });

  it('keeps modules from importing a vendor\'s own files (they use the port: src/voice/vendors.ts, registry.ts, provider.ts)', () => {
    expect(breaches(/^src\/modules\//, /^src\/voice\/providers\//)).toEqual([]);
  });

  it('keeps modules from a text vendor\'s own files (src/messaging/twilio) but through the route resolver', () => {
    expect(breaches(/^src\/modules\/(?!messaging\/text-routes\.ts$)/, /^src\/messaging\/(?!text-channel\.ts$|sim-texts\.ts$|segments\.ts$)[^/]+\//)).toEqual([]);
  });

  it('keeps the rest of src/ outside src/voice from a vendor\'s own files too: only src/voice registers them', () => {
    expect(breaches(/^src\/(?!voice\/)/, /^src\/voice\/providers\/[^/]+\//)).toEqual([]);
  });
});

describe('the contact lifecycle (src/modules/contact-lifecycle)', () => {
  it('knows no channel and leans on no module: it imports only the database layer and the shared helpers', () => {
    expect(breaches(/^src\/modules\/contact-lifecycle\//, /^src\/(?!db\/|shared\/|modules\/contact-lifecycle\/)/)).toEqual([]);
  });

  it('is the only writer of a contact\'s status, attempts and next step', () => {
    const writers = [...imports.keys()].filter((file) => !file.startsWith('src/db/migrations/') && CONTACT_UPDATE.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(writers.filter((f) => !f.startsWith('src/modules/contact-lifecycle/')).sort()).toEqual(['src/modules/contacts/contacts.repository.ts']);
    // The contacts module updates only what a person edits; the lifecycle columns are not among them.
    expect(CONTACT_FIELDS_EDITED.filter((c) => LIFECYCLE_COLUMNS.includes(c))).toEqual([]);
  });

  it('holds the lifecycle\'s writes in its repositories', () => {
    const writers = [...imports.keys()].filter((file) => file.startsWith('src/modules/contact-lifecycle/') && CONTACT_UPDATE.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(writers.sort()).toEqual(['src/modules/contact-lifecycle/campaign-parking.repository.ts', 'src/modules/contact-lifecycle/contact-lifecycle.repository.ts']);
  });
});

describe('the dialer (the voice channel)', () => {
  it('is no hub: only the Twilio agent\'s entry points (the same channel) import it, and it imports no other channel', () => {
    const importers = [...new Set(breaches(/^src\/modules\/(?!dialer\/)/, /^src\/modules\/dialer\//).map((b) => b.split(' -> ')[0]!))];
    expect(importers).toEqual(['src/modules/agent/twilio.routes.ts']);
    expect(breaches(/^src\/modules\/dialer\//, /^src\/modules\/agent\//)).toEqual([]);
  });
});

const CONTACT_UPDATE = /UPDATE\s+contacts\b|updateTable\(\s*'contacts'/i;
const LIFECYCLE_COLUMNS: readonly string[] = ['status', 'calls_attempts', 'message_attempts', 'next_action_time', 'next_action_code', 'next_action_reason'];
