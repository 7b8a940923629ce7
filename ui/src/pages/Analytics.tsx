import '@mantine/charts/styles.css';
import { useState } from 'react';
import { Group, MultiSelect, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { Problem } from '../components/Problem';
import { Breakdowns } from './analytics/Breakdowns';
import { CampaignPicker } from './analytics/CampaignPicker';
import { Definitions } from './analytics/Definitions';
import { Figures } from './analytics/Figures';
import { TextFigures } from './analytics/TextFigures';
import { CALL_TYPES, GRANULARITIES, periodOf, type CallType } from './analytics/model';
import { dayIn } from '../format/time';
import { useFormat } from '../format/useFormat';
import { useDetailedReport } from './analytics/queries';
import { Trend, type ReportQuery } from './analytics/Trend';
import { ScoresPanel } from './quality/ScoresPanel';

const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
  { value: 'custom', label: 'Custom range' },
];

/**
 * Analytics of the calls and text messages the user can see: the figures, trend and breakdowns exactly as
 * /api/v1/analytics/detailed and /trends answer them, over whole days in the account's display zone
 * (end exclusive), which also buckets the trend and the hours of day.
 */
export default function Analytics() {
  const f = useFormat();
  const shown = f.time;
  const [preset, setPreset] = useState('30');
  const today = dayIn(new Date(), f.zone);
  const [from, setFrom] = useState(today);
  const [to, setTo] = useState(today);
  const [campaigns, setCampaigns] = useState<string[]>([]);
  const [callTypes, setCallTypes] = useState<string[]>([]);
  const [compare, setCompare] = useState(false);
  const [granularity, setGranularity] = useState('auto');

  const period = periodOf(preset, from, to, f.zone);
  const query: ReportQuery | null = 'error' in period ? null : {
    start_date: period.start.toISOString(),
    end_date: period.end.toISOString(),
    timezone: f.zone,
    ...(campaigns[0] ? { campaign_id: Number(campaigns[0]) } : {}),
    ...(callTypes.length ? { call_types: callTypes as CallType[] } : {}),
  };
  const detailedQuery = { ...query, ...(compare ? { compare_with_previous: true } : {}) };
  const detailed = useDetailedReport(detailedQuery, query !== null);
  const report = detailed.data;

  return (
    <Stack>
      <Title order={2}>Analytics</Title>
      <Group align="start" wrap="wrap">
        <Select label="Period" data={PERIODS} value={preset} onChange={(v) => v && setPreset(v)} allowDeselect={false} w={180} />
        {preset === 'custom' && (
          <>
            <TextInput label="From" type="date" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={170} />
            <TextInput label="To" type="date" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={170}
              description="included" error={'error' in period ? period.error : undefined} />
          </>
        )}
        <CampaignPicker label="Campaigns" value={campaigns} onChange={setCampaigns} maxValues={1} includeArchived placeholder="All campaigns"
          description="One campaign, or leave empty for all" />
        <MultiSelect label="Call type" data={CALL_TYPES} value={callTypes} onChange={setCallTypes} placeholder={callTypes.length ? undefined : 'All calls'} clearable miw={200} />
        <Select label="Granularity" data={GRANULARITIES} value={granularity} onChange={(v) => v && setGranularity(v)} allowDeselect={false} w={150} />
        <Switch label="Compare with previous period" checked={compare} onChange={(e) => setCompare(e.currentTarget.checked)} mt={30} />
      </Group>
      {report && (
        <Text size="sm" c="dimmed">
          Period: {shown(report.period.start)} to {shown(report.period.end)} (end excluded)
          {report.previous && <> · previous period: {shown(report.previous.period.start)} to {shown(report.previous.period.end)}</>}
        </Text>
      )}
      <Problem error={detailed.error} />
      {detailed.isFetching && !report && <Text c="dimmed">Loading figures…</Text>}
      {report && <Figures report={report} />}
      {report && <TextFigures report={report} callTypesChosen={callTypes.length > 0} />}
      <Trend query={query} granularity={granularity} />
      {report && <Breakdowns report={report} />}
      <ScoresPanel campaignId={campaigns[0] ? Number(campaigns[0]) : null} period={query?.start_date && query.end_date ? { from: query.start_date, to: query.end_date } : null} />
      <Definitions />
    </Stack>
  );
}
