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
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
});

export type RawConfig = Static<typeof ConfigSchema>;
export type Config = RawConfig & { SECRET_KEY: string; DATA_DIR: string };

export class ConfigError extends Error {}

const INTEGER_KEYS = ['PORT', 'ACCESS_TOKEN_EXPIRE_MINUTES', 'DB_POOL_SIZE'] as const;

/** Parses and validates settings; throws ConfigError naming every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(ConfigSchema.properties)) {
    const value = env[key];
    if (value === undefined || value === '') continue;
    raw[key] = (INTEGER_KEYS as readonly string[]).includes(key) && /^-?\d+$/.test(value) ? Number(value) : value;
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
