import { useState } from 'react';
import { ScrollTable } from '../components/ScrollTable';
import { Anchor, Badge, Button, Group, Pagination, Progress, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { notifications } from '@mantine/notifications';
import { Problem } from '../components/Problem';
import { type CampaignListItem, useCampaignFollowLive, useCampaignsPage, useCampaignSummary, useChangeCampaignState, useQueueNewContacts } from './campaigns/queries';

const PAGE = 20;

const stateOf = (c: CampaignListItem) => (c.is_archive ? 'archived' : c.is_paused ? 'paused' : 'active');
// Badge colours at 4.5:1 or more with their text (axe-core checks it): white on teal 9 and gray 7, dark on yellow 3.
const STATE_COLOR = { active: { color: 'teal.9', c: 'white' }, paused: { color: 'yellow.3', c: 'dark.9' }, archived: { color: 'gray.7', c: 'white' } } as const;

export default function Campaigns() {
  const [page, setPage] = useState(1);
  // Each row's progress follows the account's stream (no polling per row).
  useCampaignFollowLive();
  const list = useCampaignsPage(page, PAGE);
  const total = list.data?.count ?? 0;
  const rows = list.data?.data ?? [];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Campaigns</Title>
        {/* The full form (schedule, retries, limits, prompt) is a page of its own. */}
        <Button component={Link} to="/campaigns/new">New campaign</Button>
      </Group>
      <Problem error={list.error} />
      <ScrollTable label="Campaigns table" minWidth={640}>
        <Table striped aria-label="Campaigns">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Title</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Progress</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => <CampaignRow key={c.id} campaign={c} />)}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {!list.isPending && rows.length === 0 && <Text c="dimmed">No campaigns yet.</Text>}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Campaign pages" />}
    </Stack>
  );
}

function CampaignRow({ campaign }: { campaign: CampaignListItem }) {
  const summary = useCampaignSummary(campaign.id);
  const changeState = useChangeCampaignState(campaign.id);
  const change = (body: { is_paused?: boolean; is_archive?: boolean }) => changeState.mutate(body, {
    onError: (error) => notifications.show({ color: 'red', title: `Could not change ${campaign.title}`, message: error.message }),
  });
  const queueNew = useQueueNewContacts(campaign.id);
  const queue = () => queueNew.mutate(undefined, {
    onSuccess: (answer) => notifications.show({ title: campaign.title, message: answer.message }),
    onError: (error) => notifications.show({ color: 'red', title: `Could not queue ${campaign.title}`, message: error.message }),
  });
  const state = stateOf(campaign);
  const s = summary.data;
  const total = s?.contacts.total ?? 0;
  const by = s?.contacts.by_status;
  const done = total - (by?.new ?? 0) - (by?.added_to_queue ?? 0) - (by?.call_scheduled ?? 0) - (by?.['in progress'] ?? 0);
  return (
    <Table.Tr>
      <Table.Td><Anchor component={Link} to={`/campaigns/${campaign.id}`}>{campaign.title}</Anchor></Table.Td>
      <Table.Td>{campaign.campaign_type}</Table.Td>
      <Table.Td><Badge variant="filled" color={STATE_COLOR[state].color} c={STATE_COLOR[state].c}>{state}</Badge></Table.Td>
      <Table.Td miw={160}>
        {s ? (
          <Stack gap={2}>
            <Progress value={total ? (100 * done) / total : 0} aria-label={`${campaign.title} progress`} />
            <Text size="xs">{done} of {total} contacts done · {s.calls_in_progress ?? 0} calls in progress</Text>
          </Stack>
        ) : <Text size="xs" c="dimmed">…</Text>}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {state !== 'archived' && (
            <Button size="xs" variant="default" loading={changeState.isPending} onClick={() => change({ is_paused: state !== 'paused' })}>
              {state === 'paused' ? 'Resume' : 'Pause'}
            </Button>
          )}
          <Button size="xs" variant="default" loading={queueNew.isPending} onClick={queue} aria-label={`Queue new contacts of ${campaign.title}`}>Queue new contacts</Button>
          {state !== 'archived' && <Button size="xs" variant="subtle" color="gray" onClick={() => change({ is_archive: true })}>Archive</Button>}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
