import { ActionIcon, Button, Code, Fieldset, Group, List, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { RECORDING, type Instruction } from './webhookValues';

/** The placeholders the API fills in (the URL and the AI instructions), from src/modules/webhooks/placeholders.ts. */
const PLACEHOLDERS: [string, string][] = [
  ['{{call.id}}', 'the call id'], ['{{call.from_number}}', 'caller number'], ['{{call.to_number}}', 'called number'],
  ['{{call.status}}', 'call status'], ['{{call.action_status}}', 'outcome'], ['{{call.call_duration}}', 'seconds'],
  ['{{call.start_time}}', 'start'], ['{{call.end_time}}', 'end'], ['{{call.record_url}}', 'recording link (sending waits for it)'],
  ['{{contact.id}}', 'contact id'], ['{{contact.phone_number}}', 'contact number'], ['{{contact_data.KEY}}', 'any key of the contact data'],
];

export function PlaceholderHelp() {
  return (
    <Text component="div" size="xs" c="dimmed">
      Placeholders (in the URL, URL-encoded, and in instructions):
      <List size="xs" spacing={0} mt={2}>
        {PLACEHOLDERS.map(([p, what]) => <List.Item key={p}><Code>{p}</Code> {what}</List.Item>)}
      </List>
    </Text>
  );
}

/** The API's 422 for one instruction (loc body.instructions.<field>), or for the whole object. */
const instructionError = (error: unknown, field: string | null) =>
  (error instanceof ApiProblem ? error : null)?.fields.find((f) => f.loc[0] === 'body' && f.loc[1] === 'instructions' && (field === null ? f.loc.length === 2 : f.loc[2] === field))?.msg;

const withRecording = (rule: string, on: boolean) =>
  on ? `${rule.trim()}${rule.trim() ? ' ' : ''}Recording: ${RECORDING}` : rule.split(RECORDING).join('').replace(/\s*Recording:\s*$/, '').trim();

type Props = { value: Instruction[]; onChange: (v: Instruction[]) => void; error: unknown };

/**
 * AI instructions per payload field, with the recording rule: an instruction that uses
 * {{call.record_url}} makes the send wait (up to 20 s) for the recording; fields named record_url,
 * call_link or recording_url always carry the recording link, set from the call.
 */
export function InstructionsField({ value, onChange, error }: Props) {
  const set = (i: number, patch: Partial<Instruction>) => onChange(value.map((row, j) => (j === i ? { ...row, ...patch } : row)));
  return (
    <Fieldset legend="AI instructions per field" variant="unstyled">
      <Stack gap="xs">
        <Text size="xs" c="dimmed">
          How the assistant fills a payload field. Fields named record_url, call_link or recording_url always carry the recording link.
          “Wait for the recording” puts {RECORDING} in the rule: sending then waits up to 20 s for the recording.
        </Text>
        {instructionError(error, null) && <Text size="sm" c="red.8" role="alert">{instructionError(error, null)}</Text>}
        {value.map((row, i) => {
          const n = i + 1;
          return (
            <Group key={i} align="start" wrap="wrap" gap="xs">
              <TextInput label={`Field ${n}`} value={row.field} onChange={(e) => set(i, { field: e.currentTarget.value })} w={160} />
              <Textarea label={`Instruction ${n}`} value={row.rule} onChange={(e) => set(i, { rule: e.currentTarget.value })} autosize minRows={1}
                style={{ flex: 1, minWidth: 200 }} error={instructionError(error, row.field.trim())} />
              <Stack gap={4} mt={26}>
                <Switch size="xs" label="Wait for the recording" checked={row.rule.includes(RECORDING)}
                  onChange={(e) => set(i, { rule: withRecording(row.rule, e.currentTarget.checked) })} aria-label={`Instruction ${n}: wait for the recording`} />
                <ActionIcon variant="subtle" color="red" onClick={() => onChange(value.filter((_, j) => j !== i))} aria-label={`Remove instruction ${n}`}>×</ActionIcon>
              </Stack>
            </Group>
          );
        })}
        <Group>
          <Button size="xs" variant="default" onClick={() => onChange([...value, { field: '', rule: '' }])}>Add instruction</Button>
        </Group>
      </Stack>
    </Fieldset>
  );
}
