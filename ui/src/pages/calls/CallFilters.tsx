import { useState } from 'react';
import { Button, Collapse, Group, MultiSelect, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useFormat } from '../../format/useFormat';
import { optionsOf } from '../../format/statuses';
import { CampaignPicker } from '../analytics/CampaignPicker';
import { ACTION_STATUSES, activeFilters, CALL_STATUSES, CALL_TYPES, SCORE_TAG_LABELS, SCORE_TAGS, fromLocalInput, queryError, toLocalInput, type FilterKey } from './filters';

type Props = {
  /** The URL's query string: the filters' single source of truth. */
  params: URLSearchParams;
  /** Changes the URL's query string (filters and page). */
  onChange: (edit: (next: URLSearchParams) => void) => void;
  /** The list's last error: a 422 names the filter it concerns. */
  error: unknown;
};

/** Filters a person reaches for first stay in view; the rest fold away (opened when one of them is set or refused). */
const MORE: FilterKey[] = ['action_status', 'call_type', 'end_time_from', 'end_time_to', 'duration_from', 'duration_to', 'cost_from', 'cost_to', 'phone_number', 'from_number', 'contact_id', 'call_id', 'score_min', 'score_max', 'score_tag'];

/** Every filter GET /api/v1/calls/ accepts, each reading and writing its own URL parameter. */
export function CallFilters({ params, onChange, error }: Props) {
  const f = useFormat();
  const moreSet = MORE.filter((k) => params.getAll(k).some(Boolean)).length;
  const moreRefused = MORE.some((k) => queryError(error, k));
  const [moreOpen, setMoreOpen] = useState(moreSet > 0);
  // A refused filter is never hidden: its message must be seen.
  const open = moreOpen || moreRefused;

  // Any change of filter goes back to the first page: the old page number may not exist any more.
  const setOne = (key: FilterKey, value: string) => onChange((p) => { if (value) p.set(key, value); else p.delete(key); p.delete('page'); });
  const setMany = (key: FilterKey, values: string[]) => onChange((p) => { p.delete(key); for (const v of values) p.append(key, v); p.delete('page'); });
  const clear = () => onChange((p) => { for (const key of [...p.keys()]) p.delete(key); });

  const text = (key: FilterKey, label: string, extra: { inputMode?: 'numeric' | 'decimal' | 'tel'; description?: string; placeholder?: string } = {}) => (
    <TextInput key={key} label={label} value={params.get(key) ?? ''} onChange={(e) => setOne(key, e.currentTarget.value)} error={queryError(error, key)} {...extra} />
  );
  const when = (key: FilterKey, label: string) => (
    <TextInput key={key} label={label} description={f.zone} type="datetime-local" step={1} value={toLocalInput(params.get(key), f.zone)}
      onChange={(e) => setOne(key, fromLocalInput(e.currentTarget.value, key.endsWith('_to'), f.zone))} error={queryError(error, key)} />
  );

  return (
    <Stack gap="sm" role="search" aria-label="Call filters">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        <CampaignPicker label="Campaigns" includeArchived placeholder="Any campaign" value={params.getAll('campaign_id')} onChange={(v) => setMany('campaign_id', v)} error={queryError(error, 'campaign_id')} />
        <MultiSelect label="Statuses" placeholder={params.getAll('status').length ? undefined : 'Any status'} data={optionsOf(CALL_STATUSES, f.callStatus)} value={params.getAll('status')}
          onChange={(v) => setMany('status', v)} error={queryError(error, 'status')} clearable />
        {when('start_time_from', 'Started from')}
        {when('start_time_to', 'Started until')}
      </SimpleGrid>
      {text('call_data', 'Search in call data', { description: 'Any text in the call data, keys and values, any case' })}
      <Collapse expanded={open} id="more-call-filters">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
          <MultiSelect label="Outcomes" placeholder={params.getAll('action_status').length ? undefined : 'Any outcome'} data={optionsOf(ACTION_STATUSES, f.outcome)} value={params.getAll('action_status')}
            onChange={(v) => setMany('action_status', v)} error={queryError(error, 'action_status')} clearable />
          <Select label="Call type" placeholder="Any type" data={optionsOf(CALL_TYPES, f.callType)} value={params.get('call_type')} onChange={(v) => setOne('call_type', v ?? '')} error={queryError(error, 'call_type')} clearable />
          {when('end_time_from', 'Ended from')}
          {when('end_time_to', 'Ended until')}
        </SimpleGrid>
        {/* Short values: two to a row even on a phone. */}
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" verticalSpacing="xs" mt="xs">
          {text('duration_from', 'Duration from (s)', { inputMode: 'numeric' })}
          {text('duration_to', 'Duration to (s)', { inputMode: 'numeric' })}
          {text('cost_from', `Cost from (${f.currency})`, { inputMode: 'decimal' })}
          {text('cost_to', `Cost to (${f.currency})`, { inputMode: 'decimal' })}
          {text('phone_number', 'Called number', { inputMode: 'tel', description: 'Exact number' })}
          {text('from_number', 'Caller number', { inputMode: 'tel', description: 'Exact number' })}
          {text('contact_id', 'Contact id', { inputMode: 'numeric' })}
          {text('call_id', 'Call id', { inputMode: 'numeric' })}
          {/* Call scores (the campaign's scorecard): only scored calls match these. */}
          {text('score_min', 'Score from (0–100)', { inputMode: 'decimal' })}
          {text('score_max', 'Score to (0–100)', { inputMode: 'decimal' })}
          <Select label="Problem found" placeholder="Any" data={SCORE_TAGS.map((t) => ({ value: t, label: SCORE_TAG_LABELS[t] ?? t }))} value={params.get('score_tag')}
            onChange={(v) => setOne('score_tag', v ?? '')} error={queryError(error, 'score_tag')} clearable />
        </SimpleGrid>
      </Collapse>
      <Group gap="xs">
        <Button variant="subtle" size="xs" onClick={() => setMoreOpen(!open)} aria-expanded={open} aria-controls="more-call-filters" disabled={moreRefused}>
          {open ? 'Fewer filters' : moreSet ? `More filters (${moreSet} set)` : 'More filters'}
        </Button>
        <Button variant="default" size="xs" onClick={clear} disabled={activeFilters(params) === 0}>Clear filters</Button>
      </Group>
    </Stack>
  );
}
