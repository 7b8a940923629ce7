import { useMemo, useState } from 'react';
import { Button, Group, Modal, Pagination, Stack, Text, Title } from '@mantine/core';
import { useSession } from './session/queries';
import { Problem } from '../components/Problem';
import { AssistantDetails } from './assistants/AssistantDetails';
import { AssistantForm } from './assistants/AssistantForm';
import { AssistantsTable } from './assistants/AssistantsTable';
import { DeleteAssistant } from './assistants/DeleteAssistant';
import type { Assistant } from './assistants/model';
import { useAssistantsPage } from './assistants/queries';
import { useConnectionChoices } from './voice-connections/queries';

const PAGE = 20;

/** Who talks on a campaign's calls. The owner creates, edits and deletes; a sub-user reads those of its campaigns. */
export default function Assistants() {
  const session = useSession();
  const canWrite = session.data?.kind === 'user';
  const [page, setPage] = useState(1);
  // 'new', an assistant being edited (or viewed), or nothing.
  const [open, setOpen] = useState<Assistant | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Assistant | null>(null);
  const list = useAssistantsPage(page, PAGE);
  const connections = useConnectionChoices(canWrite);
  const byId = useMemo(() => new Map((connections.data?.data ?? []).map((c) => [c.id, c])), [connections.data]);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  const editing = open === 'new' ? null : open;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Assistants</Title>
        {canWrite && <Button onClick={() => setOpen('new')}>New assistant</Button>}
      </Group>
      <Text size="sm">
        An assistant says who talks on a campaign's calls: the provider, the vendor's assistant or an inline configuration, and how outcomes become action statuses.
        {!canWrite && ' You can view the assistants of your campaigns; only the account owner changes them.'}
      </Text>
      <Problem error={list.error} />
      <AssistantsTable rows={rows} connections={byId} canWrite={canWrite} onOpen={setOpen} onDelete={setDeleting} />
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No assistants yet.</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Assistant pages" />}
      <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={open !== null} onClose={() => setOpen(null)} size="xl"
        title={open === 'new' ? 'New assistant' : `${canWrite ? 'Edit' : 'View'} ${editing?.name ?? ''}`}>
        {open !== null && (canWrite || !editing
          ? <AssistantForm key={editing?.id ?? 'new'} assistant={editing} onDone={() => setOpen(null)} />
          : <AssistantDetails assistant={editing} connections={byId} />)}
      </Modal>
      <DeleteAssistant assistant={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
