import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { isSupportedCountry } from 'libphonenumber-js';
import { VENDOR_ENV, VENDOR_NAMES, vendor, vendorSettingsMissing, VOICE_PROVIDER_NAMES, type VoiceProviderName } from './voice/vendors.ts';

/**
 * Every setting of the service, read from environment variables once at boot.
 * Nothing else in the code reads process.env (but `serve`, which reads LOG_LEVEL to say it is
 * starting before these are loaded). Each key is documented in the README.
 */
/**
 * The simulator and the vendors (voice/vendors.ts). Typed `string` here and narrowed in RawConfig:
 * the vendors' definitions are typed with RawConfig, so the schema's own type may not depend on them.
 */
const VOICE_PROVIDER_ENUM: readonly string[] = VOICE_PROVIDER_NAMES;

const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8000, description: 'HTTP port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'HTTP bind address' }),
  DATA_DIR: Type.String({ default: './data', description: 'embedded database, generated secret, lockfile' }),
  DATABASE_URL: Type.Optional(Type.String({ description: 'PostgreSQL URL; unset = embedded PGlite in DATA_DIR' })),
  SECRET_KEY: Type.Optional(Type.String({ minLength: 32, secret: true, description: 'JWT signing key; generated into DATA_DIR when unset' })),
  ACCESS_TOKEN_EXPIRE_MINUTES: Type.Integer({ minimum: 1, default: 60 * 24 * 8 }),
  FIRST_USER_EMAIL: Type.Optional(Type.String({ format: 'email' })),
  FIRST_USER_PASSWORD: Type.Optional(Type.String({ minLength: 8, secret: true })),
  DEFAULT_COUNTRY: Type.String({ pattern: '^[A-Z]{2}$', default: 'US', description: 'ISO country for numbers written without +' }),
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  API_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 600_000, default: 3000, description: 'longest one database statement of an API request may run before it is stopped and answered 503 (PostgreSQL; the calls, contacts, webhook deliveries and audit events lists name their filters)' }),
  REPORT_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 30_000, description: 'longest one statement of an analytics report may run before it is stopped and answered 503 (PostgreSQL; reports read long periods, so their limit is their own)' }),
  TRUST_PROXY: Type.Optional(Type.String({ description: 'true, a hop count, or a comma list of proxy addresses/CIDRs; unset = the socket address is the client' })),
  LOGIN_MAX_FAILURES: Type.Integer({ minimum: 0, default: 10, description: 'wrong passwords per login name and address per 15 minutes before 429; 0 = no throttle' }),
  HEADERS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 15_000, description: 'a request\'s line and headers must arrive within this many ms, else 408 and the connection is closed' }),
  REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 30_000, description: 'a request body (other than an upload) must arrive within this many ms of its headers, else 408 and the connection is closed' }),
  UPLOAD_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 86_400_000, default: 600_000, description: 'the same for a multipart upload or a body over 1 MiB (CSV imports, bulk JSON), counted from the request\'s first byte' }),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, secret: true, description: 'bearer token GET /metrics requires; unset = no /metrics' })),
  // Dialer and voice providers
  VOICE_PROVIDER: Type.Unsafe<string>({ type: 'string', enum: [...VOICE_PROVIDER_ENUM], default: 'sim', description: 'the provider of campaigns without an assistant: sim (default, simulated calls), vapi, retell or twilio (our own agent on Twilio)' }),
  VOICE_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16, secret: true, description: 'secret the provider signs its events with; derived from SECRET_KEY when unset' })),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ httpUrlExample: 'https://calls.example.com', description: 'externally reachable base URL, for provider callbacks' })),
  MAX_CONCURRENT_CALLS: Type.Integer({ minimum: 0, default: 0, description: 'calls in progress across the whole service; 0 = no global cap' }),
  SIM_TIME_SCALE: Type.Number({ exclusiveMinimum: 0, default: 1, description: 'simulator speed: 60 makes a one-minute call last one second' }),
  SIM_SEED: Type.Integer({ default: 42, description: 'seed of the simulator\'s outcomes' }),
  DIALER_TICK_MS: Type.Integer({ minimum: 10, default: 1000, description: 'how often workers look for due work besides NOTIFY wake-ups' }),
  NUMBER_HEALTH_EVERY_MS: Type.Integer({ minimum: 0, maximum: 86_400_000, default: 300_000, description: 'how often this process judges the caller-ID numbers\' health (docs/number-health.md); 0 = never here (another process does; one judging process is enough)' }),
  LIVE_EVENTS_KEEP_MS: Type.Integer({ minimum: 60_000, maximum: 86_400_000, default: 900_000, description: 'how long the live stream\'s events are kept for a browser that resumes (GET /api/v1/live/events)' }),
  PRIVACY_PURGE_EVERY_MS: Type.Integer({ minimum: 1000, maximum: 86_400_000, default: 3_600_000, description: 'how often the retention job empties personal data past its account\'s (or campaign\'s) retention_days' }),
  // Post-call webhooks and extraction
  LLM_BASE_URL: Type.Optional(Type.String({ httpUrlExample: 'http://127.0.0.1:11434/v1', description: 'OpenAI-compatible server (payload extraction, and the Twilio agent\'s conversation); unset = offline rule-based extractor and the scripted demo agent' })),
  LLM_API_KEY: Type.Optional(Type.String({ secret: true })),
  LLM_MODEL: Type.Optional(Type.String()),
  SCENARIO_RUN_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 4, description: 'test scenario runs (text conversations with the LLM) this process plays at once' }),
  SCENARIO_RUN_TIMEOUT_SECONDS: Type.Integer({ minimum: 5, maximum: 3600, default: 120, description: 'the time limit of one test scenario run\'s conversation; the judge then reads what was said' }),
  SCENARIO_RUNS_QUEUED_MAX: Type.Integer({ minimum: 1, maximum: 10_000, default: 20, description: 'test scenario runs an account may have queued or running at once; beyond it a new run is refused (429)' }),
  LLM_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 256, default: 16, description: 'LLM requests of extraction and call scoring at once in this process (one budget; webhook extraction goes first, scoring takes at most half)' }),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Boolean({ default: false, description: 'local development only: lets webhooks reach loopback and private addresses' }),
  LOG_LEVEL: Type.Unsafe<'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'>({
    type: 'string',
    enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    default: 'info',
  }),
  // Each voice vendor's own settings, declared in its definition (src/voice/providers/<vendor>/).
  ...VENDOR_ENV,
});

