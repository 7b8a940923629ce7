import { useState } from 'react';
import { ScrollTable } from '../../components/ScrollTable';
import { Badge, Button, Pagination, Stack, Table, Text } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { excerpt, type Webhook } from './model';
import { useDeliveriesPage, useRedeliver } from './queries';
import { useFormat } from '../../format/useFormat';
import { totalOf } from '../../format/counts';

const PAGE = 20;
const COLOR = { sent: 'green', failed: 'red', pending: 'blue', skipped: 'gray' } as const;

/**
 * A webhook's delivery log, newest first, a page at a time, with its total ("about N" when the API
 * estimated it); any delivery can be sent again.
 */

/** A delivery's kind in words (the API's kind values: docs/webhooks.md). */
const KIND_WORDS: Record<string, string> = { call: 'After a call', text: 'Inbound text', test: 'Test', redeliver: 'Redelivery' };

export function Deliveries({ webhook }: { webhook: Webhook }) {
  const f = useFormat();
  const [page, setPage] = useState(1);
  const list = useDeliveriesPage(webhook.id, page, PAGE);
  const redeliver = useRedeliver(webhook.id);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  return (
    <Stack>
      <Problem error={list.error ?? redeliver.error} />
      {redeliver.isSuccess && <Text size="sm" role="status">Redelivered: {redeliver.data.status}{redeliver.data.http_status !== null ? `, HTTP ${redeliver.data.http_status}` : ''}</Text>}
      <ScrollTable label="Deliveries table" minWidth={880}>
        <Table aria-label="Deliveries" striped>
          <Table.Thead>
            <Table.Tr><Table.Th>Time</Table.Th><Table.Th>Kind</Table.Th><Table.Th>About</Table.Th><Table.Th>Status</Table.Th><Table.Th>HTTP status</Table.Th><Table.Th>Reason</Table.Th><Table.Th>Response</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td miw={120}>{f.time(d.finished_at ?? d.created_at)}</Table.Td>
                <Table.Td>{KIND_WORDS[d.kind] ?? d.kind}</Table.Td>
                <Table.Td>{d.call_id !== null ? `Call ${d.call_id}` : d.message_id !== null ? `Text ${d.message_id}` : ''}</Table.Td>
                <Table.Td><Badge color={COLOR[d.status]}>{f.deliveryStatus(d.status)}</Badge></Table.Td>
                <Table.Td>{d.http_status ?? ''}</Table.Td>
                <Table.Td miw={160}>{d.reason ?? ''}</Table.Td>
                <Table.Td miw={160} maw={280} style={{ overflowWrap: 'anywhere' }}>{d.response_body ? excerpt(d.response_body, 120) : ''}</Table.Td>
                <Table.Td>
                  <Button size="xs" variant="default" disabled={d.status === 'pending'} loading={redeliver.isPending && redeliver.variables === d.id}
                    onClick={() => redeliver.mutate(d.id)} aria-label={`Redeliver delivery ${d.id}`}>Redeliver</Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No deliveries yet.</Text>}
      {list.isSuccess && rows.length > 0 && <Text size="sm" aria-live="polite">{totalOf(total, list.data.count_exact, 'delivery', 'deliveries')}</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Delivery pages" />}
    </Stack>
  );
}
