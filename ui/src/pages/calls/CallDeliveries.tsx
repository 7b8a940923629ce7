import { Badge, Code, Stack, Table, Text, Title } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { Problem } from '../../components/Problem';
import { ScrollTable } from '../../components/ScrollTable';
import { deliveryStatusLabel } from '../../format/statuses';
import { useCallDeliveries, type CallDelivery } from './queries';

/** The filter or rule that skipped a delivery, as the webhook form names it. */
const SKIPPED_BY: Record<NonNullable<CallDelivery['skipped_by']>, string> = {
  only_interested: 'Only interested calls',
  call_statuses: 'Call statuses',
  no_transcript: 'No transcript',
};

/**
 * What the post-call webhooks did with this call: for each of the account's webhooks, its
 * deliveries of the call, with the payload extracted from the conversation as it was sent.
 */
export function CallDeliveries({ callId }: { callId: number }) {
  const deliveries = useCallDeliveries(callId);
  // A sub-user manages no webhooks (403): the section says so instead of failing.
  if (deliveries.error instanceof ApiProblem && deliveries.error.status === 403) return null;
  const rows = deliveries.data ?? [];
  return (
    <Stack gap="xs">
      <Title order={3}>Webhook deliveries</Title>
      <Problem error={deliveries.error} />
      {!deliveries.isPending && rows.length === 0 && <Text c="dimmed">No webhook delivery for this call.</Text>}
      {rows.length > 0 && (
        <ScrollTable label="Webhook deliveries table" minWidth={640}>
          <Table aria-label="Webhook deliveries">
            <Table.Thead>
              <Table.Tr><Table.Th>Webhook</Table.Th><Table.Th>Status</Table.Th><Table.Th>HTTP status</Table.Th><Table.Th>Payload sent</Table.Th></Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{d.webhook}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={d.status === 'skipped' ? 'gray' : undefined}>{deliveryStatusLabel(d.status)}</Badge>
                    {d.status === 'skipped' && d.skipped_by
                      ? <Text size="xs">Skipped: {SKIPPED_BY[d.skipped_by]} ({d.reason})</Text>
                      : d.reason ? <Text size="xs">{d.reason}</Text> : null}
                  </Table.Td>
                  <Table.Td>{d.http_status ?? '—'}</Table.Td>
                  <Table.Td>{d.payload ? <Code block>{JSON.stringify(d.payload, null, 2)}</Code> : <Text size="sm" c="dimmed">Nothing sent</Text>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
