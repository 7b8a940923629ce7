import { useState } from 'react';
import { Alert, Button, Stack, TextInput, Title } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { useLookup } from './queries';
import { SOURCE_LABEL } from './model';
import { useFormat } from '../../format/useFormat';

/** "Is this number suppressed?": the answer, with the suppression that applies; a 422 (not a number) under the field. */
export function LookupNumber() {
  const { time: when } = useFormat();
  const lookup = useLookup();
  const [phone, setPhone] = useState('');
  const problem = lookup.error instanceof ApiProblem ? lookup.error : null;
  // The lookup's number is a query parameter, so its 422 names query.phone_number.
  const fieldMessage = problem?.fields.find((f) => f.loc[1] === 'phone_number')?.msg ?? (lookup.error ? lookup.error.message : undefined);
  const answer = lookup.data;
  return (
    <form aria-labelledby="lookup-title" onSubmit={(e) => { e.preventDefault(); lookup.mutate(phone.trim()); }}>
      <Stack gap="xs">
        <Title order={3} size="h4" id="lookup-title">Is this number suppressed?</Title>
        <TextInput label="Number to look up" type="search" value={phone} onChange={(e) => { setPhone(e.currentTarget.value); lookup.reset(); }} error={fieldMessage} />
        <Button type="submit" variant="default" loading={lookup.isPending} disabled={!phone.trim()}>Look up</Button>
        <div aria-live="polite">
          {answer && (answer.suppressed && answer.suppression ? (
            <Alert color="orange" title={`${answer.phone_number} is suppressed`}>
              {SOURCE_LABEL[answer.suppression.source]} on {when(answer.suppression.created_at)}
              {answer.suppression.reason ? ` · ${answer.suppression.reason}` : ''}
              {answer.suppression.expires_at ? ` · until ${when(answer.suppression.expires_at)}` : ' · never expires'}
            </Alert>
          ) : (
            <Alert color="green" title={`${answer.phone_number} is not suppressed`}>No suppression applies to it now; it may be called.</Alert>
          ))}
        </div>
      </Stack>
    </form>
  );
}
