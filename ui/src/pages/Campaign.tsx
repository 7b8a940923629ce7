import { Anchor, Breadcrumbs, Grid, Loader, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { useSession } from './session/queries';
import { idFromPath, isNotFound, NotFound } from '../components/NotFound';
import { Problem } from '../components/Problem';
import { CampaignActions } from './campaigns/CampaignActions';
import { CampaignCalls } from './campaigns/CampaignCalls';
import { CampaignContacts } from './campaigns/CampaignContacts';
import { CampaignForm } from './campaigns/CampaignForm';
import { CampaignLiveCalls } from './campaigns/CampaignLiveCalls';
import { CampaignOutcomes } from './campaigns/CampaignOutcomes';
import { PromptHistory } from './campaigns/PromptHistory';
import { TextMessagesSettings } from './campaigns/TextMessagesSettings';
import { PausedByBreaker } from './campaigns/PausedByBreaker';
import { ProtectionSettings } from './campaigns/ProtectionSettings';
import { CampaignRecording } from './campaigns/CampaignRecording';
import { CampaignRetention } from './campaigns/CampaignRetention';
import { useCampaign } from './campaigns/queries';
import { TestScenarios } from './test-scenarios/TestScenarios';
import { ExperimentsSection } from './experiments/ExperimentsSection';
import { ScorecardEditor } from './quality/ScorecardEditor';

/**
 * /campaigns/new creates a campaign; /campaigns/:id shows its calls in progress, progress, actions, outcomes, contacts, calls,
 * settings and prompt history, its figures kept current by the live stream.
 */
export default function Campaign() {
  const { id } = useParams();
  const creating = id === 'new';
  const campaignId = idFromPath(id);
  const session = useSession();
  const campaign = useCampaign(campaignId ?? 0, !creating && campaignId !== null);
  const crumbs = (
    <Breadcrumbs aria-label="Breadcrumb">
      <Anchor component={Link} to="/campaigns">Campaigns</Anchor>
      <Text>{creating ? 'New campaign' : campaign.data?.title ?? `Campaign ${id}`}</Text>
    </Breadcrumbs>
  );
  if (creating) {
    return (
      <Stack maw={960}>
        {crumbs}
        <Title order={2}>New campaign</Title>
        <CampaignForm />
      </Stack>
    );
  }
  if (campaignId === null || isNotFound(campaign.error)) return <NotFound what="campaign" value={id} back={{ to: '/campaigns', label: 'All campaigns' }} />;
  const c = campaign.data;
  return (
    <Stack>
      {crumbs}
      <Title order={2}>{c?.title ?? 'Campaign'}</Title>
      <Problem error={campaign.error} />
      {campaign.isPending && <Loader aria-label="Loading the campaign" />}
      {c && (
        <>
          <PausedByBreaker campaign={c} />
          <CampaignLiveCalls campaignId={c.id} />
          <CampaignOutcomes campaignId={c.id} />
          <CampaignContacts campaignId={c.id} />
          <CampaignCalls campaignId={c.id} />
          <TestScenarios campaign={c} />
        </>
      )}
      {c && (
        <Grid gap="lg">
          {/* On a phone, progress and actions come before the long form. */}
          <Grid.Col span={{ base: 12, lg: 7 }} order={{ base: 2, lg: 1 }}>
            <Stack>
              <CampaignForm campaign={c} />
              <TextMessagesSettings campaign={c} isOwner={session.data?.kind === 'user'} />
              <ProtectionSettings campaign={c} isOwner={session.data?.kind === 'user'} />
              <CampaignRetention campaign={c} isOwner={session.data?.kind === 'user'} />
              <CampaignRecording campaign={c} isOwner={session.data?.kind === 'user'} />
              <ScorecardEditor campaignId={c.id} isOwner={session.data?.kind === 'user'} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 1, lg: 2 }}>
            <Stack>
              <CampaignActions campaign={c} />
              <PromptHistory campaignId={c.id} entries={c.prompt_history ?? []} isOwner={session.data?.kind === 'user'} />
              <ExperimentsSection campaign={c} isOwner={session.data?.kind === 'user'} />
            </Stack>
          </Grid.Col>
        </Grid>
      )}
    </Stack>
  );
}
