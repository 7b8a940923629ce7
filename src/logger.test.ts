import { describe, expect, it } from 'vitest';
import { createLogger, humanLine, redactLogLine, startupLogLevel } from './logger.ts';

// JSON lines when stdout is not a terminal are held by test/cli.test.ts, which reads serve's.
describe('the human log lines (stdout a terminal)', () => {
  it('says the message, then the fields that are not pino\'s own', () => {
    const written: string[] = [];
    const log = createLogger('info', { pretty: true, write: (text) => written.push(text) });
    log.info({ url: 'http://127.0.0.1:8000' }, 'voice-campaigns ready');
    log.debug('not at info');
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^\d\d:\d\d:\d\d voice-campaigns ready url=http:\/\/127\.0\.0\.1:8000\n$/);
  });

  it('gives a request line its method, address, status and time, and a warning its level', () => {
    const base = { time: 0, pid: 1, hostname: 'h', reqId: 'req-1' };
    expect(humanLine(JSON.stringify({ ...base, level: 30, req: { method: 'GET', url: '/api/v1/users/me' }, msg: 'incoming request' }))).toMatch(/ incoming request GET \/api\/v1\/users\/me\n$/);
    expect(humanLine(JSON.stringify({ ...base, level: 30, res: { statusCode: 401 }, responseTime: 2.6, msg: 'request completed' }))).toMatch(/ request completed 401 in 3 ms\n$/);
    expect(humanLine(JSON.stringify({ ...base, level: 40, msg: 'careful' }))).toMatch(/^\d\d:\d\d:\d\d WARN careful\n$/);
    expect(humanLine(JSON.stringify({ ...base, level: 50, err: { message: 'boom', stack: 'Error: boom\n    at x' }, msg: 'boom' }))).toMatch(/ERROR boom\nError: boom\n    at x\n$/);
    expect(humanLine('not json')).toBe('not json\n');
  });

  it('reads LOG_LEVEL before the settings are validated, falling back to info', () => {
    expect(startupLogLevel('debug')).toBe('debug');
    expect(startupLogLevel('loud')).toBe('info');
    expect(startupLogLevel(undefined)).toBe('info');
  });
});

describe('redacted log lines', () => {
  it('replaces cards, IBANs, e-mails and phone numbers in the message and the fields, and keeps pino\'s own fields', () => {
    const written: string[] = [];
    const log = createLogger('info', { pretty: false, write: (text) => written.push(text) });
    log.info({ heard: 'my card is 4111 1111 1111 1111', nested: { iban: ['DE89 3704 0044 0532 0130 00'] }, count: 4111111111111111 }, 'mail ana.lopez@example.com or call +1 617 555 0148');
    expect(written).toHaveLength(1);
    const entry = JSON.parse(written[0]!) as Record<string, unknown>;
    expect(entry.msg).toBe('mail [EMAIL] or call [PHONE]');
    expect(entry.heard).toBe('my card is [CARD]');
    expect(entry.nested).toEqual({ iban: ['[IBAN]'] });
    // Numbers are not text anyone said; pino's own fields stay as they are.
    expect(entry.count).toBe(4111111111111111);
    expect(typeof entry.time).toBe('number');
    expect(entry.pid).toBe(process.pid);
  });

  it('leaves a line without personal data as pino wrote it, and redacts a line that is not JSON as text', () => {
    const written: string[] = [];
    const log = createLogger('info', { pretty: false, write: (text) => written.push(text) });
    log.info({ url: 'http://127.0.0.1:8000/api/v1/calls?page=2', campaign_id: 12 }, 'request completed');
    expect(JSON.parse(written[0]!)).toMatchObject({ url: 'http://127.0.0.1:8000/api/v1/calls?page=2', campaign_id: 12, msg: 'request completed' });
    expect(redactLogLine('card 4111-1111-1111-1111 said\n')).toBe('card [CARD] said\n');
  });

  it('redacts what a person reads in the terminal too', () => {
    const written: string[] = [];
    const log = createLogger('info', { pretty: true, write: (text) => written.push(text) });
    log.warn({ ssn: 'SSN 123-45-6789' }, 'relay heard 4111 1111 1111 1111');
    expect(written[0]).toMatch(/WARN relay heard \[CARD\] ssn=SSN \[SSN\]\n$/);
  });
});
