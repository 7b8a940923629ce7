import { useState } from 'react';
import { ScrollTable } from '../../components/ScrollTable';
import { Alert, Badge, Button, Code, Group, Modal, Pagination, Stack, Table, Text } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { useCampaignTitles } from '../campaigns/queries';
import { Deliveries } from './Deliveries';
import { excerpt, webhookName, type Delivery, type Webhook } from './model';
import { useDeleteWebhook, useRotateSigningSecret, useSendWebhookTest, useWebhooksPage } from './queries';
import { ShownOnce } from './ShownOnce';
import { WebhookForm } from './WebhookForm';

const PAGE = 20;
// Mantine's modal close button has no name of its own.
const CLOSE = { 'aria-label': 'Close' };

/** Post-call webhooks: the list (a page at a time), new, edit and delete, test-fire, the delivery log and the signing secret. */
export function Webhooks() {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const [tested, setTested] = useState<{ webhook: Webhook; delivery: Delivery } | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const list = useWebhooksPage(page, PAGE);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  const titleOf = useCampaignTitles(rows.flatMap((w) => w.campaign_ids));
  const test = useSendWebhookTest();
  const sendTest = (w: Webhook) => {
    setTested(null);
    test.mutate(w.id, { onSuccess: (delivery) => setTested({ webhook: w, delivery }) });
  };
  const rotate = useRotateSigningSecret();
  const rotateSecret = (w: Webhook) => rotate.mutate(w.id, {
    onSuccess: (answer) => {
      setRotating(null);
      setSecret({ title: `New signing secret of ${webhookName(w)}`, value: answer.signing_secret });
    },
  });
  const remove = useDeleteWebhook();
  const deleteWebhook = (w: Webhook) => remove.mutate(w.id, {
    onSuccess: () => {
      setDeleting(null);
      setSaved(`Webhook ${webhookName(w)} deleted.`);
    },
  });
  const d = tested?.delivery;
  return (
    <Stack>
      <Group justify="space-between">
        <Text>Each finished call is sent to the matching webhooks, signed with the webhook's secret.</Text>
        <Button onClick={() => setCreating(true)}>New webhook</Button>
      </Group>
      {saved && <Alert color="green" withCloseButton closeButtonLabel="Close" onClose={() => setSaved(null)} role="status">{saved}</Alert>}
      {secret && <ShownOnce title={secret.title} secret={secret.value} copyLabel="Copy secret" onClose={() => setSecret(null)} />}
      <Problem error={list.error} />
      <ScrollTable label="Webhooks table" minWidth={720}>
        <Table aria-label="Webhooks" striped>
          <Table.Thead>
            <Table.Tr><Table.Th>Name</Table.Th><Table.Th>URL</Table.Th><Table.Th>Campaigns</Table.Th><Table.Th>Active</Table.Th><Table.Th>Actions</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((w) => (
              <Table.Tr key={w.id}>
                <Table.Td>{webhookName(w)}</Table.Td>
                <Table.Td style={{ wordBreak: 'break-all' }}>{w.http_method} {w.url}</Table.Td>
                <Table.Td>{w.campaign_ids.map((id) => titleOf(id)).join(', ')}</Table.Td>
                <Table.Td><Badge color={w.is_active ? 'green' : 'gray'}>{w.is_active ? 'active' : 'inactive'}</Badge></Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <Button size="xs" variant="default" loading={test.isPending && test.variables === w.id} onClick={() => sendTest(w)} aria-label={`Send test to ${webhookName(w)}`}>Send test</Button>
                    <Button size="xs" variant="default" onClick={() => setEditing(w)} aria-label={`Edit ${webhookName(w)}`}>Edit</Button>
                    <Button size="xs" variant="default" onClick={() => setLog(w)} aria-label={`Deliveries of ${webhookName(w)}`}>Deliveries</Button>
                    <Button size="xs" variant="subtle" onClick={() => { rotate.reset(); setRotating(w); }} aria-label={`Rotate signing secret of ${webhookName(w)}`}>Rotate signing secret</Button>
                    <Button size="xs" variant="subtle" color="red" onClick={() => { remove.reset(); setDeleting(w); }} aria-label={`Delete ${webhookName(w)}`}>Delete</Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No webhooks yet.</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Webhook pages" />}
      {test.isPending && <Text size="sm">Sending a test request…</Text>}
      <Problem error={test.error} />
      {tested && d && (
        <Alert color={d.status === 'sent' ? 'green' : 'red'} title={`Test of ${webhookName(tested.webhook)}: ${d.status}`} withCloseButton closeButtonLabel="Close" onClose={() => setTested(null)}>
          <Stack gap={4}>
            <Text size="sm">Receiver answered: {d.http_status === null ? 'no HTTP answer' : `HTTP ${d.http_status}`}{d.duration_ms !== null ? ` in ${d.duration_ms} ms` : ''}</Text>
            {d.reason && <Text size="sm">Reason: {d.reason}</Text>}
            <Text size="sm">Response body:</Text>
            <Code block>{excerpt(d.response_body)}</Code>
          </Stack>
        </Alert>
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="New webhook" size="lg" closeButtonProps={CLOSE}>
        <WebhookForm onCreated={(w) => { setCreating(false); setSecret({ title: `Webhook ${webhookName(w)} created: its signing secret`, value: w.signing_secret }); }} />
      </Modal>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing ? `Edit ${webhookName(editing)}` : ''} size="lg" closeButtonProps={CLOSE}>
        {editing && <WebhookForm key={editing.id} webhook={editing} onSaved={(w) => { setEditing(null); setSaved(`Webhook ${webhookName(w)} saved.`); }} />}
      </Modal>
      <Modal opened={deleting !== null} onClose={() => setDeleting(null)} title="Delete the webhook?" closeButtonProps={CLOSE}>
        <Stack>
          <Text>“{deleting && webhookName(deleting)}” and its delivery log are deleted; calls are no longer sent to it.</Text>
          <Problem error={remove.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(null)}>Cancel</Button>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && deleteWebhook(deleting)}>Delete webhook</Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={log !== null} onClose={() => setLog(null)} title={log ? `Deliveries of ${webhookName(log)}` : ''} size={1120} closeButtonProps={CLOSE}>
        {log && <Deliveries webhook={log} />}
      </Modal>
      <Modal opened={rotating !== null} onClose={() => setRotating(null)} title="Rotate the signing secret?" closeButtonProps={CLOSE}>
        <Stack>
          <Text>Deliveries of “{rotating && webhookName(rotating)}” are signed with a new secret at once; the old secret stops working.</Text>
          <Problem error={rotate.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRotating(null)}>Cancel</Button>
            <Button color="red" loading={rotate.isPending} onClick={() => rotating && rotateSecret(rotating)}>Rotate secret</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
