import { useState } from 'react';
import { ScrollTable } from '../components/ScrollTable';
import { Badge, Button, Group, Modal, NumberInput, Pagination, Progress, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiProblem, fieldError, must } from '../api/client';
import { Problem } from '../components/Problem';

const PAGE = 20;

type Campaign = { id: number; title: string; campaign_type: string; is_paused?: boolean | null; is_archive?: boolean | null };

const stateOf = (c: Campaign) => (c.is_archive ? 'archived' : c.is_paused ? 'paused' : 'active');
// Badge colours at 4.5:1 or more with their text (axe-core checks it): white on teal 9 and gray 7, dark on yellow 3.
const STATE_COLOR = { active: { color: 'teal.9', c: 'white' }, paused: { color: 'yellow.3', c: 'dark.9' }, archived: { color: 'gray.7', c: 'white' } } as const;

export default function Campaigns() {
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: ['campaigns', page],
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { skip: (page - 1) * PAGE, limit: PAGE } } })),
  });
  const total = (list.data as { count?: number } | undefined)?.count ?? 0;
  const rows = ((list.data as { data?: Campaign[] } | undefined)?.data ?? []) as Campaign[];
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Campaigns</Title>
        <Button onClick={() => setCreating(true)}>New campaign</Button>
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
      <Modal opened={creating} onClose={() => setCreating(false)} title="New campaign">
        <CampaignForm onDone={() => setCreating(false)} />
      </Modal>
    </Stack>
  );
}

function CampaignRow({ campaign }: { campaign: Campaign }) {
  const client = useQueryClient();
  const summary = useQuery({
    queryKey: ['campaign-summary', campaign.id],
    queryFn: () => must(api.GET('/api/v1/campaigns/{id}/summary', { params: { path: { id: campaign.id } } })),
    refetchInterval: 5000,
  });
  const change = useMutation({
    mutationFn: (body: { is_paused?: boolean; is_archive?: boolean }) => must(api.PUT('/api/v1/campaigns/{id}', { params: { path: { id: campaign.id } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: ['campaigns'] }),
    onError: (error) => notifications.show({ color: 'red', title: `Could not change ${campaign.title}`, message: error.message }),
  });
  const queue = useMutation({
    mutationFn: () => must(api.POST('/api/v1/campaigns/enqueue_calls/{campaign_id}', { params: { path: { campaign_id: campaign.id } } })),
    onSuccess: (answer) => {
      notifications.show({ title: campaign.title, message: (answer as { message?: string }).message ?? 'Queued' });
      void client.invalidateQueries({ queryKey: ['campaign-summary', campaign.id] });
    },
    onError: (error) => notifications.show({ color: 'red', title: `Could not queue ${campaign.title}`, message: error.message }),
  });
  const state = stateOf(campaign);
  const s = summary.data as { contacts?: { total: number; by_status: Record<string, number> }; calls?: { in_progress?: number } } | undefined;
  const total = s?.contacts?.total ?? 0;
  const done = total - (s?.contacts?.by_status.new ?? 0) - (s?.contacts?.by_status.added_to_queue ?? 0) - (s?.contacts?.by_status.call_scheduled ?? 0) - (s?.contacts?.by_status['in progress'] ?? 0);
  return (
    <Table.Tr>
      <Table.Td>{campaign.title}</Table.Td>
      <Table.Td>{campaign.campaign_type}</Table.Td>
      <Table.Td><Badge variant="filled" color={STATE_COLOR[state].color} c={STATE_COLOR[state].c}>{state}</Badge></Table.Td>
      <Table.Td miw={160}>
        {s ? (
          <Stack gap={2}>
            <Progress value={total ? (100 * done) / total : 0} aria-label={`${campaign.title} progress`} />
            <Text size="xs">{done} of {total} contacts done · {s.calls?.in_progress ?? 0} calls in progress</Text>
          </Stack>
        ) : <Text size="xs" c="dimmed">…</Text>}
      </Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {state !== 'archived' && (
            <Button size="xs" variant="default" loading={change.isPending} onClick={() => change.mutate({ is_paused: state !== 'paused' })}>
              {state === 'paused' ? 'Resume' : 'Pause'}
            </Button>
          )}
          <Button size="xs" variant="default" loading={queue.isPending} onClick={() => queue.mutate()} aria-label={`Queue new contacts of ${campaign.title}`}>Queue new contacts</Button>
          {state !== 'archived' && <Button size="xs" variant="subtle" color="gray" onClick={() => change.mutate({ is_archive: true })}>Archive</Button>}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function CampaignForm({ onDone }: { onDone: () => void }) {
  const client = useQueryClient();
  const form = useForm({
    initialValues: { title: '', campaign_type: 'Outbound', call_allowed_from_time: '09:00', call_allowed_to_time: '19:00', max_call_attempts: 3, prompt: '' },
  });
  const create = useMutation({
    mutationFn: (v: typeof form.values) => must(api.POST('/api/v1/campaigns/', {
      body: {
        title: v.title, campaign_type: v.campaign_type as 'Outbound' | 'Inbound', max_call_attempts: v.max_call_attempts,
        call_allowed_from_time: `${v.call_allowed_from_time}:00`, call_allowed_to_time: `${v.call_allowed_to_time}:00`,
        ...(v.prompt ? { campaign_data: { prompt: v.prompt } } : {}),
      },
    })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['campaigns'] });
      onDone();
    },
  });
  const problem = create.error instanceof ApiProblem ? create.error : null;
  return (
    <form onSubmit={form.onSubmit((v) => create.mutate(v))}>
      <Stack>
        <TextInput label="Title" required {...form.getInputProps('title')} error={fieldError(problem, 'title')} />
        <Select label="Type" data={['Outbound', 'Inbound']} allowDeselect={false} {...form.getInputProps('campaign_type')} />
        <Group grow>
          <TextInput label="Calling from" type="time" {...form.getInputProps('call_allowed_from_time')} error={fieldError(problem, 'call_allowed_from_time')} />
          <TextInput label="Calling until" type="time" {...form.getInputProps('call_allowed_to_time')} error={fieldError(problem, 'call_allowed_to_time')} />
        </Group>
        <NumberInput label="Maximum call attempts" min={1} max={20} {...form.getInputProps('max_call_attempts')} error={fieldError(problem, 'max_call_attempts')} />
        <TextInput label="Prompt" {...form.getInputProps('prompt')} />
        {problem && problem.fields.length === 0 && <Problem error={problem} />}
        <Button type="submit" loading={create.isPending}>Create campaign</Button>
      </Stack>
    </form>
  );
}