/** A setting's schema as config.ts reads it: JSON Schema keywords and this file's own options. */
export type SettingSchema = { type?: string; enum?: unknown[]; secret?: boolean; httpUrlExample?: string } & Record<string, unknown>;
/** Every setting's schema, by name (the README's settings table is held against it by a test). */
export const SETTINGS = ConfigSchema.properties as unknown as Record<string, SettingSchema>;
const keysWhere = (test: (s: SettingSchema) => boolean) => Object.keys(SETTINGS).filter((key) => test(SETTINGS[key]!));

export type RawConfig = Omit<Static<typeof ConfigSchema>, 'VOICE_PROVIDER'> & { VOICE_PROVIDER: VoiceProviderName };
export type Config = RawConfig & { SECRET_KEY: string; DATA_DIR: string };

export class ConfigError extends Error {}

/** Read from the environment as numbers and booleans; the rest are strings (the schema then checks them). */
const NUMBER_KEYS = keysWhere((s) => s.type === 'integer' || s.type === 'number');
const BOOLEAN_KEYS = keysWhere((s) => s.type === 'boolean');

/** Parses and validates settings; throws ConfigError naming every bad key. Creates DATA_DIR's secret when SECRET_KEY is unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config = parseConfig(env);
  return { ...config, SECRET_KEY: config.SECRET_KEY ?? readOrCreateSecret(config.DATA_DIR) };
}

/**
 * The settings without touching the disk (DATA_DIR made absolute, no secret generated): what
 * `serve` reads to check its port before it creates anything, and what an error message reads.
 */
