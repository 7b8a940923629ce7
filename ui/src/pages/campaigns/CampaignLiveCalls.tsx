import { Anchor, Card, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import { shownCalls } from '../live/live-board';
import { LiveCallCard } from '../live/LiveCallCard';
import { useLiveCalls } from '../live/queries';
import { useNow } from '../live/useNow';
import { useCampaignFollowLive } from './queries';

/**
 * The campaign's calls in progress, compact (who, state, time, the last turn), with a link to the
 * Live page for their whole transcripts; and, over the same stream, the page's figures kept current.
 */
export function CampaignLiveCalls({ campaignId }: { campaignId: number }) {
  useCampaignFollowLive(campaignId);
  const live = useLiveCalls(campaignId);
  const now = useNow();
  const calls = shownCalls(live.board, now);
  return (
    <Card withBorder component="section" aria-labelledby="campaign-live-calls">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} id="campaign-live-calls">Calls in progress</Title>
          <Anchor component={Link} to={`/live?campaign_id=${campaignId}`}>Follow them on the Live page</Anchor>
        </Group>
        <Problem error={live.error} />
        {live.isPending && <Loader size="sm" aria-label="Loading the calls in progress" />}
        {!live.isPending && !live.error && calls.length === 0 && <Text c="dimmed">No calls in progress.</Text>}
        {calls.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }}>
            {calls.map((call) => <LiveCallCard key={call.id} call={call} now={now} compact />)}
          </SimpleGrid>
        )}
      </Stack>
    </Card>
  );
}
