import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiProblem, fieldError, must } from '../../api/client';
import { Problem } from '../../components/Problem';

type Key = { id: number; name?: string | null; created_at?: string | null; last_used_at?: string | null };

/** The profile's API keys: a new key is shown once, with a copy button; deleting asks first. */
export function ApiKeys() {
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Key | null>(null);
  const keys = useQuery({ queryKey: ['api-keys'], queryFn: () => must(api.GET('/api/v1/api-keys/')) });
  const create = useMutation({
    mutationFn: () => must(api.POST('/api/v1/api-keys/', { body: { name } })),
    onSuccess: (created) => {
      setShown((created as { key: string }).key);
      setName('');
      void client.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => must(api.DELETE('/api/v1/api-keys/{id}', { params: { path: { id } } })),
    onSuccess: () => {
      setDeleting(null);
      void client.invalidateQueries({ queryKey: ['api-keys'] });
    },
  });
  const data = keys.data as { data?: Key[] } | Key[] | undefined;
  const rows = (Array.isArray(data) ? data : data?.data ?? []) as Key[];
  return (
    <Stack>
      <form onSubmit={(e) => { e.preventDefault(); create.mutate(); }}>
        <Group align="end">
          <TextInput label="Key name" value={name} onChange={(e) => setName(e.currentTarget.value)} required error={fieldError(create.error, 'name')} />
          <Button type="submit" loading={create.isPending}>Create key</Button>
        </Group>
      </form>
      {shown && (
        <Alert title="Your new API key" color="green" withCloseButton onClose={() => setShown(null)}>
          <Stack gap="xs">
            <Text size="sm">Copy it now: it is shown only once.</Text>
            <Group>
              <Code>{shown}</Code>
              <CopyButton value={shown}>{({ copied, copy }) => <Button size="xs" onClick={copy}>{copied ? 'Copied' : 'Copy key'}</Button>}</CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <Problem error={keys.error ?? remove.error} />
      <Table aria-label="API keys">
        <Table.Thead>
          <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Created</Table.Th><Table.Th>Last used</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((k) => (
            <Table.Tr key={k.id}>
              <Table.Td>{k.name}</Table.Td>
              <Table.Td>{k.created_at ? new Date(k.created_at).toLocaleString() : ''}</Table.Td>
              <Table.Td>{k.last_used_at ? new Date(k.last_used_at).toLocaleString() : 'never'}</Table.Td>
              <Table.Td><Button size="xs" color="red" variant="light" onClick={() => setDeleting(k)} aria-label={`Delete key ${k.name ?? k.id}`}>Delete</Button></Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete this API key?">
        <Stack>
          <Text>Integrations using “{deleting?.name}” stop working at once.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id)}>Delete key</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
