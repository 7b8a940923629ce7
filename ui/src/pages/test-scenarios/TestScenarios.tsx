import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Card, Group, List, Select, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { useSearchParams } from 'react-router-dom';
import { Problem } from '../../components/Problem';
import type { Campaign } from '../campaigns/model';
import { RunView, RUN_COLOR } from './RunView';
import { ScenarioForm } from './ScenarioForm';
import { useDeleteScenario, useRunScenario, useRuns, useScenarios, useTemplates, type Run, type Scenario } from './queries';

/** What a language model adds, said where runs are made without one. */
const WITHOUT_MODEL =
  'No language model is configured (LLM_BASE_URL), so runs use the scripted demo agent and each scenario\'s scripted caller, and only criteria that can be checked ' +
  'from the transcript and the agent\'s actions are judged (an opt-out recorded, a callback scheduled, a transfer, the call ended politely, a word said or not). ' +
  'With a model, your prompt holds a real conversation with a caller who answers freely, and every criterion gets a verdict, tone and content included.';

/**
 * A campaign's test scenarios (issue 28): write one (or start from a ready-made caller), run it
 * against the prompt calls use now or a pending version from the prompt history (?test_prompt=<id>,
 * set by the history's "Test" button), and read each run's conversation and verdicts.
 */
export function TestScenarios({ campaign }: { campaign: Campaign }) {
  const scenarios = useScenarios(campaign.id);
  const runs = useRuns(campaign.id);
  const templates = useTemplates();
  const run = useRunScenario(campaign.id);
  const [params] = useSearchParams();
  const [prompt, setPrompt] = useState<string>(params.get('test_prompt') ?? 'current');
  const [openRun, setOpenRun] = useState<number | null>(null);
  const [writing, setWriting] = useState(false);
  useEffect(() => {
    const asked = params.get('test_prompt');
    if (asked) setPrompt(asked);
  }, [params]);
  const history = campaign.prompt_history ?? [];
  const pending = history.filter((e) => e.status === 'pending');
  // Versions are numbered oldest first, as the prompt history shows them.
  const versionOf = (id: number) => (history.some((e) => e.id === id) ? history.length - history.findIndex((e) => e.id === id) : `#${id}`);
  const promptChoices = [
    { value: 'current', label: 'The prompt calls use now' },
    ...pending.map((e) => ({ value: String(e.id), label: `Pending version ${versionOf(e.id)}` })),
  ];
  const start = (s: Scenario) => run.mutate(
    { scenarioId: s.id, promptHistoryId: prompt === 'current' ? null : Number(prompt) },
    { onSuccess: (r) => setOpenRun(r.id) },
  );
  const items = scenarios.data?.items ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="test-scenarios-title" id="test-scenarios">
      <Group justify="space-between">
        <Title order={3} id="test-scenarios-title">Test scenarios</Title>
        <Button variant="light" onClick={() => setWriting(!writing)} aria-expanded={writing}>{writing ? 'Close the form' : 'Write a scenario'}</Button>
      </Group>
      <Text size="sm">Simulated callers with success criteria: prove the agent before it calls people. A run plays a text conversation with the campaign's agent, then judges each criterion.</Text>
      {templates.data && !templates.data.model_configured && <Alert color="blue" title="Without a language model" role="note">{WITHOUT_MODEL}</Alert>}
      {writing && <ScenarioForm campaignId={campaign.id} onCreated={() => setWriting(false)} />}
      <Problem error={scenarios.error ?? runs.error} />
      {items.length === 0 && !scenarios.isPending && <Text c="dimmed">No test scenario yet: write one, or start from a ready-made caller.</Text>}
      {items.length > 0 && (
        <Select
          label="Test against" data={promptChoices} value={promptChoices.some((c) => c.value === prompt) ? prompt : 'current'} allowDeselect={false}
          onChange={(v) => v && setPrompt(v)} maw={360}
        />
      )}
      <Problem error={run.error} />
      {items.map((s) => (
        <ScenarioCard key={s.id} campaignId={campaign.id} scenario={s} runs={(runs.data?.items ?? []).filter((r) => r.scenario_id === s.id)}
          running={run.isPending && run.variables?.scenarioId === s.id} onRun={() => start(s)} openRun={openRun} onOpen={setOpenRun} />
      ))}
      {openRun !== null && <RunView campaignId={campaign.id} runId={openRun} promptLabel={(id) => `prompt version ${versionOf(id)}`} />}
    </Stack>
  );
}

function ScenarioCard({ campaignId, scenario, runs, running, onRun, openRun, onOpen }: {
  campaignId: number; scenario: Scenario; runs: Run[]; running: boolean; onRun: () => void; openRun: number | null; onOpen: (id: number) => void;
}) {
  const remove = useDeleteScenario(campaignId);
  const [editing, setEditing] = useState(false);
  if (editing) return <ScenarioForm campaignId={campaignId} scenario={scenario} onDone={() => setEditing(false)} />;
  return (
    <Card withBorder padding="sm" component="article" aria-label={`Scenario ${scenario.name}`}>
      <Stack gap={6}>
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{scenario.name}</Text>
          <Group gap="xs">
            <Button size="xs" loading={running} onClick={onRun}>Run {scenario.name}</Button>
            <Button size="xs" variant="default" onClick={() => setEditing(true)} aria-label={`Edit ${scenario.name}`}>Edit</Button>
            <Button size="xs" variant="subtle" color="red.9" loading={remove.isPending} onClick={() => remove.mutate(scenario.id)} aria-label={`Delete ${scenario.name}`}>Delete</Button>
          </Group>
        </Group>
        <Text size="sm">{scenario.persona.who}: {scenario.persona.goal}{scenario.persona.style ? ` (${scenario.persona.style})` : ''}, in {scenario.persona.language}</Text>
        <List size="sm" spacing={2}>{scenario.criteria.map((c, i) => <List.Item key={i}>{c}</List.Item>)}</List>
        {runs.length > 0 && (
          <Group gap={6} aria-label={`Runs of ${scenario.name}`}>
            <Text size="sm">Runs:</Text>
            {runs.slice(0, 8).map((r) => (
              <UnstyledButton key={r.id} onClick={() => onOpen(r.id)} aria-label={`Open run ${r.id}: ${r.status}`} aria-pressed={openRun === r.id}>
                <Badge variant="filled" color={RUN_COLOR[r.status].color} c={RUN_COLOR[r.status].c} style={{ cursor: 'pointer', outline: openRun === r.id ? '2px solid var(--mantine-color-dark-9)' : undefined }}>
                  #{r.id} {r.status}
                </Badge>
              </UnstyledButton>
            ))}
          </Group>
        )}
        <Problem error={remove.error} />
      </Stack>
    </Card>
  );
}
