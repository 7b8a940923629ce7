import { Code, List, Table, Text } from '@mantine/core';
import type { VoiceConnection } from '../voice-connections/model';
import { MATCHES, providerLabel, ruleToValues, type Assistant } from './model';

const none = <Text span c="dimmed" size="sm">not set</Text>;
const show = (value: string | number | null) => (value === null || value === '' ? none : <Text span size="sm" style={{ whiteSpace: 'pre-wrap' }}>{value}</Text>);

/** Every setting as text, for a sub-user (it reads assistants but may not change them): legible, unlike disabled inputs. */
export function AssistantDetails({ assistant: a, connections }: { assistant: Assistant; connections: Map<number, VoiceConnection> }) {
  const rows: [string, React.ReactNode][] = [
    ['Name', show(a.name)],
    ['Provider', show(providerLabel(a.provider))],
    ['Provider assistant id', show(a.provider_assistant_id)],
    ['Voice connection', a.voice_connection_id === null ? show('Service default') : show(connections.get(a.voice_connection_id)?.name ?? `Connection #${a.voice_connection_id}`)],
    ['First message', show(a.first_message)],
    ['System prompt', show(a.system_prompt)],
    ['Voice', show(a.voice)],
    ['Language', show(a.language)],
    ['Model', show(a.model)],
    ['Voicemail', show(a.voicemail_action === 'leave_message' ? 'Leave a message' : 'Hang up')],
    ['Voicemail message', show(a.voicemail_message)],
    ['Max duration (seconds)', show(a.max_duration_seconds)],
    ['Transfer number', show(a.transfer_number)],
  ];
  return (
    <Table aria-label={`Settings of ${a.name}`} layout="fixed" variant="vertical" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}><Table.Th w={{ base: 120, sm: 200 }}>{label}</Table.Th><Table.Td>{value}</Table.Td></Table.Tr>
        ))}
        <Table.Tr>
          <Table.Th>Action status rules</Table.Th>
          <Table.Td>
            {a.action_status_rules.length === 0 ? none : (
              <List type="ordered" size="sm">
                {a.action_status_rules.map((r, i) => {
                  const v = ruleToValues(r);
                  const match = MATCHES.find((m) => m.value === v.match)?.label ?? v.match;
                  return <List.Item key={i}><Code>{r.path}</Code> {match}{v.match === 'truthy' ? '' : ` ${v.value}`} → {r.action_status}</List.Item>;
                })}
              </List>
            )}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}
