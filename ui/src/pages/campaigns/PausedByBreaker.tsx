import { Alert, Button, Group, Text } from '@mantine/core';
import type { Answer } from '../../api/types';
import { Problem } from '../../components/Problem';
import { useFormat } from '../../format/useFormat';
import type { Campaign } from './model';
import { useCampaignSummary, useChangeCampaignState } from './queries';

type PausedBy = NonNullable<Answer<'summarise_campaign'>['paused_by']>;

/** "2 minutes", "90 seconds", "1 hour": the window as a person says it. */
export function windowPhrase(seconds: number): string {
  const [n, unit] = seconds % 3600 === 0 ? [seconds / 3600, 'hour'] : seconds % 60 === 0 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** "Paused automatically: 6 of 9 calls failed in the last 2 minutes". */
export const pausedSentence = (p: PausedBy) =>
  `Paused automatically: ${p.failures} of ${p.attempts} calls failed in the last ${windowPhrase(p.window_seconds)}`;

/**
 * The banner of a campaign that paused itself (the summary's paused_by): why, when, and Resume,
 * which clears it and counts failures afresh from then.
 */
export function PausedByBreaker({ campaign }: { campaign: Campaign }) {
  const f = useFormat();
  const summary = useCampaignSummary(campaign.id);
  const change = useChangeCampaignState(campaign.id);
  const paused = summary.data?.paused_by;
  if (!paused || !campaign.is_paused) return null;
  return (
    <Alert color="red" variant="light" title={pausedSentence(paused)} role="alert" aria-label="Paused automatically">
      <Group justify="space-between" align="flex-end">
        <Text size="sm">
          At {f.time(paused.at)} at least {Math.round(paused.failure_rate_threshold * 100)}% of the campaign&apos;s calls failed (failed, invalid number,
          rejected by the carrier, or refused by the voice vendor), so it stopped placing calls. Check the numbers, the caller ID and the voice
          vendor, then resume: failures are counted afresh from then.
        </Text>
        <Button color="red" loading={change.isPending} onClick={() => change.mutate({ is_paused: false })}>Resume</Button>
      </Group>
      <Problem error={change.error} />
    </Alert>
  );
}
