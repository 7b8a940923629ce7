import { useState } from 'react';
import { Anchor, Badge, Button, Fieldset, Group, NumberInput, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ApiProblem } from '../../api/client';
import { Problem } from '../../components/Problem';
import type { Campaign } from '../campaigns/model';
import { useAssistantChoices, useCreateExperiment, useExperiments, useExperimentStep, type Experiment } from './queries';

type Source = 'version' | 'text' | 'assistant';
interface Draft { label: string; source: Source; version: string | null; text: string; assistant: string | null; weight: number }
const blank = (): Draft => ({ label: '', source: 'version', version: null, text: '', assistant: null, weight: 50 });

// Filled badges with 4.5:1 contrast (as PromptHistory's).
const STATUS_COLOR = { draft: { color: 'gray.7', c: 'white' }, running: { color: 'teal.9', c: 'white' }, stopped: { color: 'dark.6', c: 'white' } } as const;

/** The API's 422 for one field of the form, e.g. ['body', 'variants', 0, 'assistant_id']. */
const problemAt = (error: unknown, ...path: (string | number)[]) =>
  error instanceof ApiProblem ? error.fields.find((f) => path.every((p, i) => f.loc[i + 1] === p))?.msg : undefined;

/**
 * A campaign's experiments: its approved prompt (the control) against up to three variants, each a
 * prompt version, a new text or an assistant, with traffic weights; started, stopped, and their
 * results on their own page. Only the owner creates, starts and stops (the API's 403).
 */
export function ExperimentsSection({ campaign, isOwner }: { campaign: Campaign; isOwner: boolean }) {
  const experiments = useExperiments(campaign.id);
  const step = useExperimentStep(campaign.id);
  const [creating, setCreating] = useState(false);
  return (
    <Fieldset legend="Experiments" aria-label="Experiments">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">Test the approved prompt against other versions or assistants: each contact gets one variant (always the same one), and the results say which gets more interested people.</Text>
        <Problem error={experiments.error ?? step.error} />
        {experiments.data?.data.length === 0 && <Text size="sm">No experiment yet.</Text>}
        {experiments.data?.data.map((e: Experiment) => (
          <Group key={e.id} justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs" wrap="wrap">
              <Badge {...STATUS_COLOR[e.status]}>{e.status}</Badge>
              <Anchor component={Link} to={`/campaigns/${campaign.id}/experiments/${e.id}`}>{e.name}</Anchor>
              <Text size="sm" c="dimmed">{e.variants.map((v) => `${v.label} ${Math.round(v.share * 100)}%`).join(' · ')}</Text>
            </Group>
            {isOwner && e.status === 'draft' && <Button size="xs" onClick={() => step.mutate({ id: e.id, step: 'start' })} loading={step.isPending}>Start {e.name}</Button>}
            {isOwner && e.status === 'running' && <Button size="xs" color="red.9" variant="outline" onClick={() => step.mutate({ id: e.id, step: 'stop' })} loading={step.isPending}>Stop {e.name}</Button>}
          </Group>
        ))}
        {isOwner && !creating && <Group><Button variant="light" onClick={() => setCreating(true)}>New experiment</Button></Group>}
        {isOwner && creating && <ExperimentForm campaign={campaign} onDone={() => setCreating(false)} />}
        {!isOwner && <Text size="sm">Only the account owner creates, starts and stops experiments.</Text>}
      </Stack>
    </Fieldset>
  );
}

