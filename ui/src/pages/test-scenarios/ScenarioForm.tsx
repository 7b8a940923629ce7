import { useState } from 'react';
import { Button, Fieldset, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCreateScenario, useTemplates, useUpdateScenario, type Scenario } from './queries';

const EMPTY = { template: '', name: '', who: '', goal: '', style: '', language: 'English', criteria: '' };

const valuesOf = (s: Scenario) => ({ template: s.template ?? '', name: s.name, ...s.persona, style: s.persona.style ?? '', criteria: s.criteria.join('\n') });

/**
 * Writes a test scenario: a ready-made one (its persona and criteria filled in, still editable) or
 * one by hand; given `scenario`, changes that one (PUT: its name, persona and criteria). Criteria are
 * one per line (1 to 10, each at most 300 characters: the API's 422 shows here).
 */
export function ScenarioForm({ campaignId, scenario, onCreated, onDone }: {
  campaignId: number; scenario?: Scenario; onCreated?: (id: number) => void; onDone?: () => void;
}) {
  const templates = useTemplates();
  const created = useCreateScenario(campaignId);
  const updated = useUpdateScenario(campaignId);
  // The mutation whose error and state the fields show.
  const save = scenario ? updated : created;
  const [form, setForm] = useState(scenario ? valuesOf(scenario) : EMPTY);
  const change = (next: Partial<typeof EMPTY>) => { setForm({ ...form, ...next }); save.reset(); };
  const pick = (key: string | null) => {
    const t = templates.data?.items.find((x) => x.key === key);
    if (!t) return change({ ...EMPTY, template: '' });
    change({ template: t.key, name: t.name, ...t.persona, criteria: t.criteria.join('\n') });
  };
  const submit = () => {
    const criteria = form.criteria.split('\n').map((c) => c.trim()).filter(Boolean);
    const persona = { who: form.who.trim(), goal: form.goal.trim(), style: form.style.trim(), language: form.language.trim() };
    if (scenario) {
      updated.mutate({ id: scenario.id, body: { name: form.name.trim(), persona, criteria } }, { onSuccess: () => onDone?.() });
      return;
    }
    created.mutate({ name: form.name.trim(), ...(form.template ? { template: form.template as never } : {}), persona, criteria }, {
      onSuccess: (s) => { setForm(EMPTY); onCreated?.(s.id); },
    });
  };
  const title = scenario ? `Edit ${scenario.name}` : 'New test scenario';
  // A persona field's error is at body.persona.<field> (or body.persona when it is missing).
  const personaError = (f: string) => (save.error instanceof ApiProblem ? save.error.fields.find((x) => x.loc[1] === 'persona' && (x.loc[2] === f || x.loc.length === 2))?.msg : undefined);
  const criteriaError = fieldError(save.error, 'criteria');
  return (
    <form onSubmit={(e) => { e.preventDefault(); submit(); }} aria-label={title}>
      <Fieldset legend={title}>
        <Stack gap="sm">
          {!scenario && <Select
            label="Start from" placeholder="Write my own" clearable value={form.template || null} onChange={pick}
            data={(templates.data?.items ?? []).map((t) => ({ value: t.key, label: t.name }))}
            description="A ready-made caller fills in the persona and criteria; change them as you like."
          />}
          <TextInput label="Name" required maxLength={200} value={form.name} onChange={(e) => change({ name: e.currentTarget.value })} error={fieldError(save.error, 'name')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label="Who the caller is" required maxLength={500} value={form.who} onChange={(e) => change({ who: e.currentTarget.value })} error={personaError('who')} />
            <TextInput label="What they want" required maxLength={500} value={form.goal} onChange={(e) => change({ goal: e.currentTarget.value })} error={personaError('goal')} />
            <TextInput label="How they talk" maxLength={300} value={form.style} onChange={(e) => change({ style: e.currentTarget.value })} />
            <TextInput label="Language" required maxLength={50} value={form.language} onChange={(e) => change({ language: e.currentTarget.value })} />
          </SimpleGrid>
          <Textarea
            label="Success criteria, one per line" required autosize minRows={3} value={form.criteria}
            placeholder={'The agent offers a callback time\nThe agent ends the call politely'}
            onChange={(e) => change({ criteria: e.currentTarget.value })} error={criteriaError}
            description="Plain words, up to 10, each at most 300 characters."
          />
          {save.error && !criteriaError && !fieldError(save.error, 'name') && <Problem error={save.error} />}
          <Group justify="flex-end">
            {scenario && <Button variant="default" onClick={onDone}>Cancel</Button>}
            <Button type="submit" loading={save.isPending}>{scenario ? 'Save changes' : 'Save scenario'}</Button>
          </Group>
        </Stack>
      </Fieldset>
    </form>
  );
}
