import { useState } from 'react';
import { Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Problem } from '../../components/Problem';
import { ScrollTable } from '../../components/ScrollTable';
import { SipTrunkForm } from './SipTrunkForm';
import { useDeleteSipTrunk, useSipTrunks, type SipTrunk } from './queries';

const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—');

/** The account's SIP trunks (issue 29), on the Voice connections page: owners only, like the page. */
export function SipTrunks() {
  const trunks = useSipTrunks();
  const [open, setOpen] = useState<SipTrunk | 'new' | null>(null);
  const [deleting, setDeleting] = useState<SipTrunk | null>(null);
  const remove = useDeleteSipTrunk();
  const narrow = useMediaQuery('(max-width: 48em)');
  const rows = trunks.data?.data ?? [];
  const editing = open === 'new' ? null : open;
  const closeDelete = () => { remove.reset(); setDeleting(null); };
  const actions = (t: SipTrunk) => (
    <Group gap="xs" wrap="nowrap">
      <Button size="xs" variant="default" onClick={() => setOpen(t)} aria-label={`Edit trunk ${t.name}`}>Edit</Button>
      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(t)} aria-label={`Delete trunk ${t.name}`}>Delete</Button>
    </Group>
  );
  return (
    <Stack component="section" aria-labelledby="sip-trunks-title">
      <Group justify="space-between">
        <Title order={3} id="sip-trunks-title">SIP trunks</Title>
        <Button variant="light" onClick={() => setOpen('new')}>New SIP trunk</Button>
      </Group>
      <Text size="sm">Your own carrier: the credentials and caller IDs of a trunk that campaigns send their calls through (the campaign's SIP field is the trunk's address).</Text>
      <Problem error={trunks.error} />
      {narrow ? rows.map((t) => (
        <Paper key={t.id} withBorder p="sm">
          <Stack gap={4}>
            <Text fw={600}>{t.name}</Text>
            <Text size="sm">User {t.username ?? '—'} · password {t.password ?? '—'}</Text>
            <Text size="sm">Caller IDs: {list(t.caller_ids)}</Text>
            <Text size="sm">Gateways: {list(t.gateways)}</Text>
            {actions(t)}
          </Stack>
        </Paper>
      )) : rows.length > 0 && (
        <ScrollTable label="SIP trunk list" minWidth={760}>
          <Table>
            <Table.Thead><Table.Tr><Table.Th>Name</Table.Th><Table.Th>Username</Table.Th><Table.Th>Password</Table.Th><Table.Th>Caller IDs</Table.Th><Table.Th>Gateways</Table.Th><Table.Th>Campaigns</Table.Th><Table.Th>Actions</Table.Th></Table.Tr></Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>{t.name}</Table.Td><Table.Td>{t.username ?? '—'}</Table.Td><Table.Td>{t.password ?? '—'}</Table.Td>
                  <Table.Td>{list(t.caller_ids)}</Table.Td><Table.Td>{list(t.gateways)}</Table.Td><Table.Td>{t.campaign_ids.length}</Table.Td><Table.Td>{actions(t)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      {!trunks.isPending && rows.length === 0 && <Text c="dimmed">No SIP trunks yet.</Text>}
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={open !== null} onClose={() => setOpen(null)} size="lg" title={open === 'new' ? 'New SIP trunk' : `Edit ${editing?.name ?? ''}`}>
        {open !== null && <SipTrunkForm key={editing?.id ?? 'new'} trunk={editing} onDone={() => setOpen(null)} />}
      </Modal>
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={deleting !== null} onClose={closeDelete} title="Delete the SIP trunk?">
        <Stack>
          <Text>The stored credentials of “{deleting?.name}” are deleted. Campaigns that use it must choose another trunk first.</Text>
          <Problem error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={closeDelete}>Cancel</Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}>Delete trunk</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
