import { readFileSync } from 'node:fs';
import { Vapi } from '@vapi-ai/server-sdk';
import { describe, expect, it } from 'vitest';
import { parseVapiMessage } from './vapi-events.ts';
import { VAPI_OUTCOMES, VAPI_UNKNOWN_OUTCOME, vapiOutcome } from './vapi-outcomes.ts';

const report = (endedReason: string) => JSON.stringify({
  message: {
    type: 'end-of-call-report', endedReason, timestamp: Date.parse('2025-05-01T10:00:30Z'),
    startedAt: '2025-05-01T10:00:00Z', endedAt: '2025-05-01T10:00:30Z', cost: 0.05, artifact: { messages: [] }, analysis: {},
    call: { id: 'vapi-call-1', orgId: 'o', createdAt: '2025-05-01T09:59:50Z', updatedAt: '2025-05-01T10:00:30Z', assistantOverrides: { metadata: { call_id: 42 } } },
  },
});
const sample = (r: (typeof VAPI_OUTCOMES)[number]) => (r.match === 'exact' ? r.endedReason : `${r.endedReason}something-new`);

describe('Vapi endedReason mapping', () => {
  it.each(VAPI_OUTCOMES.map((r) => [sample(r), r] as const))('an end-of-call-report ended by %s gives the table\'s status', (reason, row) => {
    const [event] = parseVapiMessage(report(reason), new Date());
    expect(event).toMatchObject({ type: 'ended', callId: 42, providerCallId: 'vapi-call-1', status: row.status, endedReason: reason, durationSec: 30, cost: 0.05 });
    expect(vapiOutcome(reason)).toBe(row);
    if (row.endedBy) expect(event!.endedBy).toBe(row.endedBy);
  });

  it('places every reason of the SDK\'s CallEndedReason enum on a row of the table', () => {
    const unmatched = Object.values(Vapi.CallEndedReason).filter((reason) => vapiOutcome(reason) === VAPI_UNKNOWN_OUTCOME);
    expect(unmatched).toEqual([]);
  });

  it('ends a call with a reason nobody knows as failed, keeping the reason', () => {
    const [event] = parseVapiMessage(report('brand-new-reason'), new Date());
    expect(event).toMatchObject({ status: 'failed', endedReason: 'brand-new-reason' });
  });

  it('marks Vapi\'s own limits as a requeue without an attempt, and nothing else', () => {
    expect(VAPI_OUTCOMES.filter((r) => r.retryWithoutAttempt).map((r) => r.endedReason).sort()).toEqual([
      'call.start.error-subscription-concurrency-limit-reached', 'call.start.error-vapi-number-outbound-daily-limit',
    ]);
  });

  it('is the table written in docs/voice-providers.md, row by row', () => {
    const doc = readFileSync(new URL('../../../../docs/voice-providers.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('### endedReason'));
    const lines = section.slice(0, section.indexOf('\n### ')).split('\n').filter((l) => l.startsWith('| `'));
    for (const r of VAPI_OUTCOMES) {
      const shown = r.match === 'prefix' ? `\`${r.endedReason}*\`` : `\`${r.endedReason}\``;
      const line = lines.find((l) => l.startsWith(`| ${shown} |`));
      expect(line, r.endedReason).toBeDefined();
      expect(line).toContain(`| ${r.status} |`);
      expect(line).toContain(r.retryWithoutAttempt ? '| yes |' : '| no |');
    }
    expect(lines.length).toBe(VAPI_OUTCOMES.length);
  });
});
