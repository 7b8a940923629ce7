import { Anchor, Badge, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import { ScrollTable } from '../../components/ScrollTable';
import { useFormat } from '../../format/useFormat';
import { useCallsPage } from '../calls/queries';

const PAGE = 25;
const CONTROL_NAMES = { first: 'First page', previous: 'Previous page', next: 'Next page', last: 'Last page' } as const;

/** Every call of the contact, newest first (the calls list filtered by contact_id), a page at a time, live. */
export function ContactAttempts({ contactId }: { contactId: number }) {
  const f = useFormat();
  const [page, setPage] = useState(1);
  const list = useCallsPage(JSON.stringify({ contact_id: String(contactId), skip: (page - 1) * PAGE, limit: PAGE }));
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  return (
    <Stack component="section" aria-labelledby="contact-attempts" gap="sm">
      <Title order={3} id="contact-attempts">Attempts</Title>
      <Problem error={list.error} />
      {list.isPending && <Loader size="sm" aria-label="Loading the attempts" />}
      {!list.isPending && <Text size="sm">{total} call{total === 1 ? '' : 's'}</Text>}
      {rows.length > 0 && (
        <ScrollTable label="Attempts table" minWidth={640}>
          <Table striped aria-label="Attempts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Call</Table.Th><Table.Th>Started</Table.Th><Table.Th>Status</Table.Th>
                <Table.Th>Outcome</Table.Th><Table.Th>Duration</Table.Th><Table.Th>Ended by</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id} data-call-id={c.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}><Anchor component={Link} to={`/calls/${c.id}`}>Call {c.id}</Anchor></Table.Td>
                  <Table.Td>{c.start_time ? f.time(c.start_time) : '—'}</Table.Td>
                  <Table.Td><Badge variant="light">{f.callStatus(c.status)}</Badge></Table.Td>
                  <Table.Td>{c.action_status ? f.outcome(c.action_status) : '—'}</Table.Td>
                  <Table.Td>{c.call_duration != null ? `${c.call_duration} s` : '—'}</Table.Td>
                  <Table.Td>{c.call_ended_by_reason ?? ''}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {total > PAGE && (
        <nav aria-label="Attempt pages">
          <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': CONTROL_NAMES[control] })} />
        </nav>
      )}
    </Stack>
  );
}
