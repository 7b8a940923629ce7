import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { ConnectionSelect } from './ConnectionSelect';
import { FIELDS, PLACEHOLDER_HELP, PROVIDERS, toBody, toValues, type Assistant, type FormValues } from './model';
import { useSaveAssistant } from './queries';
import { RulesEditor } from './RulesEditor';

interface Props {
  /** null: a new assistant. */
  assistant: Assistant | null;
  onDone: (saved: Assistant) => void;
}

const VOICEMAIL = [
  { value: 'hang_up', label: 'Hang up' },
  { value: 'leave_message', label: 'Leave a message' },
];

/** Every field of an assistant (the owner's; a sub-user sees AssistantDetails); the API's 422 messages appear under the field (or rule) they name. */
export function AssistantForm({ assistant, onDone }: Props) {
  const form = useForm<FormValues>({ initialValues: toValues(assistant) });
  const save = useSaveAssistant();
  const submit = (v: FormValues) => save.mutate({ id: assistant?.id, body: toBody(v) }, { onSuccess: onDone });
  const err = (field: string) => fieldError(save.error, field);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && (!problem || !problem.fields.some((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const v = form.values;
  const template = (field: 'first_message' | 'system_prompt' | 'voicemail_message', label: string, rows: number, required = false) => (
    <Textarea label={label} required={required} autosize minRows={rows} maxRows={12} description={PLACEHOLDER_HELP}
      {...form.getInputProps(field)} error={err(field)} />
  );
  return (
    <form onSubmit={form.onSubmit(submit)}>
      <Stack>
        <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label="Provider" data={PROVIDERS} allowDeselect={false} {...form.getInputProps('provider')} error={err('provider')}
            onChange={(p) => { form.setFieldValue('provider', (p ?? 'sim') as FormValues['provider']); form.setFieldValue('voice_connection_id', null); }} />
          <TextInput label="Provider assistant id" description="The vendor's own assistant (Vapi) or agent (Retell) id; empty: an inline assistant built from this form"
            {...form.getInputProps('provider_assistant_id')} error={err('provider_assistant_id')} />
        </SimpleGrid>
        {v.provider !== 'sim' && (
          <ConnectionSelect provider={v.provider} canList value={v.voice_connection_id}
            onChange={(c) => form.setFieldValue('voice_connection_id', c)} error={err('voice_connection_id')} />
        )}
        {template('first_message', 'First message', 2)}
        {template('system_prompt', 'System prompt', 4)}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Voice" description="The vendor's voice id" {...form.getInputProps('voice')} error={err('voice')} />
          <TextInput label="Language" description="BCP 47, e.g. en-US" {...form.getInputProps('language')} error={err('language')} />
          <TextInput label="Model" description="e.g. gpt-4o" {...form.getInputProps('model')} error={err('model')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label="Voicemail" data={VOICEMAIL} allowDeselect={false} {...form.getInputProps('voicemail_action')} error={err('voicemail_action')} />
          <NumberInput label="Max duration (seconds)" description="10 to 7200; empty: the vendor's default" min={10} max={7200} allowDecimal={false}
            {...form.getInputProps('max_duration_seconds')} error={err('max_duration_seconds')} />
        </SimpleGrid>
        {v.voicemail_action === 'leave_message' && template('voicemail_message', 'Voicemail message', 2, true)}
        <TextInput label="Transfer number" description="Where the assistant may transfer the call; saved in E.164" {...form.getInputProps('transfer_number')} error={err('transfer_number')} />
        <RulesEditor rules={v.rules} onChange={(rules) => form.setFieldValue('rules', rules)} error={save.error} />
        {unplaced && <Problem error={save.error} />}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{assistant ? 'Save assistant' : 'Create assistant'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
