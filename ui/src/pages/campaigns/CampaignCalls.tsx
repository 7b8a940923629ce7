import { Anchor, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import { CallsTable } from '../calls/CallsTable';
import { useCallsPage } from '../calls/queries';

const FIRST = 10;

/** The campaign's latest calls (the calls list's first page for it, live) and a link to all of them. */
export function CampaignCalls({ campaignId }: { campaignId: number }) {
  const list = useCallsPage(JSON.stringify({ campaign_id: [String(campaignId)], skip: 0, limit: FIRST }), campaignId);
  const rows = list.data?.data ?? [];
  const total = list.data?.count ?? 0;
  const about = list.data?.count_exact === false ? 'about ' : '';
  return (
    <Card withBorder component="section" aria-labelledby="campaign-calls">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} id="campaign-calls">Calls</Title>
          <Anchor component={Link} to={`/calls?campaign_id=${campaignId}`}>All {about}{total} calls of the campaign</Anchor>
        </Group>
        <Problem error={list.error} />
        {list.isPending && <Loader size="sm" aria-label="Loading the calls" />}
        {!list.isPending && rows.length === 0 && <Text c="dimmed">No calls yet.</Text>}
        {rows.length > 0 && <CallsTable rows={rows} />}
        {total > rows.length && <Text size="sm" c="dimmed">The latest {rows.length} of {about}{total}.</Text>}
      </Stack>
    </Card>
  );
}
