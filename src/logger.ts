import pino, { type Level, type Logger } from 'pino';
import type { RawConfig } from './config.ts';
import { createRedactor } from './modules/privacy/redaction/redaction.ts';
import { DEFAULT_REDACTION_CATEGORIES } from './modules/privacy/redaction/redaction.types.ts';

/**
 * The one logger of the process. JSON lines (pino's own shape, unchanged) when stdout is not a
 * terminal, so log collectors keep working; short human lines when a person is watching. The
 * formatter is ours, a few lines, rather than pino-pretty and its dependencies.
 */
export function createLogger(level: RawConfig['LOG_LEVEL'], options: { pretty?: boolean; write?: (text: string) => void } = {}): Logger {
  const pretty = options.pretty ?? process.stdout.isTTY === true;
  const hooks = { streamWrite: redactLogLine };
  if (!pretty && !options.write) return pino({ level, hooks });
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  return pino({ level, hooks }, { write: (line: string) => write(pretty ? humanLine(line) : line) });
}

// Logs are the process's, not an account's: they may be shipped anywhere, so every line is
// redacted of every category the rules find reliably (names are not), whatever an account chose.
const logRedactor = createRedactor({ categories: DEFAULT_REDACTION_CATEGORIES });
// pino's own fields: numbers and names of this machine, never what a person said.
const STRUCTURAL = new Set(['level', 'time', 'pid', 'hostname']);

/** One JSON log line with the personal data in its values replaced by typed markers ([CARD]…). */
export function redactLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return logRedactor.redact(line).text;
  }
  let changed = false;
  for (const key of Object.keys(entry)) {
    if (STRUCTURAL.has(key)) continue;
    const { value, found } = logRedactor.redactDeep(entry[key]);
    if (Object.keys(found).length > 0) {
      entry[key] = value;
      changed = true;
    }
  }
  return changed ? `${JSON.stringify(entry)}\n` : line;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * LOG_LEVEL as given, for the first lines of `serve`, written before the settings are loaded
 * and validated (that takes a second or two); 'info' when it is not a level, which the
 * settings then refuse by name.
 */
export function startupLogLevel(value: string | undefined): RawConfig['LOG_LEVEL'] {
  return LEVELS.find((level) => level === value) ?? 'info';
}

const LABELS: Record<number, Level> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
// pino's fields every line has; the rest of a line's fields are what it says.
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId']);

/** One pino JSON line as a person reads it: `12:03:04 Listening on http://… key=value`. */
export function humanLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = LABELS[entry.level as number] ?? 'info';
  const parts = [time];
  if (level !== 'info') parts.push(level.toUpperCase());
  parts.push(String(entry.msg ?? ''));
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req) parts.push(`${req.method} ${req.url}`);
  if (res) parts.push(`${res.statusCode}${typeof entry.responseTime === 'number' ? ` in ${Math.round(entry.responseTime)} ms` : ''}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (OMITTED.has(key) || key === 'req' || key === 'res' || key === 'responseTime' || key === 'err') continue;
    parts.push(`${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  }
  // An error's stack on the lines below: the one place a person needs more than a line.
  const stack = err ? `\n${err.stack ?? err.message}` : '';
  return `${parts.filter(Boolean).join(' ')}${stack}\n`;
}
