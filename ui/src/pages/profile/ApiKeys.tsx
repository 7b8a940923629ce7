import { useState } from 'react';
import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { ScrollTable } from '../../components/ScrollTable';
import { useFormat } from '../../format/useFormat';
import { type ApiKey, useApiKeys, useCreateApiKey, useDeleteApiKey } from './queries';

/** The profile's API keys: a new key is shown once, with a copy button; deleting asks first. */
export function ApiKeys() {
  const f = useFormat();
  const [name, setName] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const createKey = () => create.mutate({ name }, {
    onSuccess: (created) => {
      setShown(created.key);
      setName('');
    },
  });
  const remove = useDeleteApiKey();
  const rows = keys.data ?? [];
  return (
    <Stack>
      <form onSubmit={(e) => { e.preventDefault(); createKey(); }}>
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
      <ScrollTable label="API keys table" minWidth={560}>
        <Table aria-label="API keys">
          <Table.Thead>
            <Table.Tr><Table.Th>Name</Table.Th><Table.Th>Created</Table.Th><Table.Th>Last used</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((k) => (
              <Table.Tr key={k.id}>
                <Table.Td>{k.name}</Table.Td>
                <Table.Td>{f.time(k.created_at)}</Table.Td>
                <Table.Td>{k.last_used_at ? f.time(k.last_used_at) : 'Never'}</Table.Td>
                <Table.Td><Button size="xs" color="red" variant="light" onClick={() => setDeleting(k)} aria-label={`Delete key ${k.name ?? k.id}`}>Delete</Button></Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete this API key?">
        <Stack>
          <Text>Integrations using “{deleting?.name}” stop working at once.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}>Delete key</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
