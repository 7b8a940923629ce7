import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCallCapacity, useSaveCallCapacity } from './queries';

const FIELDS = ['max_concurrent_calls', 'reserved_inbound_calls'];

/**
 * The account's cap on calls in progress and the part kept for inbound calls, with what is in use
 * now. Owners change it (audited); sub-users read it. An empty cap means none.
 */
export function CallCapacity({ owner }: { owner: boolean }) {
  const capacity = useCallCapacity();
  const save = useSaveCallCapacity();
  const [draft, setDraft] = useState<{ max: number | null; reserve: number } | null>(null);
  useEffect(() => {
    if (capacity.data && !draft) setDraft({ max: capacity.data.max_concurrent_calls, reserve: capacity.data.reserved_inbound_calls });
  }, [capacity.data, draft]);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && !(problem && problem.fields.length > 0 && problem.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  if (!draft) return capacity.error ? <Problem error={capacity.error} /> : <Text>Loading the call capacity…</Text>;
  const edit = (next: Partial<typeof draft>) => {
    setDraft({ ...draft, ...next });
    save.reset();
  };
  const number = (v: string | number) => (typeof v === 'number' ? v : v.trim() === '' ? null : Number.parseInt(v, 10));
  const live = capacity.data;
  return (
    <Card withBorder>
      <form aria-labelledby="capacity-title" onSubmit={(e) => { e.preventDefault(); if (owner) save.mutate({ max_concurrent_calls: draft.max, reserved_inbound_calls: draft.reserve }); }}>
        <Stack>
          <Title order={3} size="h4" id="capacity-title">Calls at once and the inbound reserve</Title>
          <Text size="sm">
            The account&apos;s calls in progress at once, every campaign, inbound and outbound. Of them, the reserve is kept free for
            callers to your inbound campaigns: outbound campaigns stop short of it, and a contact held back waits in the queue until a call
            ends. Callers are never turned away for the cap; beyond the reserve they take room outbound calls would have had. Leave the cap
            empty for none. Every change is written to the audit log.
          </Text>
          {!owner && <Alert color="gray" title="Read only">Only the account owner changes the call capacity.</Alert>}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput
              label="Calls at once (account)" description="Inbound and outbound, all campaigns; empty = no cap" min={1} allowDecimal={false} readOnly={!owner}
              value={draft.max ?? ''} onChange={(v) => edit({ max: number(v) })} error={fieldError(problem, 'max_concurrent_calls')}
            />
            <NumberInput
              label="Kept for inbound calls" description="Part of the cap outbound calls never take; needs a cap" min={0} allowDecimal={false} readOnly={!owner}
              value={draft.reserve} onChange={(v) => edit({ reserve: number(v) ?? 0 })} error={fieldError(problem, 'reserved_inbound_calls')}
            />
          </SimpleGrid>
          {live && (
            <Text size="sm" c="dimmed">
              In progress now: {live.calls_in_progress.outbound} outbound, {live.calls_in_progress.inbound} inbound
              {live.outbound_room === null ? '.' : `; ${live.outbound_room} more outbound may start.`}
            </Text>
          )}
          {unplaced && <Problem error={save.error} />}
          {owner && (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Saved.</Text>}
              <Button type="submit" loading={save.isPending}>Update call capacity</Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
