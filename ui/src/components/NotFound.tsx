import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ApiProblem } from '../api/client';

/**
 * The id of an address such as /calls/:id, or null when it names nothing: the API's ids are
 * integers from 1 to 2^53-1, so `/calls/undefined` or `/calls/abc` is a page that does not exist,
 * not a request to send (whose 422 would read like a form error).
 */
export function idFromPath(value: string | undefined): number | null {
  if (!value || !/^[1-9]\d{0,15}$/.test(value)) return null;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : null;
}

/** Whether an API error says the object is not there (an id in range that names nothing). */
export const isNotFound = (error: unknown) => error instanceof ApiProblem && error.status === 404;

/** A page for an address that names no object: what was asked for, and the way back to its list. */
export function NotFound({ what, value, back }: { what: string; value: string | undefined; back: { to: string; label: string } }) {
  return (
    <Stack gap="sm">
      <Title order={2}>{`${what[0]!.toUpperCase()}${what.slice(1)} not found`}</Title>
      <Text>There is no {what} “{value ?? ''}”. The address may be mistyped, or the {what} was deleted.</Text>
      <Anchor component={Link} to={back.to}>{back.label}</Anchor>
    </Stack>
  );
}
