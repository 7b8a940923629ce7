import { describe, expect, it } from 'vitest';
import { buildByoNumber, buildSipCredential, sipOutcome } from './vapi-sip.ts';
import type { SipCallRoute } from '../../sip-codes.ts';

const route = (over: Partial<SipCallRoute>): SipCallRoute => ({
  uri: 'sip:+14155550101@trunk.example.com', trunkUri: 'sip:trunk.example.com', trunkId: 7, username: 'acme', password: 'pw', gateways: [], callerIds: ['+14155550150'], ...over,
});

describe('Vapi\'s byo-sip-trunk credential and BYO number', () => {
  it('takes the trunk\'s gateways, else the campaign_sip host and port, with its transport', () => {
    expect(buildSipCredential(route({ trunkUri: 'sips:trunk.example.com:5061' })).gateways).toEqual([{ ip: 'trunk.example.com', port: 5061, outboundEnabled: true, inboundEnabled: false, outboundProtocol: 'tls' }]);
    expect(buildSipCredential(route({ trunkUri: 'sip:trunk.example.com;transport=tcp', gateways: ['198.51.100.4:5080', 'gw.example.net'] })).gateways)
      .toEqual([{ ip: '198.51.100.4', port: 5080, outboundEnabled: true, inboundEnabled: false, outboundProtocol: 'tcp' }, { ip: 'gw.example.net', outboundEnabled: true, inboundEnabled: false, outboundProtocol: 'tcp' }]);
    expect(buildSipCredential(route({ username: null, password: null })).outboundAuthenticationPlan).toBeUndefined();
    expect(buildByoNumber('+14155550150', 'cred-1')).toMatchObject({ provider: 'byo-phone-number', number: '+14155550150', credentialId: 'cred-1', numberE164CheckEnabled: true });
    expect(buildByoNumber('1000', 'cred-1').numberE164CheckEnabled).toBe(false);
  });

  it('reads the trunk\'s SIP code in Vapi\'s endedReasons', () => {
    expect(sipOutcome('call.in-progress.error-providerfault-outbound-sip-480-temporarily-unavailable')).toEqual({ status: 'unavailable', sipCode: 480 });
    expect(sipOutcome('call.in-progress.error-providerfault-outbound-sip-403-forbidden')).toEqual({ status: 'rejected', sipCode: 403 });
    expect(sipOutcome('call.in-progress.error-sip-outbound-call-failed-to-connect')).toBeNull();
    expect(sipOutcome('customer-busy')).toBeNull();
  });
});
