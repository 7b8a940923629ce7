import { useState } from 'react';
import { Badge, Button, Card, Group, NumberInput, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { Problem } from '../../components/Problem';
import { type ContactStatus, STATUSES } from '../contacts/shared';
import { optionsOf } from '../../format/statuses';
import { useFormat } from '../../format/useFormat';
import type { Campaign } from './model';
import { useCampaignSummary, useChangeCampaignState, useQueueByStatus, useQueueNewContacts } from './queries';

const STATE_COLOR = { active: { color: 'teal.9', c: 'white' }, paused: { color: 'yellow.3', c: 'dark.9' }, archived: { color: 'gray.7', c: 'white' } } as const;
export const stateOf = (c: Pick<Campaign, 'is_archive' | 'is_paused'>) => (c.is_archive ? 'archived' : c.is_paused ? 'paused' : 'active');
// Contacts still to be worked on; every other status is an outcome.
const OPEN: string[] = ['new', 'added_to_queue', 'call_scheduled', 'in progress', 'awaiting_queue'];
// The enqueue operation never queues these (docs/dialer.md).
const QUEUEABLE = STATUSES.filter((s) => !['in progress', 'do_not_disturb', 'paused'].includes(s));

/** The campaign's progress (GET .../summary) and what can be done to it: pause, resume, archive, queue. */
export function CampaignActions({ campaign }: { campaign: Campaign }) {
  const id = campaign.id;
  const f = useFormat();
  const summary = useCampaignSummary(id);
  const change = useChangeCampaignState(id);
  const queueNew = useQueueNewContacts(id);
  const [status, setStatus] = useState<string | null>('failed');
  const [limit, setLimit] = useState<number | string>(10);
  const queueByStatus = useQueueByStatus(id);
  const state = stateOf(campaign);
  const s = summary.data;
  const total = s?.contacts.total ?? 0;
  const byStatus: Record<string, number> = s?.contacts.by_status ?? {};
  const open = OPEN.reduce((n, k) => n + (byStatus[k] ?? 0), 0);
  const queryError = (field: string) => queryFieldError(queueByStatus.error, field);
  return (
    <Card withBorder component="section" aria-labelledby="campaign-progress-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} id="campaign-progress-title">Progress</Title>
          <Badge variant="filled" color={STATE_COLOR[state].color} c={STATE_COLOR[state].c}>{state}</Badge>
        </Group>
        <Problem error={summary.error} />
        {s && (
          <Stack gap={4}>
            <Progress value={total ? (100 * (total - open)) / total : 0} aria-label={`${campaign.title} progress`} />
            <Text size="sm">{total - open} of {total} contacts done · {s.calls_in_progress} calls in progress</Text>
            <Text size="sm">Next call: {s.next_call_at ? f.time(s.next_call_at) : '—'} ({f.sentence(s.next_call_reason)})</Text>
            <Group gap={6} role="group" aria-label="Contacts by status">
              {Object.entries(byStatus).filter(([, n]) => n > 0).map(([k, n]) => <Badge key={k} variant="light" color="gray" c="dark.9">{f.contactStatus(k)}: {n}</Badge>)}
            </Group>
          </Stack>
        )}
        <Group gap="xs">
          {state !== 'archived' && (
            <Button variant="default" loading={change.isPending} onClick={() => change.mutate({ is_paused: state !== 'paused' })}>{state === 'paused' ? 'Resume' : 'Pause'}</Button>
          )}
          <Button variant="default" loading={change.isPending} onClick={() => change.mutate({ is_archive: state !== 'archived' })}>{state === 'archived' ? 'Unarchive' : 'Archive'}</Button>
          <Button variant="default" loading={queueNew.isPending} onClick={() => queueNew.mutate()}>Queue new contacts</Button>
        </Group>
        <Problem error={change.error} />
        <Problem error={queueNew.error} />
        {queueNew.data && <Text size="sm" role="status">{queueNew.data.message}</Text>}
        <form onSubmit={(e) => { e.preventDefault(); queueByStatus.mutate({ status: (status ?? 'new') as ContactStatus, limit: Number(limit) }); }} aria-label="Queue by status">
          <Group gap="xs" align="flex-end">
            <Select label="Queue contacts with status" w={220} data={optionsOf(QUEUEABLE, f.contactStatus)} allowDeselect={false} value={status} onChange={setStatus} error={queryError('status')} />
            <NumberInput label="At most" w={110} min={1} allowDecimal={false} value={limit} onChange={setLimit} error={queryError('limit')} />
            <Button type="submit" loading={queueByStatus.isPending}>Queue by status</Button>
          </Group>
        </form>
        {queueByStatus.error && !queryError('status') && !queryError('limit') && <Problem error={queueByStatus.error} />}
        {queueByStatus.data && <Text size="sm" role="status">{queueByStatus.data.message}</Text>}
      </Stack>
    </Card>
  );
}

/** A query parameter's 422 message (fieldError reads body fields only). */
function queryFieldError(error: unknown, field: string) {
  return (error instanceof ApiProblem ? error.fields : []).find((f) => f.loc[0] === 'query' && f.loc[1] === field)?.msg;
}
