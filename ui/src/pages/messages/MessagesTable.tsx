import { Anchor, Badge, Table, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ScrollTable } from '../../components/ScrollTable';
import { useFormat } from '../../format/useFormat';
import type { TextMessage } from './queries';

/** Status colours: the states a person waits for in green, the failures in red. */
export const MESSAGE_STATUS_COLOR: Record<string, string> = {
  delivered: 'green', read: 'green', received: 'blue', sent: 'teal', queued: 'gray', sending: 'gray', undelivered: 'red', failed: 'red',
};

/** One page of texts, newest first; a failed text shows its error in plain words. */
export function MessagesTable({ rows }: { rows: TextMessage[] }) {
  const f = useFormat();
  return (
    <ScrollTable label="Messages table" minWidth={900}>
      <Table striped aria-label="Messages">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th><Table.Th>Contact</Table.Th><Table.Th>Direction</Table.Th><Table.Th>Channel</Table.Th>
            <Table.Th>Purpose</Table.Th><Table.Th>Status</Table.Th><Table.Th>Text</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((m) => {
            const d = m.message_data;
            const number = d.direction === 'inbound' ? d.from_number : d.to_number;
            return (
              <Table.Tr key={m.id} data-message-id={m.id}>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{f.time(m.create_datetime)}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}><Anchor component={Link} to={`/contacts/${m.contact_id}`}>{number || `Contact ${m.contact_id}`}</Anchor></Table.Td>
                <Table.Td>{d.direction === 'inbound' ? 'Received' : 'Sent'}</Table.Td>
                <Table.Td>{f.channel(m.source)}</Table.Td>
                <Table.Td>{f.messagePurpose(d.purpose)}</Table.Td>
                <Table.Td>
                  <Badge variant="light" color={MESSAGE_STATUS_COLOR[d.status] ?? 'gray'}>{f.messageStatus(d.status)}</Badge>
                  {d.error_words && <Text size="xs" c="red.9">{d.error_words}</Text>}
                </Table.Td>
                <Table.Td style={{ maxWidth: 420 }}><Text size="sm" lineClamp={3}>{m.message}</Text></Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