function ExperimentForm({ campaign, onDone }: { campaign: Campaign; onDone: () => void }) {
  const create = useCreateExperiment(campaign.id);
  const assistants = useAssistantChoices(true);
  const [name, setName] = useState('');
  const [controlWeight, setControlWeight] = useState(50);
  const [minCalls, setMinCalls] = useState(100);
  const [variants, setVariants] = useState<Draft[]>([blank()]);
  const versions = (campaign.prompt_history ?? []).filter((e) => e.status !== 'rejected').map((e) => {
    const p = e.prompt_data.prompt;
    const words = typeof p === 'string' ? p : JSON.stringify(p ?? '');
    return { value: String(e.id), label: `#${e.id} (${e.status.replace('_', ' ')}): ${words.slice(0, 60)}${words.length > 60 ? '…' : ''}` };
  });
  const assistantChoices = (assistants.data?.data ?? []).map((a) => ({ value: String(a.id), label: `${a.name} (${a.provider})` }));
  const change = (i: number, next: Partial<Draft>) => { setVariants(variants.map((v, j) => (j === i ? { ...v, ...next } : v))); create.reset(); };
  const submit = () => create.mutate({
    name: name.trim(), control_weight: controlWeight, min_calls_per_variant: minCalls,
    variants: variants.map((v) => ({
      ...(v.label.trim() && { label: v.label.trim() }), weight: v.weight,
      ...(v.source === 'version' && v.version && { prompt_history_id: Number(v.version) }),
      ...(v.source === 'text' && { prompt: v.text }),
      ...(v.source === 'assistant' && v.assistant && { assistant_id: Number(v.assistant) }),
    })),
  }, { onSuccess: onDone });
  const known = problemAt(create.error, 'name') ?? problemAt(create.error, 'control_weight') ?? problemAt(create.error, 'min_calls_per_variant') ?? problemAt(create.error, 'variants');
  return (
    <form aria-label="New experiment" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Stack gap="sm">
        <TextInput label="Name" required maxLength={120} value={name} onChange={(e) => { setName(e.currentTarget.value); create.reset(); }} error={problemAt(create.error, 'name')} />
        <Group grow wrap="wrap">
          <NumberInput label="Control weight" description="the approved prompt" min={1} max={100} value={controlWeight} onChange={(v) => setControlWeight(Number(v) || 1)} error={problemAt(create.error, 'control_weight')} />
          <NumberInput label="Minimum calls per variant" description="before a winner may be declared" min={10} max={100000} value={minCalls} onChange={(v) => setMinCalls(Number(v) || 10)} error={problemAt(create.error, 'min_calls_per_variant')} />
        </Group>
        {variants.map((v, i) => (
          <Fieldset key={i} legend={`Variant ${String.fromCharCode(65 + i)}`} aria-label={`Variant ${String.fromCharCode(65 + i)}`}>
            <Stack gap="xs">
              <Group grow wrap="wrap">
                <TextInput label="Label" placeholder={`Variant ${String.fromCharCode(65 + i)}`} maxLength={80} value={v.label} onChange={(e) => change(i, { label: e.currentTarget.value })} />
                <NumberInput label="Weight" min={1} max={100} value={v.weight} onChange={(w) => change(i, { weight: Number(w) || 1 })} error={problemAt(create.error, 'variants', i, 'weight')} />
              </Group>
              <Select label="Test" allowDeselect={false} value={v.source} onChange={(s) => s && change(i, { source: s as Source })}
                data={[{ value: 'version', label: 'A version from the prompt history' }, { value: 'text', label: 'A new prompt text' }, { value: 'assistant', label: 'Another assistant' }]} />
              {v.source === 'version' && <Select label="Prompt version" data={versions} value={v.version} onChange={(s) => change(i, { version: s })} error={problemAt(create.error, 'variants', i, 'prompt_history_id') ?? problemAt(create.error, 'variants', i)} />}
              {v.source === 'text' && <Textarea label="Prompt text" description="Saved in the prompt history as pending: only this experiment's calls use it until it is approved or made live." autosize minRows={3} maxLength={20000} value={v.text} onChange={(e) => change(i, { text: e.currentTarget.value })} error={problemAt(create.error, 'variants', i, 'prompt') ?? problemAt(create.error, 'variants', i)} />}
              {v.source === 'assistant' && <Select label="Assistant" description="It must use the same voice provider and connection as the campaign’s assistant." data={assistantChoices} value={v.assistant} onChange={(s) => change(i, { assistant: s })} error={problemAt(create.error, 'variants', i, 'assistant_id') ?? problemAt(create.error, 'variants', i)} />}
              {variants.length > 1 && <Group justify="flex-end"><Button size="xs" variant="subtle" color="red.9" onClick={() => setVariants(variants.filter((_, j) => j !== i))}>Remove variant {String.fromCharCode(65 + i)}</Button></Group>}
            </Stack>
          </Fieldset>
        ))}
        {known && <Text size="sm" c="red.9" role="alert">{known}</Text>}
        {create.error && !(create.error instanceof ApiProblem && create.error.fields.length > 0) && <Problem error={create.error} />}
        <Group justify="space-between">
          <Button variant="subtle" disabled={variants.length >= 3} onClick={() => setVariants([...variants, blank()])}>Add a variant</Button>
          <Group>
            <Button variant="default" onClick={onDone}>Cancel</Button>
            <Button type="submit" loading={create.isPending}>Create experiment</Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
