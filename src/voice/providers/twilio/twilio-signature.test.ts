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
