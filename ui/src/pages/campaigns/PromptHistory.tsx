import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Badge, Button, Card, Code, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { Problem } from '../../components/Problem';
import type { PromptEntry } from './model';
import { useDecidePrompt } from './queries';
import { useFormat } from '../../format/useFormat';

// Filled badges with 4.5:1 contrast (as Campaigns.tsx STATE_COLOR).
const STATUS_COLOR = {
  pending: { color: 'yellow.3', c: 'dark.9' },
  approved: { color: 'teal.9', c: 'white' },
  auto_approved: { color: 'teal.9', c: 'white' },
  rejected: { color: 'red.9', c: 'white' },
} as const;

const author = (e: PromptEntry) =>
  e.created_by_sub_user_id
    ? `sub-user ${e.created_by_sub_user_full_name ?? e.created_by_sub_user_email ?? `#${e.created_by_sub_user_id}`}`
    : `owner ${e.created_by_user_full_name ?? e.created_by_user_email ?? ''}`.trim();
const decider = (e: PromptEntry) => e.approved_by_user_full_name ?? e.approved_by_user_email ?? e.approved_by_sub_user_full_name ?? e.approved_by_sub_user_email ?? 'owner';
const promptOf = (e: PromptEntry) => {
  const p = e.prompt_data.prompt;
  return p === null || p === undefined ? '(prompt removed)' : typeof p === 'string' ? p : JSON.stringify(p, null, 2);
};

/**
 * Every version of the prompt, newest first. Calls use the newest approved one; a sub-user's change is
 * pending until the account owner approves or rejects it (only the owner sees those buttons).
 */
export function PromptHistory({ campaignId, entries, isOwner }: { campaignId: number; entries: PromptEntry[]; isOwner: boolean }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="prompt-history-title">
      <Title order={3} id="prompt-history-title">Prompt history</Title>
      {entries.length === 0 && <Text c="dimmed">No prompt yet.</Text>}
      {entries.map((e, i) => <Entry key={e.id} campaignId={campaignId} entry={e} version={entries.length - i} isOwner={isOwner} />)}
    </Stack>
  );
}

function Entry({ campaignId, entry, version, isOwner }: { campaignId: number; entry: PromptEntry; version: number; isOwner: boolean }) {
  const { time: when } = useFormat();
  const [comment, setComment] = useState('');
  const decide = useDecidePrompt(campaignId, entry.id);
  const navigate = useNavigate();
  // A pending version can be tested before it is decided: the test scenarios section preselects it.
  const test = () => {
    navigate({ search: `?test_prompt=${entry.id}`, hash: 'test-scenarios' });
    document.getElementById('test-scenarios')?.scrollIntoView({ behavior: 'smooth' });
  };
  const decideAs = (decision: 'approve' | 'reject') => decide.mutate({ decision, comment: comment.trim() || null });
  const color = STATUS_COLOR[entry.status];
  return (
    <Card withBorder padding="sm" component="article" aria-label={`Prompt version ${version}`}>
      <Stack gap={6}>
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <Text fw={600}>Version {version}</Text>
            <Badge variant="filled" color={color.color} c={color.c}>{entry.status.replace('_', ' ')}</Badge>
          </Group>
          <Text size="sm">by {author(entry)}, {when(entry.created_at)}</Text>
        </Group>
        <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{promptOf(entry)}</Code>
        {entry.status !== 'pending' && entry.status !== 'auto_approved' && entry.approved_at && (
          <Text size="sm">{entry.status === 'rejected' ? 'Rejected' : 'Approved'} by {decider(entry)}, {when(entry.approved_at)}{entry.approval_comment ? `: “${entry.approval_comment}”` : ''}</Text>
        )}
        {entry.status === 'pending' && (
          <Group gap="xs"><Button size="xs" variant="light" onClick={test}>Test version {version}</Button></Group>
        )}
        {entry.status === 'pending' && isOwner && (
          <Stack gap={6}>
            <Textarea label={`Comment on version ${version} (optional)`} autosize minRows={1} value={comment} onChange={(e) => setComment(e.currentTarget.value)} />
            <Group gap="xs">
              <Button size="xs" color="teal.9" loading={decide.isPending && decide.variables.decision === 'approve'} onClick={() => decideAs('approve')}>Approve version {version}</Button>
              <Button size="xs" color="red.9" variant="outline" loading={decide.isPending && decide.variables.decision === 'reject'} onClick={() => decideAs('reject')}>Reject version {version}</Button>
            </Group>
            <Problem error={decide.error} />
          </Stack>
        )}
        {entry.status === 'pending' && !isOwner && <Text size="sm" c="dimmed">Waiting for the account owner's approval; calls use the last approved version.</Text>}
      </Stack>
    </Card>
  );
}
