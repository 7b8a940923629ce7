import { Button, Group, MultiSelect, Pagination, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearchParams } from 'react-router-dom';
import { Problem } from '../components/Problem';
import { optionsOf } from '../format/statuses';
import { useFormat } from '../format/useFormat';
import { CampaignPicker } from './analytics/CampaignPicker';
import { fromLocalInput, toLocalInput } from './calls/filters';
import { activeFilters, apiQuery, CHANNELS, DIRECTIONS, MESSAGE_PURPOSES, MESSAGE_STATUSES, PAGE_SIZE, pageOf, queryError, type FilterKey } from './messages/filters';
import { MessagesTable } from './messages/MessagesTable';
import { useMessagesPage } from './messages/queries';

/**
 * Text messages (SMS, WhatsApp), a page at a time, filtered by anything GET /api/v1/messages/
 * accepts; the filters and the page live in the URL like the calls list's. Live every 5 s, since
 * delivery reports arrive after a text is sent.
 */
export default function Messages() {
  const [params, setParams] = useSearchParams();
  const f = useFormat();
  const plain = JSON.stringify(apiQuery(params));
  // The text search asks the API once typing pauses; a choice asks at once.
  const [settled] = useDebouncedValue(plain, 400);
  const typing = (JSON.parse(plain) as Record<string, unknown>).message !== (JSON.parse(settled) as Record<string, unknown>).message;
  const list = useMessagesPage(typing ? settled : plain);
  const edit = (change: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(window.location.search);
    change(next);
    setParams(next, { replace: true });
  };
  const setOne = (key: FilterKey, value: string) => edit((p) => { if (value) p.set(key, value); else p.delete(key); p.delete('page'); });
  const setMany = (key: FilterKey, values: string[]) => edit((p) => { p.delete(key); for (const v of values) p.append(key, v); p.delete('page'); });
  const rows = list.isError ? [] : list.data?.data ?? [];
  const total = list.isError ? 0 : list.data?.count ?? 0;
  const estimated = !list.isError && list.data?.count_exact === false;
  const page = pageOf(params);
  const when = (key: FilterKey, label: string) => (
    <TextInput label={label} description={f.zone} type="datetime-local" step={1} value={toLocalInput(params.get(key), f.zone)}
      onChange={(e) => setOne(key, fromLocalInput(e.currentTarget.value, key.endsWith('_to'), f.zone))} error={queryError(list.error, key)} />
  );
  return (
    <Stack>
      <Title order={2}>Messages</Title>
      <Stack gap="sm" role="search" aria-label="Message filters">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
          <CampaignPicker label="Campaigns" includeArchived placeholder="Any campaign" value={params.getAll('campaign_id')} onChange={(v) => setMany('campaign_id', v)} error={queryError(list.error, 'campaign_id')} />
          <MultiSelect label="Statuses" placeholder={params.getAll('status').length ? undefined : 'Any status'} data={optionsOf(MESSAGE_STATUSES, f.messageStatus)}
            value={params.getAll('status')} onChange={(v) => setMany('status', v)} error={queryError(list.error, 'status')} clearable />
          <Select label="Direction" placeholder="Sent and received" data={DIRECTIONS.map((d) => ({ value: d, label: d === 'inbound' ? 'Received' : 'Sent' }))}
            value={params.get('direction')} onChange={(v) => setOne('direction', v ?? '')} clearable />
          <MultiSelect label="Channels" placeholder={params.getAll('source').length ? undefined : 'Any channel'} data={optionsOf(CHANNELS, f.channel)}
            value={params.getAll('source')} onChange={(v) => setMany('source', v)} clearable />
          <MultiSelect label="Purposes" placeholder={params.getAll('purpose').length ? undefined : 'Any purpose'} data={optionsOf(MESSAGE_PURPOSES, f.messagePurpose)}
            value={params.getAll('purpose')} onChange={(v) => setMany('purpose', v)} clearable />
          {when('create_datetime_from', 'Written from')}
          {when('create_datetime_to', 'Written until')}
          <TextInput label="Contact id" inputMode="numeric" value={params.get('contact_id') ?? ''} onChange={(e) => setOne('contact_id', e.currentTarget.value)} error={queryError(list.error, 'contact_id')} />
        </SimpleGrid>
        <TextInput label="Search in texts" description="Texts containing this, any case" value={params.get('message') ?? ''} onChange={(e) => setOne('message', e.currentTarget.value)} error={queryError(list.error, 'message')} />
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => edit((p) => { for (const key of [...p.keys()]) p.delete(key); })} disabled={activeFilters(params) === 0}>Clear filters</Button>
        </Group>
      </Stack>
      {list.error && !queryErrorShown(list.error) && <Problem error={list.error} />}
      {list.isSuccess && (
        <Text size="sm" role="status" aria-live="polite">
          {estimated ? `about ${total.toLocaleString('en')} texts` : total === 1 ? '1 text' : `${total} texts`}{activeFilters(params) > 0 ? (total === 1 && !estimated ? ' matches the filters' : ' match the filters') : ''}
        </Text>
      )}
      {rows.length > 0 && <MessagesTable rows={rows} />}
      {!list.isPending && !list.isError && rows.length === 0 && <Text c="dimmed">No texts match.</Text>}
      {total > PAGE_SIZE && (
        <Group justify="center">
          <Pagination total={Math.ceil(total / PAGE_SIZE)} value={page} onChange={(n) => edit((p) => { if (n > 1) p.set('page', String(n)); else p.delete('page'); })} aria-label="Message pages" />
        </Group>
      )}
    </Stack>
  );
}

/** A 422 about filters is shown under them; anything else above the list. */
const queryErrorShown = (error: unknown) => ['campaign_id', 'status', 'message', 'contact_id', 'create_datetime_from', 'create_datetime_to'].some((k) => queryError(error, k));
