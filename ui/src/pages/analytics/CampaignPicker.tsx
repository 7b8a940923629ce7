import { useRef, useState } from 'react';
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCampaignSearch } from '../campaigns/queries';

type Props = {
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  description?: string;
  error?: string;
  maxValues?: number;
  required?: boolean;
  includeArchived?: boolean;
  placeholder?: string;
};

/**
 * Campaigns by title, searched on the server (at most 50 options at a time, never the whole list);
 * values are campaign ids as strings. Chosen campaigns keep their titles when a search hides them.
 */
export function CampaignPicker({ label, value, onChange, description, error, maxValues, required, includeArchived, placeholder }: Props) {
  const [search, setSearch] = useState('');
  const [title] = useDebouncedValue(search, 300);
  const known = useRef(new Map<string, string>());
  const list = useCampaignSearch(title, includeArchived ?? false);
  const found = list.data?.data ?? [];
  for (const c of found) known.current.set(String(c.id), c.title);
  const options = new Map<string, string>();
  for (const id of value) options.set(id, known.current.get(id) ?? `Campaign ${id}`);
  for (const c of found) options.set(String(c.id), c.title);
  return (
    <MultiSelect
      label={label}
      description={description}
      placeholder={value.length ? undefined : placeholder}
      data={[...options].map(([id, t]) => ({ value: id, label: t }))}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      maxValues={maxValues}
      required={required}
      error={error ?? (list.error ? `Campaigns could not be loaded: ${list.error.message}` : undefined)}
      nothingFoundMessage={list.isPending ? 'Loading…' : 'No campaign matches'}
      clearable
      miw={220}
    />
  );
}
