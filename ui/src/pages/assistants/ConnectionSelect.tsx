import { Select } from '@mantine/core';
import { ApiProblem } from '../../api/client';
import { CHOICE_LIMIT, useConnectionChoices } from '../voice-connections/queries';
import type { Provider } from './model';

interface Props {
  provider: Provider;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
  /** Sub-users cannot list connections (403): the query is not even made for them. */
  canList: boolean;
}

/** The account's voice connections of the assistant's provider; none chosen = the service's own credentials. */
export function ConnectionSelect({ provider, value, onChange, error, canList }: Props) {
  const list = useConnectionChoices(canList);
  const forbidden = !canList || (list.error instanceof ApiProblem && list.error.status === 403);
  const rows = (list.data?.data ?? []).filter((c) => c.provider === provider);
  const data = rows.map((c) => ({ value: String(c.id), label: `${c.name} (#${c.id})` }));
  // The stored connection stays visible even when it cannot be listed (a sub-user, or beyond the first page).
  if (value && !data.some((d) => d.value === value)) data.push({ value, label: `Connection #${value}` });
  const more = (list.data?.count ?? 0) > CHOICE_LIMIT ? ` Only the first ${CHOICE_LIMIT} connections are offered.` : '';
  const description = forbidden
    ? 'Only the account owner can list voice connections.'
    : list.error
      ? `Voice connections could not be loaded: ${list.error.message}`
      : `Empty: the service's own ${provider} credentials.${more}`;
  return (
    <Select label="Voice connection" data={data} value={value} onChange={onChange} clearable placeholder={list.isFetching ? 'Loading…' : 'Service default'}
      description={description} error={error} disabled={forbidden && !value} nothingFoundMessage={`No ${provider} connections`} />
  );
}
