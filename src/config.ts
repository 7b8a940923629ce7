import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/**
 * Every setting of the service, read from environment variables once at boot.
 * Nothing else in the code reads process.env. Each key is documented in the README.
 */
const ConfigSchema = Type.Object({
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8000, description: 'HTTP port' }),
  HOST: Type.String({ default: '127.0.0.1', description: 'HTTP bind address' }),
  DATA_DIR: Type.String({ default: './data', description: 'embedded database, generated secret, lockfile' }),
  DATABASE_URL: Type.Optional(Type.String({ description: 'PostgreSQL URL; unset = embedded PGlite in DATA_DIR' })),
  SECRET_KEY: Type.Optional(Type.String({ minLength: 32, description: 'JWT signing key; generated into DATA_DIR when unset' })),
  ACCESS_TOKEN_EXPIRE_MINUTES: Type.Integer({ minimum: 1, default: 60 * 24 * 8 }),
  FIRST_USER_EMAIL: Type.Optional(Type.String({ format: 'email' })),
  FIRST_USER_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  DEFAULT_COUNTRY: Type.String({ pattern: '^[A-Z]{2}$', default: 'US', description: 'ISO country for numbers written without +' }),
  DB_POOL_SIZE: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  TRUST_PROXY: Type.Optional(Type.String({ description: 'true, a hop count, or a comma list of proxy addresses/CIDRs; unset = the socket address is the client' })),
  LOGIN_MAX_FAILURES: Type.Integer({ minimum: 0, default: 10, description: 'wrong passwords per login name and address per 15 minutes before 429; 0 = no throttle' }),
  // Dialer and voice providers
  VOICE_PROVIDER: Type.String({ default: 'sim', description: 'voice provider driver: sim (default) or a vendor adapter' }),
  VOICE_WEBHOOK_SECRET: Type.Optional(Type.String({ minLength: 16, description: 'secret the provider signs its events with; derived from SECRET_KEY when unset' })),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ description: 'externally reachable base URL, for provider callbacks' })),
  MAX_CONCURRENT_CALLS: Type.Integer({ minimum: 0, default: 0, description: 'calls in progress across the whole service; 0 = no global cap' }),
  SIM_TIME_SCALE: Type.Number({ exclusiveMinimum: 0, default: 1, description: 'simulator speed: 60 makes a one-minute call last one second' }),
  SIM_SEED: Type.Integer({ default: 42, description: 'seed of the simulator\'s outcomes' }),
  DIALER_TICK_MS: Type.Integer({ minimum: 10, default: 1000, description: 'how often workers look for due work besides NOTIFY wake-ups' }),
  // Post-call webhooks and extraction
  LLM_BASE_URL: Type.Optional(Type.String({ description: 'OpenAI-compatible server; unset = offline rule-based extractor' })),
  LLM_API_KEY: Type.Optional(Type.String()),
  LLM_MODEL: Type.Optional(Type.String()),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Boolean({ default: false, description: 'local development only: lets webhooks reach loopback and private addresses' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export type RawConfig = Static<typeof ConfigSchema>;
export type Config = RawConfig & { SECRET_KEY: string; DATA_DIR: string };

export class ConfigError extends Error {}

const NUMBER_KEYS = ['PORT', 'ACCESS_TOKEN_EXPIRE_MINUTES', 'DB_POOL_SIZE', 'LOGIN_MAX_FAILURES', 'MAX_CONCURRENT_CALLS', 'SIM_TIME_SCALE', 'SIM_SEED', 'DIALER_TICK_MS'];
const BOOLEAN_KEYS = ['WEBHOOK_ALLOW_PRIVATE_NETWORKS'];

/** Parses and validates settings; throws ConfigError naming every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    if (NUMBER_KEYS.includes(key) && /^-?\d+(\.\d+)?$/.test(value)) raw[key] = Number(value);
    else if (BOOLEAN_KEYS.includes(key) && /^(true|false|1|0)$/i.test(value)) raw[key] = /^(true|1)$/i.test(value);
    else raw[key] = value;
  }
  const withDefaults = Value.Default(ConfigSchema, raw);
  const errors = [...Value.Errors(ConfigSchema, withDefaults)];
  if (errors.length > 0) {
    const lines = errors.map((e) => `${e.instancePath.replace(/^\//, '') || '(root)'}: ${e.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const config = withDefaults as RawConfig;
  if ((config.FIRST_USER_EMAIL === undefined) !== (config.FIRST_USER_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration: FIRST_USER_EMAIL and FIRST_USER_PASSWORD must be set together');
  }
  const dataDir = resolve(config.DATA_DIR);
  return { ...config, DATA_DIR: dataDir, SECRET_KEY: config.SECRET_KEY ?? readOrCreateSecret(dataDir) };
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
