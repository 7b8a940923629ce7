import { Button, Group, PasswordInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useSaveSipTrunk, type SipTrunk } from './queries';

const FIELDS = ['name', 'username', 'password', 'gateways', 'caller_ids'];
interface Values { name: string; username: string; password: string; gateways: string; caller_ids: string }

/** One entry a line (or comma separated), blanks dropped. */
const lines = (s: string) => s.split(/[\n,]/).map((x) => x.trim()).filter(Boolean);

/**
 * A new SIP trunk or a change of one. The password is write-only: never filled from the stored
 * (masked) value; left empty on edit = kept. The API's 422 messages appear under their fields.
 */
export function SipTrunkForm({ trunk, onDone }: { trunk: SipTrunk | null; onDone: () => void }) {
  const editing = trunk !== null;
  const form = useForm<Values>({
    initialValues: { name: trunk?.name ?? '', username: trunk?.username ?? '', password: '', gateways: (trunk?.gateways ?? []).join('\n'), caller_ids: (trunk?.caller_ids ?? []).join('\n') },
  });
  const save = useSaveSipTrunk();
  const submit = (v: Values) => {
    const body = {
      name: v.name, username: v.username.trim() || null, gateways: lines(v.gateways), caller_ids: lines(v.caller_ids),
      ...(v.password || !editing ? { password: v.password || null } : {}),
    };
    save.mutate(trunk ? { id: trunk.id, body } : { body }, { onSuccess: onDone });
  };
  const err = (field: string) => fieldError(save.error, field);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && (!problem || !problem.fields.some((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  return (
    <form onSubmit={form.onSubmit(submit)}>
      <Stack>
        <TextInput label="Name" required {...form.getInputProps('name')} error={err('name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Username" description="Digest auth; empty when the trunk authenticates by IP" autoComplete="off" {...form.getInputProps('username')} error={err('username')} />
          <PasswordInput label="Password" autoComplete="new-password"
            description={editing ? 'Stored sealed and shown masked. Empty: keep the stored value.' : 'Stored sealed and shown masked; it cannot be read back.'}
            placeholder={trunk?.password ?? undefined} {...form.getInputProps('password')} error={err('password')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Textarea label="Caller IDs" description="The numbers the trunk owns, one a line (E.164)" autosize minRows={2} {...form.getInputProps('caller_ids')} error={err('caller_ids')} />
          <Textarea label="Gateways" description="host[:port] one a line, for vendors that register them (Vapi); empty = the campaign's SIP host" autosize minRows={2}
            {...form.getInputProps('gateways')} error={err('gateways')} />
        </SimpleGrid>
        {unplaced && <Problem error={save.error} />}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>{editing ? 'Save trunk' : 'Create trunk'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
