import { describe, expect, it } from 'vitest';
import { timezoneForPhone, timezonesForPhone } from './phone-timezones.ts';

describe('phone number time zones', () => {
  it('takes the longest prefix of each number, whatever was looked up before', async () => {
    // Two Recife-area numbers sharing their first 9 digits, an hour apart (a cache by the first
    // digits answered the second with the first one's zone).
    expect(await timezoneForPhone('+558130131234')).toBe('America/Noronha');
    expect(await timezoneForPhone('+558130101234')).toBe('America/Sao_Paulo');
    expect(await timezoneForPhone('+558130131234')).toBe('America/Noronha');
  });

  it('maps a geographic number to one zone, a toll-free one to several, an unknown one to none', async () => {
    expect(await timezoneForPhone('+12125550100')).toBe('America/New_York');
    expect(await timezoneForPhone('+13105556543')).toBe('America/Los_Angeles');
    expect(await timezoneForPhone('+4930123456')).toBe('Europe/Berlin');
    const tollFree = await timezonesForPhone('+18005550100');
    expect(tollFree.length).toBeGreaterThan(10);
    expect(tollFree).toContain('America/New_York');
    expect(await timezoneForPhone('+18005550100')).toBeNull();
    expect(await timezonesForPhone('not a number')).toEqual([]);
  });
});
