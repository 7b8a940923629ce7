import { useState } from 'react';
import { Pagination, Stack, Text, Title } from '@mantine/core';
import { Problem } from '../components/Problem';
import { useFormat } from '../format/useFormat';
import { useSession } from './session/queries';
import { HealthSettings } from './phone-numbers/HealthSettings';
import { HealthTable, percent } from './phone-numbers/HealthTable';
import { useNumberHealthPage, useNumberHealthSettings, useRestNumber } from './phone-numbers/queries';

const PAGE = 50;

/**
 * The account's caller-ID numbers and their health (docs/number-health.md): a number whose answer
 * rate falls far below the account's is rested, and the dialer passes it over. The owner may rest
 * a number or end its rest by hand; a sub-user sees the numbers of its campaigns.
 */
export default function PhoneNumbers() {
  const f = useFormat();
  const session = useSession();
  const owner = session.data?.kind === 'user';
  const [page, setPage] = useState(1);
  const list = useNumberHealthPage((page - 1) * PAGE, PAGE);
  const settings = useNumberHealthSettings();
  const rest = useRestNumber();
  const rows = list.data?.data ?? [];
  const account = list.data?.account;
  const total = list.data?.count ?? 0;
  const s = settings.data;
  return (
    <Stack>
      <Title order={2}>Phone numbers</Title>
      {s && (
        <Text size="sm">
          {s.enabled
            ? `Number health is on: over the last ${s.window_days} day(s), a number with at least ${s.min_calls} calls whose answer rate is under ${percent(s.answer_rate_ratio)} of the account's, ` +
              `or whose calls are mostly hung up within ${s.short_call_seconds} s, is rested for ${s.rest_hours} hours. Campaigns call from their other numbers meanwhile.`
            : 'Number health is off: no number is rested automatically.'}
        </Text>
      )}
      {account && (
        <Text size="sm" aria-label="Account figures">
          Account: {account.calls} calls, answer rate {percent(account.answer_rate)}, short calls {percent(account.short_call_rate)} of answered.
        </Text>
      )}
      <Problem error={list.error ?? rest.error} />
      {account && <HealthTable rows={rows} account={account} f={f} busy={rest.isPending} onRest={owner ? (n, r) => rest.mutate({ id: n.phone_number_id, rest: r }) : undefined} />}
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No phone numbers yet.</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Phone number pages" />}
      {owner && <HealthSettings />}
    </Stack>
  );
}
