import { useState } from 'react';
import { Badge, Button, Group, Modal, MultiSelect, PasswordInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useGrantableCampaigns } from '../campaigns/queries';
import { type SubUser, useChangeGrants, useCreateSubUser, useGrants, useSubUsers } from './queries';

/** The owner's sub-users and the campaigns each may see (owners only: the API answers 403 to a sub-user). */
export function SubUsers() {
  const [creating, setCreating] = useState(false);
  const list = useSubUsers();
  const rows = list.data?.data ?? [];
  return (
    <Stack>
      <Group justify="flex-end">
        <Button onClick={() => setCreating(true)}>New sub-user</Button>
      </Group>
      <Text size="sm">A sub-user sees and works only on the campaigns granted to it, and cannot approve prompts or manage keys, numbers or integrations.</Text>
      <Problem error={list.error} />
      <Table aria-label="Sub-users">
        <Table.Thead>
          <Table.Tr><Table.Th>Username</Table.Th><Table.Th>E-mail</Table.Th><Table.Th>State</Table.Th><Table.Th>Campaigns granted</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>{rows.map((u) => <SubUserRow key={u.id} user={u} />)}</Table.Tbody>
      </Table>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No sub-users yet.</Text>}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New sub-user">
        <SubUserForm onDone={() => setCreating(false)} />
      </Modal>
    </Stack>
  );
}

function SubUserRow({ user }: { user: SubUser }) {
  const options = useGrantableCampaigns();
  const granted = useGrants(user.id);
  const ids = (granted.data?.data ?? []).map((c) => String(c.id));
  // A change of the selection is one grant or one withdrawal.
  const change = useChangeGrants(user.id);
  return (
    <Table.Tr>
      <Table.Td>{user.username}</Table.Td>
      <Table.Td>{user.email}</Table.Td>
      <Table.Td><Badge color={user.is_active ? 'teal' : 'gray'}>{user.is_active ? 'active' : 'inactive'}</Badge></Table.Td>
      <Table.Td miw={260}>
        <MultiSelect label={`Campaigns of ${user.username}`} data={options} value={ids} onChange={(next) => change.mutate({ granted: ids.map(Number), next: next.map(Number) })} searchable
          disabled={granted.isPending || change.isPending} error={change.error?.message} />
      </Table.Td>
    </Table.Tr>
  );
}

function SubUserForm({ onDone }: { onDone: () => void }) {
  const [values, setValues] = useState({ username: '', email: '', full_name: '', password: '' });
  const create = useCreateSubUser();
  const submit = () => create.mutate(
    { username: values.username, password: values.password, ...(values.email && { email: values.email }), ...(values.full_name && { full_name: values.full_name }) },
    { onSuccess: onDone },
  );
  const set = (field: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [field]: e.currentTarget.value });
  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Stack>
        <TextInput label="Username" value={values.username} onChange={set('username')} error={fieldError(create.error, 'username')} />
        <TextInput label="E-mail" value={values.email} onChange={set('email')} error={fieldError(create.error, 'email')} />
        <TextInput label="Full name" value={values.full_name} onChange={set('full_name')} error={fieldError(create.error, 'full_name')} />
        <PasswordInput label="Password" value={values.password} onChange={set('password')} error={fieldError(create.error, 'password')} />
        {create.error instanceof ApiProblem && create.error.fields.length === 0 && <Problem error={create.error} />}
        <Button type="submit" loading={create.isPending}>Create sub-user</Button>
      </Stack>
    </form>
  );
}
