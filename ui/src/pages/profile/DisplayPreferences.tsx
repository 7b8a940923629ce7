import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Group, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { CURRENCIES, type Currency } from '../../format/currencies';
import { formatMoney } from '../../format/money';
import { browserZone, formatTime } from '../../format/time';
import { type DisplayPreferences as Preferences, usePreferences, useUpdatePreferences } from './queries';

/** "The viewer's own zone" as a Select value: a Select's value is text, the API's is null. */
const OWN_ZONE = '';
const FIELDS = ['display_timezone', 'display_currency'];
// A fixed instant and amount, so the preview shows what changes between choices and nothing else.
const SAMPLE_TIME = '2026-11-25T17:00:00Z';
const SAMPLE_COST = 0.075;

/** The browser's zones; a saved zone it does not list (an alias, say Asia/Kolkata where it lists Asia/Calcutta) is offered too. */
function zoneOptions(own: string, saved: string | null) {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const zones = ['UTC', ...(saved && !all.includes(saved) && saved !== 'UTC' ? [saved] : []), ...all.filter((z) => z !== 'UTC')];
  return [{ value: OWN_ZONE, label: `Each viewer's own zone (this browser: ${own})` }, ...zones.map((z) => ({ value: z, label: z }))];
}

function currencyOptions() {
  const names = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(undefined, { type: 'currency' }) : null;
  return CURRENCIES.map((c) => ({ value: c, label: `${c} · ${names?.of(c) ?? c}` }));
}

/**
 * The account's display time zone and currency: every page shows times and money with them
 * (ui/src/format). The owner changes them; a sub-user sees its owner's, read only.
 */
export function DisplayPreferences({ owner }: { owner: boolean }) {
  const preferences = usePreferences();
  const save = useUpdatePreferences();
  const [draft, setDraft] = useState<Preferences | null>(null);
  useEffect(() => {
    if (preferences.data && !draft) setDraft(preferences.data);
  }, [preferences.data, draft]);
  const own = browserZone();
  const saved = preferences.data?.display_timezone ?? null;
  const zones = useMemo(() => zoneOptions(own, saved), [own, saved]);
  const currencies = useMemo(currencyOptions, []);
  if (!draft) return preferences.error ? <Problem error={preferences.error} /> : <Text>Loading the display preferences…</Text>;

  const problem = save.error instanceof ApiProblem ? save.error : null;
  const unplaced = save.error && !(problem && problem.fields.length > 0 && problem.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const set = (next: Partial<Preferences>) => {
    setDraft((d) => (d ? { ...d, ...next } : d));
    save.reset();
  };
  const zone = draft.display_timezone ?? own;
  return (
    <Card withBorder>
      <form aria-labelledby="display-title" onSubmit={(e) => { e.preventDefault(); if (owner) save.mutate(draft); }}>
        <Stack>
          <Title order={3} size="h4" id="display-title">Display time zone and currency</Title>
          <Text size="sm">
            Every page shows times in this zone, with the zone named, and buckets analytics by its days and hours. Costs are shown in
            this currency as the voice provider reported them: nothing is converted.
          </Text>
          {!owner && <Alert color="gray" title="Read only">Only the account owner changes these settings.</Alert>}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="Time zone" data={zones} searchable allowDeselect={false} limit={80} readOnly={!owner}
              value={draft.display_timezone ?? OWN_ZONE} onChange={(v) => set({ display_timezone: v ? v : null })}
              error={fieldError(problem, 'display_timezone')}
            />
            <Select
              label="Currency" data={currencies} searchable allowDeselect={false} limit={80} readOnly={!owner}
              value={draft.display_currency} onChange={(v) => v && set({ display_currency: v as Currency })}
              error={fieldError(problem, 'display_currency')}
            />
          </SimpleGrid>
          <Text size="sm" c="dimmed" aria-live="polite">
            Shown as: {formatTime(SAMPLE_TIME, zone)} · a call costing {formatMoney(SAMPLE_COST, draft.display_currency)}
          </Text>
          {unplaced && <Problem error={save.error} />}
          {owner && (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save display preferences</Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
