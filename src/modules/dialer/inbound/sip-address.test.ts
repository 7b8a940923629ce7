import { describe, expect, it } from 'vitest';
import { sipAddressKey, sipCaller } from './sip-address.ts';

describe('SIP addresses of Inbound campaigns', () => {
  it('compares user@host without case, scheme, port, parameters or headers', () => {
    const key = sipAddressKey('sip:desk@acme.sip.twilio.com');
    expect(key).toBe('desk@acme.sip.twilio.com');
    for (const same of ['sips:Desk@ACME.sip.twilio.com:5061;transport=tls', 'sip:desk@acme.sip.twilio.com;transport=UDP?x=y', 'SIP:desk@acme.sip.twilio.com:']) {
      expect(sipAddressKey(same), same).toBe(key);
    }
    for (const other of ['sip:sales@acme.sip.twilio.com', 'sip:desk@other.sip.twilio.com', 'sip:acme.sip.twilio.com']) expect(sipAddressKey(other), other).not.toBe(key);
    expect(sipAddressKey('sip:[2001:db8::1]:5060')).toBe('@[2001:db8::1]');
    expect(sipAddressKey('sip:%2B14155550100@pbx.example.com')).toBe('+14155550100@pbx.example.com');
    expect(sipAddressKey('+14155550100')).toBeNull();
  });

  it('takes a SIP caller\'s number from the user part, else keeps user@host', () => {
    expect(sipCaller('sip:+14155550177@pbx.example.com;user=phone', 'US')).toBe('+14155550177');
    expect(sipCaller('sip:alice@pbx.example.com', 'US')).toBe('alice@pbx.example.com');
  });
});
