import { useState } from 'react';
import { Badge, Button, Group, Modal, MultiSelect, PasswordInput, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiProblem, fieldError, must } from '../../api/client';
import { Problem } from '../../components/Problem';

type SubUser = { id: number; username: string; full_name: string | null; email: string | null; is_active: boolean };

/** The owner's sub-users and the campaigns each may see (owners only: the API answers 403 to a sub-user). */
export function SubUsers() {
  const [creating, setCreating] = useState(false);
  const list = useQuery({ queryKey: ['sub-users'], queryFn: () => must(api.GET('/api/v1/sub-users/', { params: { query: { limit: 100 } } })) });
  const rows = ((list.data as { data?: SubUser[] } | undefined)?.data ?? []) as SubUser[];
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

function useCampaignOptions() {
  const campaigns = useQuery({ queryKey: ['campaign-options'], queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { limit: 100 } } })) });
  return ((campaigns.data as { data?: { id: number; title: string }[] } | undefined)?.data ?? []).map((c) => ({ value: String(c.id), label: c.title }));
}

function SubUserRow({ user }: { user: SubUser }) {
  const client = useQueryClient();
  const options = useCampaignOptions();
  const granted = useQuery({
    queryKey: ['sub-user-campaigns', user.id],
    queryFn: () => must(api.GET('/api/v1/sub-users/{id}/campaigns', { params: { path: { id: user.id } } })),
  });
  const ids = ((granted.data as { data?: { id: number }[] } | undefined)?.data ?? []).map((c) => String(c.id));
  // A change of the selection is one grant or one withdrawal.
  const change = useMutation({
    mutationFn: async (next: string[]) => {
      for (const id of next.filter((v) => !ids.includes(v))) await must(api.POST('/api/v1/sub-users/{id}/campaigns/{campaign_id}', { params: { path: { id: user.id, campaign_id: Number(id) } } }));
      for (const id of ids.filter((v) => !next.includes(v))) await must(api.DELETE('/api/v1/sub-users/{id}/campaigns/{campaign_id}', { params: { path: { id: user.id, campaign_id: Number(id) } } }));
    },
    onSettled: () => client.invalidateQueries({ queryKey: ['sub-user-campaigns', user.id] }),
  });
  return (
    <Table.Tr>
      <Table.Td>{user.username}</Table.Td>
      <Table.Td>{user.email}</Table.Td>
      <Table.Td><Badge color={user.is_active ? 'teal' : 'gray'}>{user.is_active ? 'active' : 'inactive'}</Badge></Table.Td>
      <Table.Td miw={260}>
        <MultiSelect label={`Campaigns of ${user.username}`} data={options} value={ids} onChange={(next) => change.mutate(next)} searchable
          disabled={granted.isPending || change.isPending} error={change.error?.message} />
      </Table.Td>
    </Table.Tr>
  );
}

function SubUserForm({ onDone }: { onDone: () => void }) {
  const client = useQueryClient();
  const [values, setValues] = useState({ username: '', email: '', full_name: '', password: '' });
  const create = useMutation({
    mutationFn: () => must(api.POST('/api/v1/sub-users/', { body: { username: values.username, password: values.password, ...(values.email && { email: values.email }), ...(values.full_name && { full_name: values.full_name }) } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['sub-users'] });
      onDone();
    },
  });
  const set = (field: keyof typeof values) => (e: React.ChangeEvent<HTMLInputElement>) => setValues({ ...values, [field]: e.currentTarget.value });
  return (
    <form onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
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