export function parseConfig(env: Record<string, string | undefined> = process.env): RawConfig & { DATA_DIR: string } {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    if (NUMBER_KEYS.includes(key) && /^-?\d+(\.\d+)?$/.test(value)) raw[key] = Number(value);
    else if (BOOLEAN_KEYS.includes(key) && /^(true|false|1|0)$/i.test(value)) raw[key] = /^(true|1)$/i.test(value);
    else raw[key] = value;
  }
  const withDefaults = Value.Default(ConfigSchema, raw);
  // One line per bad setting: its name, what is wrong with the value, and what is allowed.
  const badKeys = new Set([...Value.Errors(ConfigSchema, withDefaults)].map((e) => e.instancePath.split('/')[1] ?? ''));
  const problems = [...badKeys].map((key) => `${key}=${shown(key, env[key])}: ${allowedValues(key)}`);
  for (const [key, check] of Object.entries(DOMAIN_CHECKS)) {
    const value = env[key];
    if (!badKeys.has(key) && value !== undefined && value !== '') {
      const problem = check(value);
      if (problem) problems.push(`${key}=${shown(key, value)}: ${problem}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  const config = withDefaults as RawConfig;
  if ((config.FIRST_USER_EMAIL === undefined) !== (config.FIRST_USER_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration: FIRST_USER_EMAIL and FIRST_USER_PASSWORD must be set together');
  }
  // Node refuses a headers timeout longer than the request's (UPLOAD_TIMEOUT_MS is Node's requestTimeout).
  if (config.HEADERS_TIMEOUT_MS > config.UPLOAD_TIMEOUT_MS) {
    throw new ConfigError(`Invalid configuration: HEADERS_TIMEOUT_MS=${config.HEADERS_TIMEOUT_MS} may not exceed UPLOAD_TIMEOUT_MS=${config.UPLOAD_TIMEOUT_MS}`);
  }
  const vendorProblem = missingVendorSettings(config);
  if (vendorProblem) throw new ConfigError(`Invalid configuration: ${vendorProblem}`);
  return { ...config, DATA_DIR: resolve(config.DATA_DIR) };
}

/** Settings an error never shows (`secret: true` in their schema). */
const SECRET_SETTINGS = new Set(keysWhere((s) => s.secret === true));

/**
 * The default provider must be usable: a vendor named by VOICE_PROVIDER without its key is a
 * start-up error, not a failed first call. A vendor configured only in part is one too.
 */
function missingVendorSettings(config: RawConfig): string | null {
  for (const name of VENDOR_NAMES) {
    const missing = vendorSettingsMissing(config, name);
    const isDefault = config.VOICE_PROVIDER === name;
    const partly = missing.length > 0 && missing.length < vendor(name).settings.length;
    if (missing.length > 0 && (isDefault || partly)) {
      const why = isDefault ? `VOICE_PROVIDER=${name} needs` : `${name} is configured in part; it also needs`;
      return `${why} ${missing.join(' and ')}`;
    }
  }
  // What a vendor needs beyond its own settings (Twilio: PUBLIC_BASE_URL; Retell as the default: an agent).
  for (const name of VENDOR_NAMES) {
    const problem = vendor(name).startupProblem?.(config) ?? null;
    if (problem) return problem;
  }
  return null;
}

/** A setting's value as an error may show it: secrets hidden, a URL's password masked, long text cut. */
function shown(key: string, value: string | undefined): string {
  if (SECRET_SETTINGS.has(key)) return `(${value?.length ?? 0} characters, hidden)`;
  const text = (value ?? '').replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

/** What a setting accepts, read from its schema. */
function allowedValues(key: string): string {
  const s = SETTINGS[key];
  if (!s) return 'not a setting';
  if (Array.isArray(s.enum)) return `must be one of ${s.enum.join(', ')}`;
  if (s.type === 'boolean') return 'must be true, false, 1 or 0';
  if (s.type === 'integer' || s.type === 'number') {
    const kind = s.type === 'integer' ? 'a whole number' : 'a number';
    const low = s.minimum !== undefined ? `${s.minimum}` : s.exclusiveMinimum !== undefined ? `above ${s.exclusiveMinimum}` : undefined;
    if (low !== undefined && s.maximum !== undefined) return `must be ${kind} from ${low} to ${s.maximum}`;
    return low !== undefined ? `must be ${kind}, ${s.exclusiveMinimum !== undefined ? low : `at least ${low}`}` : `must be ${kind}`;
  }
  if (s.format === 'email') return 'must be an e-mail address';
  if (s.minLength) return `must be at least ${s.minLength} characters`;
  if (s.pattern) return `must match ${s.pattern}`;
  return 'invalid value';
}

/** Checks a schema cannot express; each answers the problem, or null. */
const DOMAIN_CHECKS: Record<string, (value: string) => string | null> = {
  DATABASE_URL(value) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return 'not a URL; expected postgres://user:password@host:5432/database (or unset for the embedded database)';
    }
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `the scheme ${url.protocol.replace(/:$/, '')} is not PostgreSQL; expected postgres://user:password@host:5432/database`;
    if (!url.hostname) return 'names no host; expected postgres://user:password@host:5432/database';
    return null;
  },
  METRICS_TOKEN: (value) => (/^[\x21-\x7e]+$/.test(value) ? null : 'must be printable ASCII without spaces (it is sent in an Authorization header)'),
  DEFAULT_COUNTRY: (value) => (isSupportedCountry(value) ? null : 'not a country phone numbers are known for; use an ISO 3166 code such as US, GB or DE'),
  // Every URL setting (`httpUrlExample` in its schema) must be http(s).
  ...Object.fromEntries(keysWhere((s) => s.httpUrlExample !== undefined).map((key) => [key, (value: string) => httpUrlProblem(value, SETTINGS[key]!.httpUrlExample!)])),
};

function httpUrlProblem(value: string, example: string): string | null {
  try {
    return /^https?:$/.test(new URL(value).protocol) ? null : 'must be an http:// or https:// URL';
  } catch {
    return `not a URL; expected e.g. ${example}`;
  }
}

/** A generated secret is kept in DATA_DIR so tokens survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'secret_key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return readFileSync(file, 'utf8').trim(); // another process wrote it first
    }
  }
}
