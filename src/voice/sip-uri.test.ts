import { describe, expect, it } from 'vitest';
import { parseSipUri, sipUriForNumber } from './sip-uri.ts';

const ok = (text: string) => {
  const r = parseSipUri(text);
  if (!r.ok) throw new Error(`${text}: ${r.msg}`);
  return r.uri;
};
const problem = (text: string) => {
  const r = parseSipUri(text);
  return r.ok ? null : r.msg;
};

describe('a campaign SIP route', () => {
  it('reads the trunk: scheme, user, host, port, transport and other parameters', () => {
    expect(ok('sip:trunk.example.com')).toEqual({ scheme: 'sip', user: null, host: 'trunk.example.com', port: null, transport: null, params: {} });
    expect(ok('SIPS:Agent@PBX.Example.com:5061;transport=TLS;lr')).toEqual({ scheme: 'sips', user: 'Agent', host: 'pbx.example.com', port: 5061, transport: 'tls', params: { lr: '' } });
    expect(ok('sip:+14155550100@34.120.1.7:5080;transport=udp').host).toBe('34.120.1.7');
    expect(ok('sip:[2606:4700::1111]').host).toBe('[2606:4700::1111]');
  });

  it('refuses credentials, headers, local and private hosts, bad ports and transports, naming the problem', () => {
    expect(problem('sip:user:secret@trunk.example.com')).toMatch(/credentials must not be written into the URI/);
    expect(problem('sip:trunk.example.com?subject=x')).toMatch(/headers/);
    expect(problem('sip:10.0.0.5')).toMatch(/public address: 10.0.0.5 is a private address/);
    expect(problem('sip:127.0.0.1:5060')).toMatch(/loopback/);
    expect(problem('sip:169.254.10.1')).toMatch(/linkLocal/);
    expect(problem('sip:[::1]')).toMatch(/loopback/);
    expect(problem('sip:[fe80::1]')).toMatch(/linkLocal/);
    expect(problem('sip:localhost')).toMatch(/local name/);
    expect(problem('sip:pbx.local')).toMatch(/local name/);
    expect(problem('sip:pbx')).toMatch(/local name/);
    expect(problem('sip:trunk.example.com:70000')).toMatch(/out of range/);
    expect(problem('sip:trunk.example.com;transport=carrier-pigeon')).toMatch(/transport must be one of/);
    expect(problem('sips:trunk.example.com;transport=udp')).toMatch(/TLS/);
    expect(problem('https://trunk.example.com')).toMatch(/must be a SIP URI/);
    expect(problem('sip:exa_mple..com')).toMatch(/not a valid host name/);
    expect(problem('sip:999.1.1.1')).toMatch(/not a valid host name or IPv4/);
  });

  it('puts the contact\'s number in the user part of the URI a vendor dials', () => {
    expect(sipUriForNumber(ok('sip:agent@trunk.example.com:5080;transport=tcp;lr'), '+14155550100')).toBe('sip:+14155550100@trunk.example.com:5080;transport=tcp;lr');
    expect(sipUriForNumber(ok('sips:pbx.example.com'), '+442071838750')).toBe('sips:+442071838750@pbx.example.com');
  });
});
