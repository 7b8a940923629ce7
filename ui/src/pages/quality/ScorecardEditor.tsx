import { useEffect, useState } from 'react';
import { ActionIcon, Button, Checkbox, Fieldset, Group, NumberInput, Paper, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { Problem } from '../../components/Problem';
import { SCORE_TAG_LABELS, SCORE_TAGS } from '../calls/filters';
import { useSaveScorecard, useScorecard, type ScorecardInput } from './queries';

type Criterion = NonNullable<ScorecardInput['criteria']>[number];
type Row = Omit<Criterion, 'options'> & { options: string };

const TYPES = [
  { value: 'boolean', label: 'Yes / no' },
  { value: 'scale', label: 'Scale 1–5' },
  { value: 'category', label: 'Category' },
];

/** "positive:1, neutral:0.5" ⇄ the API's options; a label without a value counts 0. */
const optionsText = (c: Criterion) => (c.options ?? []).map((o) => `${o.label}:${o.value}`).join(', ');
function optionsOf(text: string): Criterion['options'] {
  return text.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const at = s.lastIndexOf(':');
    const value = at > 0 ? Number(s.slice(at + 1)) : 0;
    return { label: at > 0 ? s.slice(0, at).trim() : s, value: Number.isFinite(value) ? value : 0 };
  });
}

/** The API's 422 for one field of one criterion (loc body.criteria.i.field…). */
function rowError(error: unknown, i: number, field: string): string | undefined {
  if (!(error instanceof ApiProblem)) return undefined;
  return error.fields.find((f) => f.loc[1] === 'criteria' && f.loc[2] === i && f.loc[3] === field)?.msg;
}

/**
 * A campaign's scorecard (GET/PUT /campaigns/{id}/scorecard): the criteria an LLM judges on each
 * finished call, their weights and the problem tags. Off by default (each judged call costs an
 * LLM request); only the owner changes it.
 */
export function ScorecardEditor({ campaignId, isOwner }: { campaignId: number; isOwner: boolean }) {
  const card = useScorecard(campaignId);
  const save = useSaveScorecard(campaignId);
  const [draft, setDraft] = useState<{ enabled: boolean; rows: Row[]; tags: string[] } | undefined>(undefined);
  useEffect(() => {
    if (card.data && !draft) setDraft({ enabled: card.data.enabled, tags: [...card.data.tags], rows: card.data.criteria.map((c) => ({ ...c, options: optionsText(c) })) });
  }, [card.data, draft]);
  if (!draft) return card.error ? <Problem error={card.error} /> : null;
  const change = (next: Partial<typeof draft>) => { setDraft({ ...draft, ...next }); save.reset(); };
  const setRow = (i: number, patch: Partial<Row>) => change({ rows: draft.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)) });
  const submit = () => save.mutate({
    enabled: draft.enabled,
    tags: draft.tags as ScorecardInput['tags'],
    criteria: draft.rows.map(({ options, ...r }) => (r.type === 'category' ? { ...r, options: optionsOf(options) } : r)),
  });
  const placed = save.error instanceof ApiProblem && save.error.fields.length > 0 && save.error.fields.every((f) => f.loc[1] === 'criteria' && typeof f.loc[2] === 'number');
  return (
    <form onSubmit={(e) => { e.preventDefault(); if (isOwner) submit(); }} aria-label="Scorecard">
      <Fieldset legend="Call scorecard">
        <Stack gap="sm">
          <Switch label="Score every finished call" checked={draft.enabled} disabled={!isOwner} onChange={(e) => change({ enabled: e.currentTarget.checked })}
            description="An LLM judges each call's transcript on these questions after its webhooks are sent (one LLM request per call). Off by default." />
          {card.data?.is_default && <Text size="sm" c="dimmed">The default card: save it to make it this campaign's own.</Text>}
          {draft.rows.map((r, i) => (
            <Paper key={i} withBorder p="xs" aria-label={`Criterion ${i + 1}`}>
              <Stack gap={6}>
                <Group gap="xs" align="flex-start" wrap="wrap">
                  <Textarea label="Question" style={{ flex: '1 1 260px' }} autosize minRows={1} value={r.question} maxLength={300} readOnly={!isOwner}
                    onChange={(e) => setRow(i, { question: e.currentTarget.value })} error={rowError(save.error, i, 'question')} />
                  <Select label="Answer" w={130} data={TYPES} value={r.type} allowDeselect={false} readOnly={!isOwner}
                    onChange={(v) => v && setRow(i, { type: v as Row['type'] })} error={rowError(save.error, i, 'type')} />
                  <NumberInput label="Weight" w={90} min={0} max={10} step={0.5} value={r.weight} readOnly={!isOwner}
                    onChange={(v) => setRow(i, { weight: typeof v === 'number' ? v : Number(v) || 0 })} error={rowError(save.error, i, 'weight')} />
                </Group>
                <Group gap="xs" align="flex-end" wrap="wrap">
                  <TextInput label="Key" w={180} value={r.key} maxLength={40} readOnly={!isOwner} description="lower case, _ and digits"
                    onChange={(e) => setRow(i, { key: e.currentTarget.value })} error={rowError(save.error, i, 'key')} />
                  {r.type === 'category' && (
                    <TextInput label="Options (label:value 0–1)" style={{ flex: '1 1 240px' }} placeholder="positive:1, neutral:0.5, negative:0" value={r.options} readOnly={!isOwner}
                      onChange={(e) => setRow(i, { options: e.currentTarget.value })} error={rowError(save.error, i, 'options')} />
                  )}
                  {isOwner && (
                    <ActionIcon variant="subtle" color="red" aria-label={`Remove criterion ${i + 1}`} onClick={() => change({ rows: draft.rows.filter((_, j) => j !== i) })}>✕</ActionIcon>
                  )}
                </Group>
              </Stack>
            </Paper>
          ))}
          {isOwner && draft.rows.length < 20 && (
            <Button variant="default" size="xs" w="fit-content"
              onClick={() => change({ rows: [...draft.rows, { key: `criterion_${draft.rows.length + 1}`, question: '', type: 'boolean', weight: 1, options: '' }] })}>
              Add a criterion
            </Button>
          )}
          <Checkbox.Group label="Problems to look for" value={draft.tags} onChange={(v) => isOwner && change({ tags: v })}>
            <Group gap="md" mt={4}>
              {SCORE_TAGS.map((t) => <Checkbox key={t} value={t} label={SCORE_TAG_LABELS[t]} disabled={!isOwner} />)}
            </Group>
          </Checkbox.Group>
          <Text size="xs" c="dimmed">Score 0–100: the weighted mean of the answers (yes 1, no 0; scale (n − 1) / 4; a category its option's value). Problems do not change it.</Text>
          {save.error && !placed && <Problem error={save.error} />}
          {isOwner ? (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Scorecard saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save scorecard</Button>
            </Group>
          ) : <Text size="sm">Only the account owner changes the scorecard.</Text>}
        </Stack>
      </Fieldset>
    </form>
  );
}
