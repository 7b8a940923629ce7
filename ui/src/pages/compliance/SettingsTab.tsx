import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, NumberInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useComplianceSettings, useSaveComplianceSettings } from './queries';
import type { ComplianceSettings } from './model';

const FIELDS = ['quiet_hours_from', 'quiet_hours_to', 'max_calls_per_day', 'max_calls_per_week', 'max_texts_per_day', 'max_texts_per_week'];

/**
 * The account's quiet hours and frequency caps. Owners change them (each change is audited);
 * sub-users read them. The times are text, not a time picker: the end may be 24:00, which a
 * browser's time input cannot hold.
 */
export function SettingsTab({ owner }: { owner: boolean }) {
  const settings = useComplianceSettings();
  const save = useSaveComplianceSettings();
  const [draft, setDraft] = useState<ComplianceSettings | null>(null);
  useEffect(() => {
    if (settings.data && !draft) setDraft(settings.data);
  }, [settings.data, draft]);
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && !(problem && problem.fields.length > 0 && problem.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const set = <K extends keyof ComplianceSettings>(key: K, value: ComplianceSettings[K]) => {
    setDraft((d) => (d ? { ...d, [key]: value } : d));
    save.reset();
  };
  if (!draft) return settings.error ? <Problem error={settings.error} /> : <Text>Loading the settings…</Text>;
  const count = (v: string | number) => (typeof v === 'number' ? v : Number.parseInt(v, 10));
  return (
    <Card withBorder>
      <form aria-labelledby="settings-title" onSubmit={(e) => { e.preventDefault(); if (owner) save.mutate(draft); }}>
        <Stack>
          <Title order={3} size="h4" id="settings-title">Quiet hours and frequency caps</Title>
          <Text size="sm">
            Calls go out only inside the quiet hours, read in each contact&apos;s own local time (its time zone, else every zone of its number).
            Every campaign&apos;s calling window is clipped to them, and texts keep them too. The caps count outbound calls, and apart from them
            outbound texts (answers to the person&apos;s own texts excepted), to one number across all campaigns.
            Every change is written to the audit log with who made it.
          </Text>
          {!owner && <Alert color="gray" title="Read only">Only the account owner changes these settings.</Alert>}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Calling from" description="HH:MM, contact's local time" placeholder="08:00" readOnly={!owner}
              value={draft.quiet_hours_from} onChange={(e) => set('quiet_hours_from', e.currentTarget.value)} error={fieldError(problem, 'quiet_hours_from')}
            />
            <TextInput
              label="Calling until" description="HH:MM, exclusive; 24:00 = midnight; later than from" placeholder="21:00" readOnly={!owner}
              value={draft.quiet_hours_to} onChange={(e) => set('quiet_hours_to', e.currentTarget.value)} error={fieldError(problem, 'quiet_hours_to')}
            />
            <NumberInput
              label="Calls per number per day" description="Rolling 24 hours, all campaigns" min={1} allowDecimal={false} readOnly={!owner}
              value={draft.max_calls_per_day} onChange={(v) => set('max_calls_per_day', count(v))} error={fieldError(problem, 'max_calls_per_day')}
            />
            <NumberInput
              label="Calls per number per week" description="Rolling 7 days, all campaigns; at least the daily cap" min={1} allowDecimal={false} readOnly={!owner}
              value={draft.max_calls_per_week} onChange={(v) => set('max_calls_per_week', count(v))} error={fieldError(problem, 'max_calls_per_week')}
            />
            <NumberInput
              label="Texts per number per day" description="Rolling 24 hours, all campaigns, SMS and WhatsApp" min={1} max={1000} allowDecimal={false} readOnly={!owner}
              value={draft.max_texts_per_day} onChange={(v) => set('max_texts_per_day', count(v))} error={fieldError(problem, 'max_texts_per_day')}
            />
            <NumberInput
              label="Texts per number per week" description="Rolling 7 days, all campaigns; at least the daily cap" min={1} max={1000} allowDecimal={false} readOnly={!owner}
              value={draft.max_texts_per_week} onChange={(v) => set('max_texts_per_week', count(v))} error={fieldError(problem, 'max_texts_per_week')}
            />
          </SimpleGrid>
          {unplaced && <Problem error={save.error} />}
          {owner && (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save</Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
