import { Badge, Button, Table, Text } from '@mantine/core';
import { ScrollTable } from '../../components/ScrollTable';
import { addedBy, SOURCE_LABEL, type Suppression } from './model';
import { useFormat } from '../../format/useFormat';

const SOURCE_COLOR = { manual: 'blue', import: 'cyan', opt_out: 'orange', integration: 'grape' } as const;

/** One page of the do-not-call list; the Remove button only when the viewer may remove (the owner). */
export function SuppressionsTable({ rows, onRemove }: { rows: Suppression[]; onRemove?: (s: Suppression) => void }) {
  const { time: when } = useFormat();
  const now = Date.now();
  return (
    <ScrollTable label="Do-not-call list table" minWidth={onRemove ? 860 : 760}>
      <Table striped highlightOnHover aria-label="Do-not-call list">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Number</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Source</Table.Th>
            <Table.Th>Added by</Table.Th>
            <Table.Th>Added at</Table.Th>
            <Table.Th>Expires</Table.Th>
            {onRemove && <Table.Th>Actions</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((s) => {
            const expired = !!s.expires_at && new Date(s.expires_at).getTime() <= now;
            return (
              <Table.Tr key={s.id}>
                <Table.Td>{s.phone_number}</Table.Td>
                <Table.Td>{s.reason ?? ''}{s.call_id ? <Text size="xs" c="dimmed">Call {s.call_id}</Text> : null}</Table.Td>
                <Table.Td><Badge variant="light" color={SOURCE_COLOR[s.source]}>{SOURCE_LABEL[s.source]}</Badge></Table.Td>
                <Table.Td>{addedBy(s)}</Table.Td>
                <Table.Td>{when(s.created_at)}</Table.Td>
                <Table.Td>{s.expires_at ? `${when(s.expires_at)}${expired ? ' (expired)' : ''}` : 'Never'}</Table.Td>
                {onRemove && (
                  <Table.Td>
                    <Button size="xs" variant="default" color="red" onClick={() => onRemove(s)} aria-label={`Remove ${s.phone_number}`}>Remove</Button>
                  </Table.Td>
                )}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
