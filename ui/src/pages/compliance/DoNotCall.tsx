import { useState } from 'react';
import { Card, Checkbox, Group, Pagination, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Problem } from '../../components/Problem';
import { AddNumber } from './AddNumber';
import { CsvUpload } from './CsvUpload';
import { useSuppressions } from './queries';
import { LookupNumber } from './LookupNumber';
import { SOURCE_LABEL, SOURCES, type Suppression, type SuppressionSource } from './model';
import { RemoveSuppression } from './RemoveSuppression';
import { SuppressionsTable } from './SuppressionsTable';

const PAGE = 25;
const CONTROL_NAMES = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** The account's do-not-call list, a page at a time from the API, with the ways to add, look up and (owners) remove numbers. */
export function DoNotCall({ owner }: { owner: boolean }) {
  const [page, setPage] = useState(1);
  const [phoneText, setPhoneText] = useState('');
  const [phone] = useDebouncedValue(phoneText.trim(), 400);
  const [source, setSource] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const [removing, setRemoving] = useState<Suppression | null>(null);

  const query = {
    skip: (page - 1) * PAGE, limit: PAGE,
    ...(phone ? { phone_number: phone } : {}),
    ...(source ? { source: [source as SuppressionSource] } : {}),
    ...(expired ? { include_expired: true } : {}),
  };
  const list = useSuppressions(query);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, lg: 3 }}>
        <Card withBorder><AddNumber /></Card>
        <Card withBorder><LookupNumber /></Card>
        <Card withBorder><CsvUpload /></Card>
      </SimpleGrid>
      <Title order={3}>Suppressed numbers</Title>
      <Group align="end" wrap="wrap">
        <TextInput label="Find number" description="Exact number, any common format" type="search" value={phoneText} onChange={(e) => { setPhoneText(e.currentTarget.value); setPage(1); }} miw={200} />
        <Select
          label="Source" placeholder="Any source" clearable miw={200} value={source} onChange={(v) => { setSource(v); setPage(1); }}
          data={SOURCES.map((s) => ({ value: s, label: SOURCE_LABEL[s] }))}
        />
        <Checkbox label="Include expired" checked={expired} onChange={(e) => { setExpired(e.currentTarget.checked); setPage(1); }} mb={8} />
      </Group>
      <Problem error={list.error} />
      <Text size="sm" aria-live="polite">{list.isPending ? 'Loading the list…' : `${total} number${total === 1 ? '' : 's'}`}</Text>
      <SuppressionsTable rows={rows} onRemove={owner ? setRemoving : undefined} />
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No numbers match.</Text>}
      {total > PAGE && (
        <nav aria-label="Do-not-call list pages">
          <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} siblings={1} boundaries={1} getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })} />
        </nav>
      )}
      {owner && <RemoveSuppression suppression={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}
