import { Alert } from '@mantine/core';
import { ApiProblem } from '../api/client';

/** An API error next to what it concerns: its message, never a silent failure. */
export function Problem({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = error instanceof ApiProblem ? error : null;
  const title = problem?.status === 403 ? 'Not allowed' : problem?.status === 409 ? 'Conflict' : problem?.status === 422 ? 'Check the form' : 'Something went wrong';
  return (
    <Alert color="red" title={title} role="alert">
      {error instanceof Error ? error.message : String(error)}
    </Alert>
  );
}
