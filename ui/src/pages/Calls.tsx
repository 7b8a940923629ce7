import { Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Problem } from '../components/Problem';
import { CallFilters } from './calls/CallFilters';
import { CallsTable } from './calls/CallsTable';
import { activeFilters, apiQuery, PAGE_SIZE, pageOf, placedUnderFilters } from './calls/filters';
import { useCallsPage } from './calls/queries';

/**
 * Calls, a page at a time from the API, filtered by anything GET /api/v1/calls/ accepts. The
 * filters and the page live in the URL, so a filtered view can be shared and survives a reload;
 * the list follows the live stream while open (read again when a call starts or ends, at most
 * once a second), without polling.
 *
 * Pages are read by keyset where it can: once page n has been shown, page n + 1 asks for the
 * calls below its last id (after_id), which costs the API what the first page does at any
 * depth; a page jumped to directly uses skip. An estimated count (count_exact false, a
 * filter matching many calls) is shown as "about N".
 */
/** The filters typed a character at a time (CallFilters' text fields). */
const TYPED = ['call_data', 'duration_from', 'duration_to', 'cost_from', 'cost_to', 'phone_number', 'from_number', 'contact_id', 'call_id'];

export default function Calls() {
  const [params, setParams] = useSearchParams();
  // Typing in a text filter updates the URL at once but asks the API only once typing pauses;
  // a choice (a status, a campaign, a date, a page) asks at once.
  // after_id of each page, learnt from the page before it; forgotten when the filters change.
  const cursors = useRef(new Map<string, number>());
  const page = pageOf(params);
  const plain = apiQuery(params);
  const filtersKey = JSON.stringify({ ...plain, skip: undefined });
  const cursor = cursors.current.get(`${filtersKey}#${page}`);
  const current = cursor === undefined ? plain : { ...plain, skip: 0, after_id: cursor };
  const [settled] = useDebouncedValue(JSON.stringify(current), 400);
  const typing = TYPED.some((key) => JSON.stringify(current[key]) !== JSON.stringify((JSON.parse(settled) as typeof current)[key]));
  const query = typing ? settled : JSON.stringify(current);
  const list = useCallsPage(query);
  // From the address as it is now, not as of the last render: two changes in a row (a status
  // chosen, then a date typed) both stay, where the router's `prev` would lose the first.
  const edit = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(window.location.search);
    change(next);
    setParams(next, { replace: true });
  };
  const rows = list.isError ? [] : list.data?.data ?? [];
  const total = list.isError ? 0 : list.data?.count ?? 0;
  const estimated = !list.isError && list.data?.count_exact === false;
  const shown = list.isPlaceholderData ? undefined : list.data?.data;
  useEffect(() => {
    const last = shown?.at(-1);
    if (last && shown!.length === PAGE_SIZE) cursors.current.set(`${filtersKey}#${page + 1}`, last.id);
  }, [shown, filtersKey, page]);
  const filtered = activeFilters(params) > 0;
  return (
    <Stack>
      <Title order={2}>Calls</Title>
      <CallFilters params={params} onChange={edit} error={list.error} />
      {/* A refused filter is shown under that filter; anything else here. */}
      {list.error && !placedUnderFilters(list.error) && <Problem error={list.error} />}
      {list.isError && placedUnderFilters(list.error) && <Text c="red.8" size="sm" role="alert">Fix the marked filter to see calls.</Text>}
      {list.isSuccess && (
        <Text size="sm" role="status" aria-live="polite">
          {estimated ? `about ${total.toLocaleString('en')} calls` : total === 1 ? '1 call' : `${total} calls`}{filtered ? (total === 1 && !estimated ? ' matches the filters' : ' match the filters') : ''}
        </Text>
      )}
      <CallsTable rows={rows} />
      {!list.isPending && !list.isError && rows.length === 0 && <Text c="dimmed">No calls match.</Text>}
      {total > PAGE_SIZE && (
        <Group justify="center">
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={(n) => edit((p) => { if (n > 1) p.set('page', String(n)); else p.delete('page'); })} aria-label="Call pages" />
        </Group>
      )}
    </Stack>
  );
}
