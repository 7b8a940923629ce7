import { useState } from 'react';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { Problem } from '../../components/Problem';
import { EraseDialog } from './EraseDialog';
import { downloadPersonExport, personFileName } from './model';
import { useErasePerson, useExportPerson } from './queries';

const EXPORT_COUNTS = [['contacts', 'Contacts'], ['calls', 'Calls'], ['messages', 'Texts'], ['message_jobs', 'Queued texts'], ['webhook_deliveries', 'Webhook deliveries'], ['suppressions', 'Do-not-call entries']] as const;
const ERASED_COUNTS = [...EXPORT_COUNTS, ['audit_events', 'Audit events'], ['import_chunks', 'Import rows']] as const;

/** "What was found" as one line of counts, e.g. "Contacts 2 · Calls 1 · …". */
const countLine = (counts: Record<string, number>, labels: readonly (readonly [string, string])[]) => labels.map(([key, label]) => `${label} ${counts[key] ?? 0}`).join(' · ');

/**
 * One person's data, found by phone number (and e-mail): export it as a JSON file, or erase it.
 * Owner only: the API refuses sub-users (these reach every campaign), so they get the reason, not the buttons.
 */
export function PersonData({ owner }: { owner: boolean }) {
  const exporter = useExportPerson();
  const erase = useErasePerson();
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [confirming, setConfirming] = useState<{ phone_number: string; email?: string } | null>(null);
  const subject = () => ({ phone_number: phone.trim(), ...(email.trim() ? { email: email.trim() } : {}) });
  const problem = exporter.error instanceof ApiProblem ? exporter.error : null;
  const fieldOf = (field: string) => problem?.fields.find((f) => f.loc[1] === field)?.msg;
  const reset = () => { exporter.reset(); erase.reset(); };
  return (
    <Card withBorder>
      <Stack>
        <Title order={3} size="h4" id="person-title">A person&apos;s data</Title>
        <Text size="sm">
          Find everything the account holds about one person, in every campaign, by their phone number (and e-mail when you have it):
          export it for them, or erase it at their request.
        </Text>
        {!owner ? (
          <Alert color="gray" title="Owner only">Only the account owner exports or erases a person&apos;s data: it reaches every campaign.</Alert>
        ) : (
          <form aria-labelledby="person-title" onSubmit={(e) => { e.preventDefault(); reset(); exporter.mutate(subject(), { onSuccess: downloadPersonExport }); }}>
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="Person's phone number" value={phone} onChange={(e) => { setPhone(e.currentTarget.value); reset(); }} error={fieldOf('phone_number')} autoComplete="off" />
                <TextInput label="Person's e-mail (optional)" type="email" value={email} onChange={(e) => { setEmail(e.currentTarget.value); reset(); }} error={fieldOf('email')} autoComplete="off" />
              </SimpleGrid>
              {exporter.error && !problem?.fields.length && <Problem error={exporter.error} />}
              <Group justify="flex-end">
                <Button type="submit" variant="default" loading={exporter.isPending} disabled={!phone.trim()}>Export</Button>
                <Button color="red" variant="outline" disabled={!phone.trim()} onClick={() => { reset(); setConfirming(subject()); }}>Erase…</Button>
              </Group>
            </Stack>
          </form>
        )}
        <div aria-live="polite">
          {exporter.data && (
            <Alert color="blue" title="Exported">
              {personFileName(exporter.data)} was downloaded. Found: {countLine(exporter.data.counts, EXPORT_COUNTS)}.
            </Alert>
          )}
          {erase.data && (
            <Alert color="green" title="Erased">
              Erased: {countLine(erase.data.erased, ERASED_COUNTS)}.{' '}
              {erase.data.dialling_blocked ? 'Dialling the number stays blocked: the do-not-call list keeps it as a hash.' : ''}
            </Alert>
          )}
        </div>
      </Stack>
      <EraseDialog subject={confirming} erase={erase} onClose={() => setConfirming(null)} />
    </Card>
  );
}
