import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCallControl, type CallControl } from './queries';

type Dialog = CallControl['kind'] | null;

const MAX_WHISPER = 1000;
/** E.164's shape, checked before sending (the API checks it too, and that the number exists). */
const E164 = /^\+[1-9]\d{6,14}$/;
const E164_HINT = 'Write the number with + and the country code, e.g. +12125550123';
const DONE: Record<CallControl['kind'], string> = {
  end: 'The call is being ended.',
  transfer: 'The call is being transferred.',
  whisper: 'The AI has your guidance for the rest of the call.',
};

/**
 * An operator's actions on a call in progress (the page shows them only then): each asks for a
 * confirmation in a dialog, whose errors (a call that just ended, a vendor that cannot) stay in it.
 */
export function CallControls({ callId }: { callId: number }) {
  const [open, setOpen] = useState<Dialog>(null);
  const [phone, setPhone] = useState('');
  const [message, setMessage] = useState('');
  const [phoneHint, setPhoneHint] = useState<string | null>(null);
  const control = useCallControl(callId);
  const show = (kind: Dialog) => {
    control.reset();
    setPhoneHint(null);
    setOpen(kind);
  };
  const send = (c: CallControl) => control.mutate(c, {
    onSuccess: () => {
      notifications.show({ color: 'green', message: DONE[c.kind] });
      setOpen(null);
      setPhone('');
      setMessage('');
    },
  });
  const generalError = control.error && !fieldError(control.error, 'phone_number') && !fieldError(control.error, 'message') ? control.error : null;
  return (
    <>
      <Group aria-label="Call controls">
        <Button color="red" onClick={() => show('end')}>End call</Button>
        <Button variant="default" onClick={() => show('transfer')}>Transfer…</Button>
        <Button variant="default" onClick={() => show('whisper')}>Whisper…</Button>
      </Group>
      <Modal opened={open === 'end'} onClose={() => setOpen(null)} title="End this call?" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">The call hangs up now. It is recorded as ended by an operator, by you.</Text>
          <Problem error={generalError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(null)}>Cancel</Button>
            <Button color="red" loading={control.isPending} onClick={() => send({ kind: 'end' })}>End the call</Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={open === 'transfer'} onClose={() => setOpen(null)} title="Transfer this call" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={(e) => {
          e.preventDefault();
          const number = phone.trim();
          setPhoneHint(E164.test(number) ? null : E164_HINT);
          if (E164.test(number)) send({ kind: 'transfer', body: { phone_number: number } });
        }}>
          <Stack>
            <Text size="sm">The AI leaves the call and the caller is connected to this number.</Text>
            <TextInput label="Phone number" description="With + and the country code, e.g. +12125550123" required value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)} error={phoneHint ?? fieldError(control.error, 'phone_number')} />
            <Problem error={generalError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(null)}>Cancel</Button>
              <Button type="submit" loading={control.isPending}>Transfer the call</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <Modal opened={open === 'whisper'} onClose={() => setOpen(null)} title="Whisper to the AI" closeButtonProps={{ 'aria-label': 'Close' }}>
        <form onSubmit={(e) => { e.preventDefault(); send({ kind: 'whisper', body: { message } }); }}>
          <Stack>
            <Text size="sm">The caller does not hear it: the AI follows it for the rest of the call.</Text>
            <Textarea label="Guidance" required autosize minRows={3} maxLength={MAX_WHISPER} value={message}
              onChange={(e) => setMessage(e.currentTarget.value)} error={fieldError(control.error, 'message')}
              description={`${message.length} / ${MAX_WHISPER} characters`} />
            <Problem error={generalError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(null)}>Cancel</Button>
              <Button type="submit" loading={control.isPending}>Send guidance</Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
