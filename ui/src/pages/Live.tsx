import { Group, Loader, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { Problem } from '../components/Problem';
import { useCampaignOptions } from './campaigns/queries';
import { byCampaign, shownCalls } from './live/live-board';
import { LiveCallCard } from './live/LiveCallCard';
import { useLiveCalls } from './live/queries';
import { useNow } from './live/useNow';

const NO_CALLS = 'No calls in progress. Calls appear here as soon as the dialer starts them.';

/**
 * Live: the calls in progress, by campaign, each with its transcript as it is spoken (the live
 * stream, GET /api/v1/live/events, over the state GET /api/v1/live/calls answers). The campaign
 * filter lives in the URL (`?campaign_id=`), so a board of one campaign can be shared.
 */
export default function Live() {
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('campaign_id'));
  const campaignId = Number.isInteger(chosen) && chosen > 0 ? chosen : undefined;
  const campaigns = useCampaignOptions();
  const choose = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set('campaign_id', value);
    else next.delete('campaign_id');
    setParams(next, { replace: true });
  };
  return (
    <Stack>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={2}>Live</Title>
        <Select
          label="Campaign" placeholder="All campaigns" clearable w={280}
          data={campaigns.options} value={campaignId === undefined ? null : String(campaignId)} onChange={choose}
        />
      </Group>
      <Problem error={campaigns.error} />
      {/* One board per scope: another campaign starts from its own state and stream. */}
      <LiveBoard key={campaignId ?? 'all'} campaignId={campaignId} />
    </Stack>
  );
}

function LiveBoard({ campaignId }: { campaignId: number | undefined }) {
  const live = useLiveCalls(campaignId);
  const now = useNow();
  const calls = shownCalls(live.board, now);
  const inProgress = calls.filter((c) => !c.ended).length;
  if (live.error) return <Problem error={live.error} />;
  if (live.isPending) return <Loader aria-label="Loading the calls in progress" />;
  return (
    <Stack>
      <Text size="sm" role="status">{inProgress === 1 ? '1 call in progress' : `${inProgress} calls in progress`}</Text>
      {calls.length === 0 && <Text>{NO_CALLS}</Text>}
      {byCampaign(calls).map((group) => (
        <Stack key={group.campaignId} component="section" aria-labelledby={`live-campaign-${group.campaignId}`} gap="xs">
          <Title order={3} id={`live-campaign-${group.campaignId}`}>{group.title}</Title>
          <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
            {group.calls.map((call) => <LiveCallCard key={call.id} call={call} now={now} />)}
          </SimpleGrid>
        </Stack>
      ))}
    </Stack>
  );
}
