import { useState } from 'react';
import { ScrollTable } from '../components/ScrollTable';
import { Anchor, Badge, Group, Pagination, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { api, must } from '../api/client';
import { Problem } from '../components/Problem';

const PAGE = 25;
const STATUSES = ['in progress', 'finished', 'failed', 'busy_or_rejected', 'invalid number', 'insufficient funds', 'rejected', 'terminated', 'unavailable', 'voicemail', 'silence'];

type CallItem = { id: number; status: string; to_number?: string | null; campaign_title?: string | null; start_time?: string | null; call_duration?: number | null; cost?: number | null; action_status?: string | null };

/** Calls, a page at a time from the API, refreshed while the page is open (every 2 s while a call on it is in progress). */
export default function Calls() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [callData] = useDebouncedValue(search, 400);
  const query = { skip: (page - 1) * PAGE, limit: PAGE, ...(status ? { status: [status] } : {}), ...(callData ? { call_data: callData } : {}) };
  const list = useQuery({
    queryKey: ['calls', query],
    queryFn: () => must(api.GET('/api/v1/calls/', { params: { query: query as never } })),
    // Live: every 2 s while a call on the page is in progress, else every 5 s (new calls appear too).
    refetchInterval: (q) => (((q.state.data as { data?: CallItem[] } | undefined)?.data ?? []).some((c) => c.status === 'in progress') ? 2000 : 5000),
  });
  const rows = ((list.data as { data?: CallItem[] } | undefined)?.data ?? []) as CallItem[];
  const total = (list.data as { count?: number } | undefined)?.count ?? 0;
  return (
    <Stack>
      <Title order={2}>Calls</Title>
      <Group align="end">
        <Select label="Status" placeholder="Any" data={STATUSES} value={status} onChange={(v) => { setStatus(v); setPage(1); }} clearable />
        <TextInput label="Search in call data" value={search} onChange={(e) => { setSearch(e.currentTarget.value); setPage(1); }} />
      </Group>
      <Problem error={list.error} />
      <ScrollTable label="Calls table" minWidth={640}>
        <Table striped aria-label="Calls">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Call</Table.Th>
              <Table.Th>Campaign</Table.Th>
              <Table.Th>Number</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Outcome</Table.Th>
              <Table.Th>Duration</Table.Th>
              <Table.Th>Started</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td><Anchor component={Link} to={`/calls/${c.id}`}>Call {c.id}</Anchor></Table.Td>
                <Table.Td>{c.campaign_title}</Table.Td>
                <Table.Td>{c.to_number}</Table.Td>
                <Table.Td><Badge variant="light" color={c.status === 'in progress' ? 'blue' : c.status === 'finished' ? 'green' : 'gray'}>{c.status}</Badge></Table.Td>
                <Table.Td>{c.action_status ?? ''}</Table.Td>
                <Table.Td>{c.call_duration != null ? `${c.call_duration} s` : ''}</Table.Td>
                <Table.Td>{c.start_time ? new Date(c.start_time).toLocaleString() : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No calls match.</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Call pages" />}
    </Stack>
  );
}
