import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config.ts';
import { AssistantCreate, Assistant } from '../src/modules/assistants/assistants.schemas.ts';
import { VoiceConnection, VoiceConnectionCreate } from '../src/modules/voice-connections/voice-connections.schemas.ts';
import { CONNECTION_FIELDS } from '../src/voice/vendor-definition.ts';
import { VENDOR_NAMES, VENDORS, VOICE_PROVIDER_NAMES } from '../src/voice/vendors.ts';

/**
 * The vendor list is declared once (src/voice/vendors.ts); the settings, the API's schemas and
 * the registry read it. A second copy is a vendor someone forgets to add.
 */
const ROOT = resolve(import.meta.dirname, '..');
const enumOf = (schema: unknown): unknown => (schema as { enum?: unknown }).enum;

describe('the one vendor registry', () => {
  it('names each vendor by its key, in the order the enums keep (a new vendor goes last)', () => {
    for (const [key, definition] of Object.entries(VENDORS)) expect(definition.name).toBe(key);
    expect(VENDOR_NAMES).toEqual(['vapi', 'retell', 'twilio']);
    expect(VOICE_PROVIDER_NAMES).toEqual(['sim', ...VENDOR_NAMES]);
  });

  it('gives VOICE_PROVIDER its values', () => {
    expect(() => parseConfig({ VOICE_PROVIDER: 'nobody' })).toThrow(`VOICE_PROVIDER="nobody": must be one of ${VOICE_PROVIDER_NAMES.join(', ')}`);
  });

  it('gives the voice connections\' and assistants\' schemas their provider enums', () => {
    expect(enumOf(VoiceConnectionCreate.properties.provider)).toEqual(VENDOR_NAMES);
    expect(enumOf(VoiceConnection.properties.provider)).toEqual(VENDOR_NAMES);
    expect(enumOf(AssistantCreate.properties.provider)).toEqual(VOICE_PROVIDER_NAMES);
    expect(enumOf(Assistant.properties.provider)).toEqual(VOICE_PROVIDER_NAMES);
  });

  it('asks of a voice connection only fields the schema has, and requires only fields the vendor accepts', () => {
    for (const definition of Object.values(VENDORS)) {
      for (const field of definition.connection.accepts) expect(CONNECTION_FIELDS).toContain(field);
      for (const field of Object.keys(definition.connection.required)) expect(definition.connection.accepts).toContain(field);
    }
    for (const field of CONNECTION_FIELDS) expect(Object.keys(VoiceConnectionCreate.properties)).toContain(field);
  });

  it('keeps each vendor\'s settings in its definition: the service reads, checks and hides them from there', () => {
    for (const definition of Object.values(VENDORS)) {
      const own = Object.keys(definition.env);
      for (const key of definition.settings) expect(own).toContain(key);
      // Each vendor's settings carry its name's prefix, so two definitions never claim one setting.
      for (const key of own) expect(key.startsWith(`${definition.name.toUpperCase()}_`)).toBe(true);
    }
    // Read from the vendor's own schema: a number is parsed, a URL is checked, a secret is never shown.
    expect(parseConfig({ RETELL_MAX_CONCURRENT_CALLS: '7' }).RETELL_MAX_CONCURRENT_CALLS).toBe(7);
    expect(() => parseConfig({ TWILIO_BASE_URL: 'ftp://x' })).toThrow('TWILIO_BASE_URL="ftp://x": must be an http:// or https:// URL');
    expect(() => parseConfig({ VAPI_API_KEY: 'short' })).toThrow('VAPI_API_KEY=(5 characters, hidden): must be at least 8 characters');
  });

  it('is the only list of vendor names in src/ (migrations keep theirs: they are history)', () => {
    const copies = sources('src')
      .filter((file) => !file.startsWith('src/db/migrations/'))
      .filter((file) => /'vapi'\s*[,|]\s*'retell'|'sim'\s*[,|]\s*'vapi'/.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(copies).toEqual([]);
  });
});

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative(ROOT, join(ROOT, path))] : [];
  });
}
