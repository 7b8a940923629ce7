import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

/** A bad setting stops the service with one line: the setting, the value's problem, what is allowed. */
const problemOf = (env: Record<string, string>) => {
  try {
    loadConfig({ SECRET_KEY: 'a-secret-key-that-is-long-enough-0123456789', DATA_DIR: '/tmp/vc-config-test', ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('settings', () => {
  it.each([
    [{ DATABASE_URL: 'notaurl' }, 'DATABASE_URL="notaurl": not a URL; expected postgres://user:password@host:5432/database'],
    [{ DATABASE_URL: 'mysql://db.example.com/app' }, 'DATABASE_URL="mysql://db.example.com/app": the scheme mysql is not PostgreSQL'],
    [{ DEFAULT_COUNTRY: 'XX' }, 'DEFAULT_COUNTRY="XX": not a country phone numbers are known for; use an ISO 3166 code such as US, GB or DE'],
    [{ DEFAULT_COUNTRY: 'us' }, 'DEFAULT_COUNTRY="us": must match ^[A-Z]{2}$'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ PORT: 'eighty' }, 'PORT="eighty": must be a whole number from 0 to 65535'],
    [{ SIM_TIME_SCALE: '0' }, 'SIM_TIME_SCALE="0": must be a number, above 0'],
    [{ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS="yes": must be true, false, 1 or 0'],
    [{ LLM_BASE_URL: 'localhost:11434' }, 'LLM_BASE_URL="localhost:11434": must be an http:// or https:// URL'],
    [{ VOICE_PROVIDER: 'twillio' }, 'VOICE_PROVIDER="twillio": must be one of sim, vapi, retell, twilio'],
    [{ VOICE_PROVIDER: 'twilio' }, 'VOICE_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN'],
    [{ TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`, TWILIO_AUTH_TOKEN: 'a-twilio-token' }, 'twilio needs PUBLIC_BASE_URL'],
    [{ TWILIO_ACCOUNT_SID: 'AC123' }, 'TWILIO_ACCOUNT_SID="AC123": must match ^AC[0-9a-fA-F]{32}$'],
    [{ VOICE_PROVIDER: 'vapi' }, 'VOICE_PROVIDER=vapi needs VAPI_API_KEY and VAPI_WEBHOOK_SECRET'],
    [{ VOICE_PROVIDER: 'vapi', VAPI_API_KEY: 'a-vapi-private-key' }, 'VOICE_PROVIDER=vapi needs VAPI_WEBHOOK_SECRET'],
    [{ VAPI_API_KEY: 'a-vapi-private-key' }, 'vapi is configured in part; it also needs VAPI_WEBHOOK_SECRET'],
    [{ VOICE_PROVIDER: 'retell' }, 'VOICE_PROVIDER=retell needs RETELL_API_KEY'],
    [{ VOICE_PROVIDER: 'retell', RETELL_API_KEY: 'a-retell-api-key' }, 'VOICE_PROVIDER=retell needs RETELL_AGENT_ID'],
    [{ VAPI_BASE_URL: 'api.vapi.ai' }, 'VAPI_BASE_URL="api.vapi.ai": not a URL; expected e.g. https://api.vapi.ai'],
    [{ VAPI_MAX_CONCURRENT_CALLS: '-1' }, 'VAPI_MAX_CONCURRENT_CALLS="-1": must be a whole number, at least 0'],
  ])('refuses %o in one line naming the setting and what is allowed', (env, expected) => {
    const message = problemOf(env);
    expect(message).toContain(expected);
    expect(message.split('\n')).toHaveLength(1);
  });

  it('names every bad setting at once, once each', () => {
    const message = problemOf({ LOG_LEVEL: 'loud', PORT: '-1' });
    expect(message.match(/LOG_LEVEL/g)).toHaveLength(1);
    expect(message).toContain('PORT="-1"');
  });

  it('never prints a secret or a URL\'s password', () => {
    expect(problemOf({ SECRET_KEY: 'short-secret' })).toBe('Invalid configuration: SECRET_KEY=(12 characters, hidden): must be at least 32 characters');
    const url = problemOf({ DATABASE_URL: 'mysql://app:hunter2@db/app' });
    expect(url).not.toContain('hunter2');
    expect(url).toContain('mysql://app:***@db/app');
    expect(problemOf({ VAPI_API_KEY: 'short', VAPI_WEBHOOK_SECRET: 'another-secret' })).not.toContain('short');
  });

  it('accepts good values', () => {
    const config = loadConfig({ SECRET_KEY: 'a-secret-key-that-is-long-enough-0123456789', DATA_DIR: '/tmp/vc-config-test', DATABASE_URL: 'postgresql://u:p@db:5432/app', DEFAULT_COUNTRY: 'GB', LOG_LEVEL: 'debug' });
    expect(config).toMatchObject({ DEFAULT_COUNTRY: 'GB', LOG_LEVEL: 'debug' });
  });
});

describe('request timeouts', () => {
  it('defaults to 15 s for headers, 30 s for a body, 10 min for an upload, and keeps headers within the upload', () => {
    const config = loadConfig({ SECRET_KEY: 'a-secret-key-that-is-long-enough-0123456789', DATA_DIR: '/tmp/vc-config-test' });
    expect([config.HEADERS_TIMEOUT_MS, config.REQUEST_TIMEOUT_MS, config.UPLOAD_TIMEOUT_MS]).toEqual([15_000, 30_000, 600_000]);
    expect(problemOf({ HEADERS_TIMEOUT_MS: '20000', UPLOAD_TIMEOUT_MS: '10000' })).toContain('HEADERS_TIMEOUT_MS=20000 may not exceed UPLOAD_TIMEOUT_MS=10000');
    expect(problemOf({ REQUEST_TIMEOUT_MS: '0' })).toContain('REQUEST_TIMEOUT_MS="0": must be a whole number from 100 to 3600000');
  });
});
