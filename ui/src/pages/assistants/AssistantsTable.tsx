import { Badge, Button, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
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

function Actions({ a, canWrite, onOpen, onDelete }: { a: Assistant } & Pick<Props, 'canWrite' | 'onOpen' | 'onDelete'>) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={() => onOpen(a)} aria-label={`${canWrite ? 'Edit' : 'View'} ${a.name}`}>{canWrite ? 'Edit' : 'View'}</Button>
      {canWrite && <Button size="xs" variant="subtle" color="red" onClick={() => onDelete(a)} aria-label={`Delete ${a.name}`}>Delete</Button>}
    </Group>
  );
}

/** At phone width a card per assistant keeps its actions in view (a table would hide them off to the side). */
function Cards({ rows, connections, ...actions }: Props) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Assistants">
      {rows.map((a) => (
        <Paper component="li" key={a.id} withBorder p="sm">
          <Group justify="space-between" wrap="nowrap" align="start">
            <Text fw={600}>{a.name}</Text>
            <Badge variant="light" color={a.provider === 'sim' ? 'gray' : 'blue'} style={{ flexShrink: 0 }}>{providerLabel(a.provider)}</Badge>
          </Group>
          {a.provider !== 'sim' && <Text size="sm">Connection: {connectionName(a.voice_connection_id, connections)}</Text>}
          <Text size="sm">Voicemail: {a.voicemail_action === 'leave_message' ? 'leave a message' : 'hang up'}; {a.action_status_rules.length} rule(s)</Text>
          <Group mt="xs"><Actions a={a} {...actions} /></Group>
        </Paper>
      ))}
    </Stack>
  );
}

/** One page of assistants; an owner edits and deletes, a sub-user only views. */
export function AssistantsTable(props: Props) {
  const narrow = useMediaQuery('(max-width: 40em)');
  const { rows, connections, canWrite, onOpen, onDelete } = props;
  if (narrow) return <Cards {...props} />;
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
                <Actions a={a} canWrite={canWrite} onOpen={onOpen} onDelete={onDelete} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
