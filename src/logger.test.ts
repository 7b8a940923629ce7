import { describe, expect, it } from 'vitest';
import { createLogger, humanLine, startupLogLevel } from './logger.ts';

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
