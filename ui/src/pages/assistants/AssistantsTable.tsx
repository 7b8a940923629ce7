import { Badge, Button, Group, Table, Text } from '@mantine/core';
import { ScrollTable } from '../../components/ScrollTable';
import type { VoiceConnection } from '../voice-connections/model';
import { providerLabel, type Assistant } from './model';

interface Props {
  rows: Assistant[];
  /** The owner's connections by id, for their names; empty for a sub-user (it cannot list them). */
  connections: Map<number, VoiceConnection>;
  canWrite: boolean;
  onOpen: (a: Assistant) => void;
  onDelete: (a: Assistant) => void;
}

const connectionName = (id: number | null, connections: Map<number, VoiceConnection>) =>
  id === null ? 'Service default' : connections.get(id)?.name ?? `Connection #${id}`;

/** One page of assistants; an owner edits and deletes, a sub-user only views. */
export function AssistantsTable({ rows, connections, canWrite, onOpen, onDelete }: Props) {
  return (
    <ScrollTable label="Assistants table" minWidth={760}>
      <Table aria-label="Assistants" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th><Table.Th>Provider</Table.Th><Table.Th>Voice connection</Table.Th><Table.Th>Voicemail</Table.Th>
            <Table.Th>Rules</Table.Th><Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td>{a.name}</Table.Td>
              <Table.Td><Badge variant="light" color={a.provider === 'sim' ? 'gray' : 'blue'}>{providerLabel(a.provider)}</Badge></Table.Td>
              <Table.Td>{a.provider === 'sim' ? '—' : connectionName(a.voice_connection_id, connections)}</Table.Td>
              <Table.Td>{a.voicemail_action === 'leave_message' ? 'Leave a message' : 'Hang up'}</Table.Td>
              <Table.Td><Text size="sm">{a.action_status_rules.length}</Text></Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button size="xs" variant="default" onClick={() => onOpen(a)} aria-label={`${canWrite ? 'Edit' : 'View'} ${a.name}`}>{canWrite ? 'Edit' : 'View'}</Button>
                  {canWrite && <Button size="xs" variant="subtle" color="red" onClick={() => onDelete(a)} aria-label={`Delete ${a.name}`}>Delete</Button>}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
