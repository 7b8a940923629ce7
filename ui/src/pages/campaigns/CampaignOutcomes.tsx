import { Card, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { useFormat } from '../../format/useFormat';
import { useCampaignOutcomes } from '../analytics/queries';
import { Counts } from '../../components/Counts';

/** The campaign's calls by outcome and by status (the analytics report for this campaign), the statuses no call has left out. */
export function CampaignOutcomes({ campaignId }: { campaignId: number }) {
  const f = useFormat();
  const report = useCampaignOutcomes(campaignId);
  const r = report.data;
  return (
    <Card withBorder component="section" aria-labelledby="campaign-outcomes">
      <Stack gap="sm">
        <Title order={3} id="campaign-outcomes">Outcomes</Title>
        <Problem error={report.error} />
        {report.isPending && <Loader size="sm" aria-label="Loading the outcomes" />}
        {r && (
          <>
            <Text size="sm">
              {r.totals.calls} call{r.totals.calls === 1 ? '' : 's'} · {r.totals.answered} answered · {r.totals.successful} successful
              {r.totals.success_rate != null ? ` (${Math.round(r.totals.success_rate * 100)} %)` : ''}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Counts label="Campaign calls by outcome" head="Outcome" rows={r.by_action_status.map((x) => ({ name: f.outcome(x.action_status), count: x.count }))} />
              <Counts label="Campaign calls by status" head="Status" rows={r.by_status.filter((x) => x.count > 0).map((x) => ({ name: f.callStatus(x.status), count: x.count }))} />
            </SimpleGrid>
          </>
        )}
      </Stack>
    </Card>
  );
}
