import { useState } from 'react';
import { Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useAddSuppression } from './queries';
import { localToIso } from './model';
import { useFormat } from '../../format/useFormat';

const FIELDS = ['phone_number', 'reason', 'expires_at'];

/** Adds one number (source manual); the API's 422s show under the field they name. */
export function AddNumber() {
  const { zone } = useFormat();
  const add = useAddSuppression();
  const [phone, setPhone] = useState('');
  const [reason, setReason] = useState('');
  const [expires, setExpires] = useState('');
  const problem = add.error instanceof ApiProblem ? add.error : null;
  // A problem no field names (403, 5xx, a 422 elsewhere) still shows, as an alert under the form.
  const unplaced = add.error && !(problem && problem.fields.length > 0 && problem.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1]))));
  const submit = () => add.mutate(
    { phone_number: phone.trim(), ...(reason.trim() ? { reason: reason.trim() } : {}), ...(expires ? { expires_at: localToIso(expires, zone) } : {}) },
    { onSuccess: () => { setPhone(''); setReason(''); setExpires(''); } },
  );
  return (
    <form aria-labelledby="add-number-title" onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <Stack gap="xs">
        <Title order={3} size="h4" id="add-number-title">Add number</Title>
        <TextInput label="Phone number" description="Any common format; without + read in the service's default country" required value={phone} onChange={(e) => setPhone(e.currentTarget.value)} error={fieldError(problem, 'phone_number')} />
        <TextInput label="Reason" description="Shown on the contacts it stops" value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={fieldError(problem, 'reason')} />
        <TextInput label="Expires (optional)" description={`Empty: never; time in ${zone}`} type="datetime-local" value={expires} onChange={(e) => setExpires(e.currentTarget.value)} error={fieldError(problem, 'expires_at')} />
        {unplaced && <Problem error={add.error} />}
        {add.isSuccess && <Text size="sm" role="status">Added {add.data.phone_number} to the list.</Text>}
        <Button type="submit" loading={add.isPending} disabled={!phone.trim()}>Add number</Button>
      </Stack>
    </form>
  );
}
