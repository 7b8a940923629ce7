import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { twilioSignature, verifyTwilioSignature } from './twilio-signature.ts';

/** Our signature against Twilio's own library's, over the requests Twilio makes of us. */
describe('X-Twilio-Signature', () => {
  const token = 'twilio-auth-token-1234';
  const cases: [string, Record<string, string>][] = [
    ['https://calls.example.com/api/v1/voice/twilio/events?call=12&connection=3', { CallSid: 'CA1', CallStatus: 'completed', CallDuration: '31', To: '+14155550100', From: '+14155550111' }],
    ['https://calls.example.com/api/v1/voice/twilio/twiml', { CallSid: 'CA2', Direction: 'inbound', Caller: 'Ünïcode & <xml>', Digits: '' }],
    ['wss://calls.example.com/api/v1/voice/twilio/relay?call=12', {}],
  ];

  it('equals the twilio package\'s getExpectedTwilioSignature', () => {
    for (const [url, params] of cases) {
      expect(twilioSignature(token, url, new URLSearchParams(params))).toBe(twilio.getExpectedTwilioSignature(token, url, params));
    }
  });

  it('refuses another URL, another parameter value, another token, and an absent header', () => {
    const [url, params] = cases[0]!;
    const signature = twilioSignature(token, url, new URLSearchParams(params));
    expect(verifyTwilioSignature(token, signature, url, new URLSearchParams(params))).toBe(true);
    expect(verifyTwilioSignature(token, signature, url.replace('call=12', 'call=13'), new URLSearchParams(params))).toBe(false);
    expect(verifyTwilioSignature(token, signature, url, new URLSearchParams({ ...params, CallStatus: 'busy' }))).toBe(false);
    expect(verifyTwilioSignature('another-token-5678', signature, url, new URLSearchParams(params))).toBe(false);
    expect(verifyTwilioSignature(token, undefined, url, new URLSearchParams(params))).toBe(false);
    expect(verifyTwilioSignature(token, [signature, signature], url, new URLSearchParams(params))).toBe(false);
  });
});

/**
 * A URLSearchParams that counts how many times its whole list is walked: every read
 * (get, getAll, has, keys, values, entries, forEach, iteration) scans the list, so a signature
 * that reads it once per name costs n² (100,000 forged parameters took 128 s).
 */
class CountingParams extends URLSearchParams {
  walks = 0;
  override get(name: string) { this.walks++; return super.get(name); }
  override getAll(name: string) { this.walks++; return super.getAll(name); }
  override has(name: string, value?: string) { this.walks++; return value === undefined ? super.has(name) : super.has(name, value); }
  override keys() { this.walks++; return super.keys(); }
  override values() { this.walks++; return super.values(); }
  override entries() { this.walks++; return super.entries(); }
  override forEach(fn: (value: string, key: string, parent: URLSearchParams) => void) { this.walks++; super.forEach(fn); }
  override [Symbol.iterator]() { this.walks++; return super.entries(); }
}

describe('X-Twilio-Signature over a large form', () => {
  const token = 'twilio-auth-token-1234';
  const url = 'https://calls.example.com/api/v1/voice/twilio/events';
  const form = (n: number) => {
    const params = new CountingParams();
    for (let i = 0; i < n; i++) params.append(`p${(i * 7919) % n}`, `v${i % 13}`);
    return params;
  };

  it('walks the parameter list a fixed number of times, whatever its length (linear, plus one sort)', () => {
    const small = form(10);
    const large = form(20_000);
    twilioSignature(token, url, small);
    twilioSignature(token, url, large);
    expect(small.walks).toBeLessThanOrEqual(2);
    expect(large.walks).toBe(small.walks);
  });

  it('signs a 1 MB form of 100,000 parameters in seconds at most, as Twilio\'s library does', () => {
    const params = form(100_000);
    expect(params.toString().length).toBeGreaterThan(1_000_000);
    const started = performance.now();
    const signature = twilioSignature(token, url, params);
    expect(performance.now() - started).toBeLessThan(5000); // generous: a shared machine; before, minutes
    const small = Object.fromEntries(form(500));
    expect(twilioSignature(token, url, new URLSearchParams(small))).toBe(twilio.getExpectedTwilioSignature(token, url, small));
    expect(signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
  });
});
