import { describe, expect, it } from 'vitest';
import { HEALTH_DEFAULTS, judgeNumbers, type NumberFigures } from './number-health.rule.ts';
import { chooseCallerId } from '../dialer/outbound/caller-id.ts';
import type { DialCampaign } from '../dialer/outbound/concurrency-locks.ts';

/** The rule without a database: which numbers rest, and how the caller ID passes them over. */
const now = new Date('2030-01-07T15:00:00Z');
const number = (id: number, calls: number, answered: number, short_calls = 0, rested_until: Date | null = null): NumberFigures =>
  ({ phone_number_id: id, owner_id: 1, phone_number: `+1212555010${id}`, calls, answered, short_calls, rested_until });
const settings = { ...HEALTH_DEFAULTS };

describe('the number-health rule', () => {
  it('rests a number whose answer rate is under half the account\'s, for rest_hours, and says why', () => {
    const verdicts = judgeNumbers([number(1, 50, 2), number(2, 50, 25)], { calls: 100, answered: 27, short_calls: 0 }, settings, now);
    expect(verdicts).toEqual([{ phone_number_id: 1, code: 'answer_rate', reason: 'answer rate 4% vs account 27%', until: new Date('2030-01-08T15:00:00Z') }]);
  });

  it('judges no number under min_calls, and none when the rule is off', () => {
    const account = { calls: 100, answered: 50, short_calls: 0 };
    expect(judgeNumbers([number(1, 29, 0)], account, settings, now)).toEqual([]);
    expect(judgeNumbers([number(1, 30, 0)], account, settings, now)).toHaveLength(1);
    expect(judgeNumbers([number(1, 30, 0)], account, { ...settings, enabled: false }, now)).toEqual([]);
  });

  it('leaves a number at exactly the ratio, and one already resting', () => {
    const account = { calls: 100, answered: 40, short_calls: 0 };
    expect(judgeNumbers([number(1, 50, 10)], account, settings, now)).toEqual([]); // 20% = 0.5 × 40%
    expect(judgeNumbers([number(1, 50, 0, 0, new Date(now.getTime() + 1000))], account, settings, now)).toEqual([]);
    expect(judgeNumbers([number(1, 50, 0, 0, now)], account, settings, now)).toHaveLength(1); // a rest that just ended
  });

  it('rests a number whose answered calls are mostly hung up at once, but not for a few points of noise', () => {
    const account = { calls: 200, answered: 100, short_calls: 10 }; // 10% short
    const verdicts = judgeNumbers([number(1, 60, 30, 15), number(2, 60, 30, 5)], account, settings, now);
    expect(verdicts.map((v) => [v.phone_number_id, v.code, v.reason])).toEqual([[1, 'short_calls', 'short calls (under 10 s) 50% of answered vs account 10%']]);
    // 3% against 1%: three times, but within the 10-point margin.
    expect(judgeNumbers([number(1, 100, 100, 3)], { calls: 1000, answered: 1000, short_calls: 10 }, settings, now)).toEqual([]);
  });

  it('never rests the only number of an account: it is its account\'s average', () => {
    expect(judgeNumbers([number(1, 100, 1)], { calls: 100, answered: 1, short_calls: 0 }, settings, now)).toEqual([]);
  });
});

describe('the caller ID with rested numbers', () => {
  const campaign = (phones: string[]) => ({ phones, phone_caps: phones.map(() => null), campaign_phone: null }) as unknown as DialCampaign;
  const contact = { id: 1, phone_number: '+12125550999', calls_attempts: 0 };
  const rest = (reason: string, answerRate: number) => ({ reason, code: 'answer_rate' as const, answerRate });

  it('passes a rested number over and says so', () => {
    const rested = new Map([['+12125550101', rest('answer rate 4% vs account 31%', 0.04)]]);
    const choice = chooseCallerId(campaign(['+12125550101', '+12125550102', '+14155550103']), contact, new Map(), rested);
    expect(choice).toEqual({ number: '+12125550102', reason: 'same area code as the contact (1 number(s) rested: answer rate 4% vs account 31%)' });
  });

  it('calls from the least bad number when every number is rested, and says so', () => {
    const rested = new Map([['+12125550101', rest('answer rate 4% vs account 31%', 0.04)], ['+14155550102', rest('answer rate 9% vs account 31%', 0.09)]]);
    const choice = chooseCallerId(campaign(['+12125550101', '+14155550102']), contact, new Map(), rested);
    expect(choice).toEqual({ number: '+14155550102', reason: 'next in rotation (every number rested; calling from the least bad: answer rate 9% vs account 31%)' });
  });
});
