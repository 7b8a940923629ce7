import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, NumberInput, Stack, Text, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { usePrivacySettings, useSavePrivacySettings } from './queries';

/**
 * How long the account keeps personal data: a number of days, or until deleted (null). Owners
 * change it (audited); sub-users read it.
 */
export function Retention({ owner }: { owner: boolean }) {
  const settings = usePrivacySettings();
  const save = useSavePrivacySettings();
  const [days, setDays] = useState<number | string | undefined>(undefined);
  const [forever, setForever] = useState(true);
  useEffect(() => {
    if (settings.data && days === undefined) {
      setDays(settings.data.retention_days ?? '');
      setForever(settings.data.retention_days === null);
    }
  }, [settings.data, days]);
  if (days === undefined) return settings.error ? <Problem error={settings.error} /> : <Text role="status">Loading the retention…</Text>;
  const problem = save.error instanceof ApiProblem ? save.error : null;
  const placed = fieldError(problem, 'retention_days');
  const submit = () => save.mutate({ retention_days: forever ? null : (typeof days === 'number' ? days : Number.parseInt(days, 10)) });
  return (
    <Card withBorder>
      <form aria-labelledby="retention-title" onSubmit={(e) => { e.preventDefault(); if (owner) submit(); }}>
        <Stack>
          <Title order={3} size="h4" id="retention-title">Retention</Title>
          <Text size="sm">
            After this many days from a call, text or webhook delivery, its words are emptied (transcripts, summaries, recordings&apos; links,
            texts, payloads); statuses, times, durations, costs and outcomes stay, and so do the contacts. The job runs hourly.
          </Text>
          {!owner && <Alert color="gray" title="Read only">Only the account owner changes the retention.</Alert>}
          <Checkbox
            label="Keep until deleted" checked={forever} disabled={!owner}
            onChange={(e) => { setForever(e.currentTarget.checked); save.reset(); }}
          />
          <NumberInput
            label="Keep personal data for (days)" description="1 to 36500" min={1} max={36500} clampBehavior="none" allowDecimal={false}
            readOnly={!owner} disabled={forever} value={forever ? '' : days}
            onChange={(v) => { setDays(v); save.reset(); }} error={placed}
          />
          {save.error && !placed && <Problem error={save.error} />}
          {owner && (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save retention</Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
