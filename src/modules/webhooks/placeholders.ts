/**
 * Placeholders the API allows in the webhook URL and in AI instructions. In the URL
 * values are URL-encoded; an empty or missing value becomes an empty string.
 */
export const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_.]+)\s*\}\}/g;

const CALL_KEYS = ['id', 'from_number', 'to_number', 'status', 'action_status', 'call_duration', 'start_time', 'end_time', 'record_url'];

export interface PlaceholderContext {
  contact: { id: number | null; phone_number: string | null; contact_data: Record<string, unknown> };
  call: {
    id: number | null;
    from_number: string | null;
    to_number: string | null;
    status: string;
    action_status: string | null;
    call_duration: number | null;
    start_time: Date | string | null;
    end_time: Date | string | null;
    record_url: string | null;
  };
}

/** Why a placeholder name is not one of the API's, or null when it is. */
export function unknownPlaceholder(name: string): string | null {
  if (/^contact_data\.[A-Za-z0-9_]+$/.test(name)) return null;
  if (name === 'contact.id' || name === 'contact.phone_number') return null;
  if (name.startsWith('call.') && CALL_KEYS.includes(name.slice(5))) return null;
  return `unknown placeholder {{${name}}}`;
}

export function placeholdersIn(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => m[1]!);
}

export const usesRecordUrl = (texts: string[]) => texts.some((t) => placeholdersIn(t).includes('call.record_url'));

function valueOf(name: string, ctx: PlaceholderContext): string {
  let value: unknown;
  if (name.startsWith('contact_data.')) value = ctx.contact.contact_data[name.slice('contact_data.'.length)];
  else if (name === 'contact.id') value = ctx.contact.id;
  else if (name === 'contact.phone_number') value = ctx.contact.phone_number;
  else if (name.startsWith('call.')) value = (ctx.call as Record<string, unknown>)[name.slice(5)];
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function substitute(text: string, ctx: PlaceholderContext, encode: (v: string) => string = (v) => v): string {
  return text.replace(PLACEHOLDER, (_m, name: string) => encode(valueOf(name, ctx)));
}
