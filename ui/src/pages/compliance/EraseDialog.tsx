import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Problem } from '../../components/Problem';
import type { useErasePerson } from './queries';

/**
 * Asks before erasing a person: says what happens and wants the number typed again. The API's
 * answer (the report, or a 409/422) is shown by the page, so the dialog closes on any answer.
 */
export function EraseDialog({ subject, erase, onClose }: {
  subject: { phone_number: string; email?: string } | null;
  erase: ReturnType<typeof useErasePerson>;
  onClose: () => void;
}) {
  const [typed, setTyped] = useState('');
  const close = () => { setTyped(''); onClose(); };
  const same = subject !== null && typed.replace(/[^\d+]/g, '') === subject.phone_number.replace(/[^\d+]/g, '');
  return (
    <Modal closeButtonProps={{ 'aria-label': 'Close' }} opened={subject !== null} onClose={close} title="Erase this person's data?">
      <Stack>
        <Text>
          Everything the account holds about {subject?.phone_number}{subject?.email ? ` (${subject.email})` : ''} is erased in every campaign:
          contacts&apos; data, transcripts, recordings&apos; links, texts and webhook payloads. This cannot be undone.
        </Text>
        <Text>
          The number stays on the do-not-call list as a salted hash, so it can never be called or texted again. Calls and texts stay counted, without the person&apos;s data.
        </Text>
        <TextInput label="Type the phone number again to confirm" value={typed} onChange={(e) => setTyped(e.currentTarget.value)} autoComplete="off" />
        <Problem error={erase.error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>Cancel</Button>
          <Button color="red" disabled={!same} loading={erase.isPending} onClick={() => subject && erase.mutate(subject, { onSuccess: close })}>Erase permanently</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
