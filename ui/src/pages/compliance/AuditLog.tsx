import { useState } from 'react';
import { Group, MultiSelect, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Problem } from '../../components/Problem';
import { AuditTable } from './AuditTable';
import { useAuditEvents } from './queries';
import { AUDIT_KINDS, type AuditKind, localToIso } from './model';
import { useFormat } from '../../format/useFormat';
import { totalOf } from '../../format/counts';

const PAGE = 25;
const CONTROL_NAMES = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** The account's audit events (owners only), a page at a time, filtered by kind, actor and time. */
export function AuditLog() {
  const { zone } = useFormat();
  const [page, setPage] = useState(1);
  const [kinds, setKinds] = useState<string[]>([]);
  const [actorText, setActorText] = useState('');
  const [actor] = useDebouncedValue(actorText.trim(), 400);
  const [since, setSince] = useState('');
  const [until, setUntil] = useState('');
  const query = {
    skip: (page - 1) * PAGE, limit: PAGE,
    ...(kinds.length ? { kind: kinds as AuditKind[] } : {}),
    ...(actor ? { actor } : {}),
    ...(since ? { since: localToIso(since, zone) } : {}),
    ...(until ? { until: localToIso(until, zone) } : {}),
  };
  const events = useAuditEvents(query);
  const rows = events.data?.data ?? [];
  const total = events.data?.count ?? 0;
  const reset = <T,>(set: (v: T) => void) => (v: T) => { set(v); setPage(1); };
  return (
    <Stack>
      <Group align="end" wrap="wrap">
        <MultiSelect label="Kind" placeholder={kinds.length ? undefined : 'Any kind'} data={[...AUDIT_KINDS]} value={kinds} onChange={reset(setKinds)} clearable searchable miw={240} maw={320} />
        <TextInput label="Actor" description="E-mail, username or api key name" type="search" value={actorText} onChange={(e) => reset(setActorText)(e.currentTarget.value)} miw={200} />
        <TextInput label="Since" description={zone} type="datetime-local" value={since} onChange={(e) => reset(setSince)(e.currentTarget.value)} />
        <TextInput label="Until" description={zone} type="datetime-local" value={until} onChange={(e) => reset(setUntil)(e.currentTarget.value)} />
      </Group>
      <Problem error={events.error} />
      <Text size="sm" aria-live="polite">{events.isPending ? 'Loading the audit log…' : totalOf(total, events.data?.count_exact, 'event')}</Text>
      <AuditTable rows={rows} />
      {!events.isPending && rows.length === 0 && <Text c="dimmed">No events match.</Text>}
      {total > PAGE && (
        <nav aria-label="Audit log pages">
          <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })} />
        </nav>
      )}
    </Stack>
  );
}
