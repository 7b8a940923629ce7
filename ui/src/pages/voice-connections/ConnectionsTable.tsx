import { Button, Code, CopyButton, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { ScrollTable } from '../../components/ScrollTable';
import { VENDORS, type VoiceConnection } from './model';

const vendorLabel = (p: string) => VENDORS.find((v) => v.value === p)?.label ?? p;

/** The URL the owner pastes into the vendor's dashboard, with a copy button; null while PUBLIC_BASE_URL is unset. */
function EventsUrl({ c }: { c: VoiceConnection }) {
  if (!c.events_url) return <Text size="sm" c="dimmed">Not available: the service's PUBLIC_BASE_URL is not set.</Text>;
  return (
    <Stack gap={4} align="flex-start">
      <Code style={{ wordBreak: 'break-all' }}>{c.events_url}</Code>
      <CopyButton value={c.events_url}>
        {({ copied, copy }) => <Button size="compact-xs" variant="default" onClick={copy} aria-label={`Copy events URL of ${c.name}`}>{copied ? 'Copied' : 'Copy'}</Button>}
      </CopyButton>
    </Stack>
  );
}

interface Props {
  rows: VoiceConnection[];
  onEdit: (c: VoiceConnection) => void;
  onDelete: (c: VoiceConnection) => void;
}

const pacing = (c: VoiceConnection) =>
  `${c.max_concurrent_calls === null ? 'default' : c.max_concurrent_calls === 0 ? 'no cap' : c.max_concurrent_calls} at once, ${c.calls_per_second ?? 'default'} per second`;

function Actions({ c, onEdit, onDelete }: { c: VoiceConnection } & Omit<Props, 'rows'>) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={() => onEdit(c)} aria-label={`Edit ${c.name}`}>Edit</Button>
      <Button size="xs" variant="subtle" color="red" onClick={() => onDelete(c)} aria-label={`Delete ${c.name}`}>Delete</Button>
    </Group>
  );
}

/** At phone width a card per connection keeps the events URL and the actions in view. */
function Cards({ rows, ...actions }: Props) {
  return (
    <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Voice connections">
      {rows.map((c) => (
        <Paper component="li" key={c.id} withBorder p="sm">
          <Stack gap={4}>
            <Text fw={600}>{c.name} · {vendorLabel(c.provider)}</Text>
            <Text size="sm">API key <Code>{c.api_key}</Code>{c.webhook_secret && <> · secret <Code>{c.webhook_secret}</Code></>}</Text>
            <Text size="sm">Pacing: {pacing(c)}</Text>
            <Text size="sm">Events URL</Text>
            <EventsUrl c={c} />
            <Group mt="xs"><Actions c={c} {...actions} /></Group>
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** One page of connections; secrets only as the API masks them. */
export function ConnectionsTable(props: Props) {
  const narrow = useMediaQuery('(max-width: 40em)');
  const { rows, onEdit, onDelete } = props;
  if (narrow) return <Cards {...props} />;
  return (
    <ScrollTable label="Voice connections table" minWidth={860}>
      <Table aria-label="Voice connections" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th><Table.Th>Provider</Table.Th><Table.Th>API key</Table.Th><Table.Th>Server secret</Table.Th>
            <Table.Th>Events URL</Table.Th><Table.Th>Pacing</Table.Th><Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{vendorLabel(c.provider)}</Table.Td>
              <Table.Td><Code>{c.api_key}</Code></Table.Td>
              <Table.Td>{c.webhook_secret ? <Code>{c.webhook_secret}</Code> : '—'}</Table.Td>
              <Table.Td maw={320}><EventsUrl c={c} /></Table.Td>
              <Table.Td>
                <Text size="sm">{pacing(c)}</Text>
              </Table.Td>
              <Table.Td>
                <Actions c={c} onEdit={onEdit} onDelete={onDelete} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
