import { useState } from 'react';
import { Button, Group, Modal, Pagination, Stack, Text, Title } from '@mantine/core';
import { useSession } from './session/queries';
import { Problem } from '../components/Problem';
import { ConnectionForm } from './voice-connections/ConnectionForm';
import { ConnectionsTable } from './voice-connections/ConnectionsTable';
import { DeleteConnection } from './voice-connections/DeleteConnection';
import type { VoiceConnection } from './voice-connections/model';
import { useVoiceConnectionsPage } from './voice-connections/queries';
import { SipTrunks } from './sip-trunks/SipTrunks';

const PAGE = 20;

/** The account's own vendor credentials (owners only; the navigation hides this page from sub-users). */
export default function VoiceConnections() {
  const session = useSession();
  const owner = session.data?.kind === 'user';
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<VoiceConnection | 'new' | null>(null);
  const [deleting, setDeleting] = useState<VoiceConnection | null>(null);
  const list = useVoiceConnectionsPage((page - 1) * PAGE, PAGE, owner);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  const editing = open === 'new' ? null : open;
  if (session.data && !owner) {
    return (
      <Stack>
        <Title order={2}>Voice connections</Title>
        <Text>Only the account owner manages voice connections.</Text>
      </Stack>
    );
  }
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Voice connections</Title>
        <Button onClick={() => setOpen('new')}>New voice connection</Button>
      </Group>
      <Text size="sm">
        Your own Vapi or Retell credentials, used by the assistants that name them. Set the vendor's server URL (Vapi) or webhook URL (Retell)
        to the connection's events URL so its call events reach this service.
      </Text>
      <Problem error={list.error} />
      <ConnectionsTable rows={rows} onEdit={setOpen} onDelete={setDeleting} />
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No voice connections yet.</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Voice connection pages" />}
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={open !== null} onClose={() => setOpen(null)} size="lg" title={open === 'new' ? 'New voice connection' : `Edit ${editing?.name ?? ''}`}>
        {open !== null && <ConnectionForm key={editing?.id ?? 'new'} connection={editing} onDone={() => setOpen(null)} />}
      </Modal>
      <DeleteConnection connection={deleting} onClose={() => setDeleting(null)} />
      <SipTrunks />
    </Stack>
  );
}
