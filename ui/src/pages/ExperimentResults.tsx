import { useState } from 'react';
import { Alert, Anchor, Breadcrumbs, Button, Checkbox, Group, List, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router-dom';
import { useSession } from './session/queries';
import { idFromPath, isNotFound, NotFound } from '../components/NotFound';
import { Problem } from '../components/Problem';
import { useFormat } from '../format/useFormat';
import { useCampaign } from './campaigns/queries';
import { useExperimentResults, usePromote, type VariantResult } from './experiments/queries';

const pct = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : `${(x * 100).toFixed(digits)}%`);
const pValue = (p: number | null) => (p === null ? '—' : p < 0.001 ? '< 0.001' : p.toFixed(3));
const STATE_COLOR = { collecting: 'gray', winner: 'teal', no_winner_yet: 'yellow' } as const;

/**
 * /campaigns/:id/experiments/:experimentId: an experiment's results per variant, what the
 * confidence figures mean in words, the stopping rule's state and "Make the winner live".
 */
export default function ExperimentResultsPage() {
  const { id, experimentId } = useParams();
  const campaignId = idFromPath(id);
  const eid = idFromPath(experimentId);
  const session = useSession();
  const isOwner = session.data?.kind === 'user';
  const campaign = useCampaign(campaignId ?? 0, campaignId !== null);
  const results = useExperimentResults(campaignId ?? 0, eid ?? 0);
  const promote = usePromote(campaignId ?? 0, eid ?? 0);
  const [force, setForce] = useState<number | null>(null);
  const format = useFormat();
  if (campaignId === null || eid === null || isNotFound(results.error)) return <NotFound what="experiment" value={experimentId} back={{ to: campaignId ? `/campaigns/${campaignId}` : '/campaigns', label: 'Back to the campaign' }} />;
  const r = results.data;
  const winner = r?.variants.find((v) => v.variant_id === r.stopping_rule.winner_variant_id);
  const promoted = r?.experiment.promoted_variant_id ?? null;
  const live = (v: VariantResult, forced: boolean) => promote.mutate({ variant_id: v.variant_id, ...(forced && { force: true }) });
  return (
    <Stack>
      <Breadcrumbs aria-label="Breadcrumb">
        <Anchor component={Link} to="/campaigns">Campaigns</Anchor>
        <Anchor component={Link} to={`/campaigns/${campaignId}`}>{campaign.data?.title ?? `Campaign ${campaignId}`}</Anchor>
        <Text>{r?.experiment.name ?? 'Experiment'}</Text>
      </Breadcrumbs>
      <Title order={2}>{r ? `Experiment: ${r.experiment.name}` : 'Experiment'}</Title>
      <Problem error={results.error} />
      {results.isPending && <Loader aria-label="Loading the results" />}
      {r && (
        <>
          <Text size="sm">Status: <b>{r.experiment.status}</b>{r.experiment.started_at && ` · started ${format.time(r.experiment.started_at)}`}{r.experiment.stopped_at && ` · stopped ${format.time(r.experiment.stopped_at)}`}</Text>
          <Alert color={STATE_COLOR[r.stopping_rule.state]} title={r.stopping_rule.state === 'winner' ? 'A winner' : r.stopping_rule.state === 'collecting' ? 'Still collecting calls' : 'No winner yet'} role="status">
            {r.stopping_rule.explanation}
          </Alert>
          <Table.ScrollContainer minWidth={860}>
            <Table striped aria-label="Results per variant">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Variant</Table.Th><Table.Th>Calls</Table.Th><Table.Th>Contacts</Table.Th><Table.Th>Reached</Table.Th><Table.Th>Interested</Table.Th>
                  <Table.Th>Avg duration</Table.Th><Table.Th>Cost per interested</Table.Th><Table.Th>Score</Table.Th><Table.Th>p-value vs control</Table.Th><Table.Th>Chance to be best</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.variants.map((v) => (
                  <Table.Tr key={v.variant_id}>
                    <Table.Td><b>{v.label}</b>{v.kind === 'assistant' && ' (assistant)'}{promoted === v.variant_id && ' · live'}</Table.Td>
                    <Table.Td>{v.calls}{v.meets_minimum ? ' ✓' : ` of ${r.stopping_rule.min_calls_per_variant}`}</Table.Td>
                    <Table.Td>{v.contacts}</Table.Td>
                    <Table.Td>{pct(v.reached_rate)}</Table.Td>
                    <Table.Td>{pct(v.interested_rate)} ({v.interested_contacts})</Table.Td>
                    <Table.Td>{v.average_duration === null ? '—' : `${Math.round(v.average_duration)} s`}</Table.Td>
                    <Table.Td>{v.cost_per_interested === null ? '—' : format.money(v.cost_per_interested)}</Table.Td>
                    <Table.Td>{v.average_score === null ? '—' : v.average_score.toFixed(0)}</Table.Td>
                    <Table.Td>{v.kind === 'control' ? 'control' : pValue(v.p_value)}</Table.Td>
                    <Table.Td>{pct(v.probability_to_be_best)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack gap={4} aria-label="How to read this">
            <Title order={4}>How to read this</Title>
            <List size="sm" spacing={4}>
              <List.Item><b>Reached</b>: calls where someone picked up. <b>Interested</b>: contacts who ended interested, scheduled a callback or were transferred — the figure the experiment compares.</List.Item>
              <List.Item><b>p-value vs control</b>: if the variant were really no different from the control, how often a gap this large would appear by chance. Below 0.05 is usually read as a real difference.</List.Item>
              <List.Item><b>Chance to be best</b>: given the calls so far, the probability that this variant truly has the highest interested rate of all (a Bayesian estimate; the numbers add up to 100%).</List.Item>
              <List.Item><b>Stopping rule</b>: no winner is declared until every variant has {r.stopping_rule.min_calls_per_variant} calls; then a variant with at least {pct(r.stopping_rule.winner_probability, 0)} chance to be best wins. Looking early and stopping on a lucky streak is how tests mislead.</List.Item>
            </List>
          </Stack>
          {r.variants.some((v) => v.fields.length > 0) && (
            <Stack gap={4}>
              <Title order={4}>Extracted fields</Title>
              {r.variants.filter((v) => v.fields.length > 0).map((v) => (
                <Text size="sm" key={v.variant_id}><b>{v.label}</b>: {v.fields.map((f) => `${f.name} filled ${pct(f.filled_rate, 0)}${f.true_rate === null ? '' : `, yes ${pct(f.true_rate, 0)}`}`).join(' · ')}</Text>
              ))}
            </Stack>
          )}
          <Problem error={promote.error} />
          {promoted !== null && <Text role="status">{r.variants.find((v) => v.variant_id === promoted)?.label} is live{r.experiment.promoted_prompt_history_id !== null && ` (prompt version #${r.experiment.promoted_prompt_history_id})`}.</Text>}
          {isOwner && promoted === null && r.experiment.status !== 'draft' && (
            <Stack gap="xs">
              {winner && <Group><Button color="teal.9" loading={promote.isPending} onClick={() => live(winner, false)}>Make the winner live: {winner.label}</Button></Group>}
              {!winner && <Text size="sm">"Make the winner live" is offered once the stopping rule names a winner.</Text>}
              <Group gap="xs" wrap="wrap">
                <Text size="sm">Or make a variant live anyway (your judgement, recorded in the audit trail):</Text>
                {r.variants.filter((v) => v.variant_id !== winner?.variant_id).map((v) => (
                  force === v.variant_id
                    ? <Button key={v.variant_id} size="xs" color="red.9" loading={promote.isPending} onClick={() => live(v, true)}>Confirm: make {v.label} live</Button>
                    : <Checkbox key={v.variant_id} label={v.label} checked={false} onChange={() => setForce(v.variant_id)} />
                ))}
              </Group>
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
