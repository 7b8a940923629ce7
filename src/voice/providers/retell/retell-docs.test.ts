import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { RETELL_OUTCOMES } from './retell-outcomes.ts';

it('documents the outcome table exactly as the code maps it', () => {
  const doc = readFileSync(new URL('../../../../docs/voice-providers.md', import.meta.url), 'utf8');
  const rows = new Map<string, string[]>();
  for (const m of doc.matchAll(/^\| `([a-z_]+)` \| ([^|]+)\| (yes|no) \| ([^|]*)\| ([^|]*)\|$/gm)) rows.set(m[1]!, [m[2]!.trim(), m[3]!, m[4]!.trim(), m[5]!.trim()]);
  expect([...rows.keys()].sort()).toEqual(Object.keys(RETELL_OUTCOMES).sort());
  for (const [reason, o] of Object.entries(RETELL_OUTCOMES)) {
    expect(rows.get(reason), reason).toEqual([o.status, o.refundAttempt ? 'yes' : 'no', o.endedBy ?? '', o.actionStatus ?? '']);
  }
});
