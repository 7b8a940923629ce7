import { useEffect, useState } from 'react';
import { Alert, Button, Card, Checkbox, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Problem } from '../../components/Problem';
import { useRedactionSettings, useSaveRedactionSettings } from './queries';
import type { Body } from '../../api/types';

type Choice = Body<'update_redaction_settings'>;
type Category = Choice['categories'][number];
type Place = Choice['places'][number];

const CATEGORIES: { value: Category; label: string; marker: string }[] = [
  { value: 'card', label: 'Payment card numbers', marker: '[CARD]' },
  { value: 'iban', label: 'Bank accounts (IBAN)', marker: '[IBAN]' },
  { value: 'ssn', label: 'National ids (SSN, DNI, NIR)', marker: '[SSN]' },
  { value: 'email', label: 'E-mail addresses', marker: '[EMAIL]' },
  { value: 'phone', label: 'Phone numbers (not the contact’s own)', marker: '[PHONE]' },
  { value: 'address', label: 'Street addresses', marker: '[ADDRESS]' },
  { value: 'dob', label: 'Dates of birth', marker: '[DOB]' },
  { value: 'name', label: 'Names after “my name is” (weak)', marker: '[NAME]' },
];
const PLACES: { value: Place; label: string }[] = [
  { value: 'transcript', label: 'Transcripts and live turns' },
  { value: 'call_data', label: 'The vendor’s analysis and whispers' },
  { value: 'payload', label: 'Webhook payloads' },
];

/**
 * What the account redacts before a call's data is stored or sent, and where: each value becomes
 * its marker. Owners change it (audited); sub-users read it. Campaigns may choose otherwise (API).
 */
export function Redaction({ owner }: { owner: boolean }) {
  const settings = useRedactionSettings();
  const save = useSaveRedactionSettings();
  const [choice, setChoice] = useState<Choice | undefined>(undefined);
  useEffect(() => {
    if (settings.data && choice === undefined) setChoice({ categories: settings.data.categories, places: settings.data.places });
  }, [settings.data, choice]);
  if (!choice) return settings.error ? <Problem error={settings.error} /> : <Text role="status">Loading the redaction…</Text>;
  const toggle = <K extends keyof Choice>(key: K, value: Choice[K][number], on: boolean) => {
    const list = choice[key] as string[];
    setChoice({ ...choice, [key]: on ? [...list, value] : list.filter((x) => x !== value) });
    save.reset();
  };
  return (
    <Card withBorder>
      <form aria-labelledby="redaction-title" onSubmit={(e) => { e.preventDefault(); if (owner) save.mutate(choice); }}>
        <Stack>
          <Title order={3} size="h4" id="redaction-title">Redaction</Title>
          <Text size="sm">
            Before a call&apos;s words are stored or sent, each value of a chosen kind is replaced by its marker; the original is never
            written. Log lines are always redacted. Extraction reads the stored transcript, so a kind redacted there cannot reach a payload.
          </Text>
          {!owner && <Alert color="gray" title="Read only">Only the account owner changes what is redacted.</Alert>}
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend><Text fw={500} size="sm">What</Text></legend>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
              {CATEGORIES.map((c) => (
                <Checkbox
                  key={c.value} label={`${c.label} ${c.marker}`} disabled={!owner}
                  checked={choice.categories.includes(c.value)} onChange={(e) => toggle('categories', c.value, e.currentTarget.checked)}
                />
              ))}
            </SimpleGrid>
          </fieldset>
          <fieldset style={{ border: 0, padding: 0, margin: 0 }}>
            <legend><Text fw={500} size="sm">Where</Text></legend>
            <Stack gap="xs" mt="xs">
              {PLACES.map((p) => (
                <Checkbox
                  key={p.value} label={p.label} disabled={!owner}
                  checked={choice.places.includes(p.value)} onChange={(e) => toggle('places', p.value, e.currentTarget.checked)}
                />
              ))}
            </Stack>
          </fieldset>
          {(choice.categories.length === 0 || choice.places.length === 0) && (
            <Alert color="yellow" title="Nothing is redacted">With no kind or no place chosen, calls&apos; words are kept as they were said.</Alert>
          )}
          {save.error && <Problem error={save.error} />}
          {owner && (
            <Group justify="flex-end">
              {save.isSuccess && <Text size="sm" role="status">Redaction saved.</Text>}
              <Button type="submit" loading={save.isPending}>Save redaction</Button>
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
