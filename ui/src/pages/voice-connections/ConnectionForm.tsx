import { Button, Group, NumberInput, PasswordInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { VENDORS, type ConnectionUpdate, type Vendor, type VoiceConnection } from './model';
import { useSaveVoiceConnection } from './queries';

const FIELDS = ['name', 'provider', 'api_key', 'account_sid', 'webhook_secret', 'phone_number_id', 'agent_id', 'from_number', 'max_concurrent_calls', 'calls_per_second'];

interface Values {
  name: string;
  provider: Vendor;
  api_key: string;
  account_sid: string;
  webhook_secret: string;
  phone_number_id: string;
  agent_id: string;
  from_number: string;
  max_concurrent_calls: number | string;
  calls_per_second: number | string;
}

const orNull = (s: string) => (s.trim() === '' ? null : s.trim());
const numOrNull = (n: number | string) => (n === '' ? null : Number(n));

/**
 * The settings a vendor takes (a field of the other vendor is the API's 422, so it is not shown).
 * Secrets are write-only: never filled from the stored (masked) value; left empty on edit = kept.
 */
function body(v: Values, editing: boolean): ConnectionUpdate {
  const vapi = v.provider === 'vapi';
  return {
    name: v.name,
    ...(v.api_key || !editing ? { api_key: v.api_key } : {}),
    ...(vapi && (v.webhook_secret || !editing) ? { webhook_secret: orNull(v.webhook_secret) } : {}),
    ...(vapi ? { phone_number_id: orNull(v.phone_number_id) }
      : v.provider === 'twilio' ? { account_sid: orNull(v.account_sid), from_number: orNull(v.from_number) }
      : { agent_id: orNull(v.agent_id), from_number: orNull(v.from_number) }),
    max_concurrent_calls: numOrNull(v.max_concurrent_calls),
    calls_per_second: numOrNull(v.calls_per_second),
  };
}

/** A new voice connection, or a change of one; the API's 422 messages appear under their fields. */
export function ConnectionForm({ connection, onDone }: { connection: VoiceConnection | null; onDone: () => void }) {
  const editing = connection !== null;
  const form = useForm<Values>({
    initialValues: {
      name: connection?.name ?? '', provider: connection?.provider ?? 'vapi', api_key: '', account_sid: connection?.account_sid ?? '', webhook_secret: '',
      phone_number_id: connection?.phone_number_id ?? '', agent_id: connection?.agent_id ?? '', from_number: connection?.from_number ?? '',
      max_concurrent_calls: connection?.max_concurrent_calls ?? '', calls_per_second: connection?.calls_per_second ?? '',
    },
  });
  const save = useSaveVoiceConnection();
  const submit = (v: Values) => save.mutate(connection
    ? { id: connection.id, body: body(v, true) }
    : { body: { ...body(v, false), name: v.name, provider: v.provider, api_key: v.api_key } }, { onSuccess: onDone });
  const err = (field: string) => fieldError(save.error, field);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && (!problem || !problem.fields.some((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const vapi = form.values.provider === 'vapi';
  const twilio = form.values.provider === 'twilio';
  const keep = editing ? 'Stored sealed and shown masked. Empty: keep the stored value.' : 'Stored sealed and shown masked; it cannot be read back.';
  return (
    <form onSubmit={form.onSubmit(submit)}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
          <Select label="Provider" data={VENDORS} allowDeselect={false} disabled={editing} description={editing ? 'Fixed once created' : undefined}
            {...form.getInputProps('provider')} error={err('provider')} />
        </SimpleGrid>
        <PasswordInput label="API key" required={!editing} autoComplete="new-password" description={`${twilio ? 'The Twilio auth token.' : 'The vendor\'s private API key.'} ${keep}`}
          placeholder={connection?.api_key} {...form.getInputProps('api_key')} error={err('api_key')} />
        {vapi && (
          <>
            <PasswordInput label="Server secret" required={!editing} autoComplete="new-password"
              description={`The secret Vapi sends in X-Vapi-Secret (its Server URL Secret). ${keep}`}
              placeholder={connection?.webhook_secret ?? undefined} {...form.getInputProps('webhook_secret')} error={err('webhook_secret')} />
            <TextInput label="Phone number id" description="The Vapi phoneNumberId calls go out from when the campaign's number has none"
              {...form.getInputProps('phone_number_id')} error={err('phone_number_id')} />
          </>
        )}
        {twilio && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Account SID" required placeholder="AC…" description="The Twilio account calls are placed under" {...form.getInputProps('account_sid')} error={err('account_sid')} />
            <TextInput label="From number" description="Calls go out from it when the campaign has none; saved in E.164" {...form.getInputProps('from_number')} error={err('from_number')} />
          </SimpleGrid>
        )}
        {!vapi && !twilio && (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Agent id" description="The agent of calls whose assistant names none" {...form.getInputProps('agent_id')} error={err('agent_id')} />
            <TextInput label="From number" description="Calls go out from it when the campaign has none; saved in E.164" {...form.getInputProps('from_number')} error={err('from_number')} />
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput label="Max concurrent calls" min={0} max={100000} allowDecimal={false}
            description={`Calls in progress at once; 0 = no cap; empty = the vendor's default (${vapi ? 'Vapi 10' : twilio ? 'Twilio: none' : 'Retell 20'})`}
            {...form.getInputProps('max_concurrent_calls')} error={err('max_concurrent_calls')} />
          <NumberInput label="Calls per second" min={0} max={1000} decimalScale={3} description={`Calls started per second; empty = the default (${twilio ? 'Twilio 1' : '5'})`}
            {...form.getInputProps('calls_per_second')} error={err('calls_per_second')} />
        </SimpleGrid>
        {unplaced && <Problem error={save.error} />}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{editing ? 'Save connection' : 'Create connection'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
