import { useRef, useState } from 'react';
import { MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { api, must } from '../../api/client';

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
  const list = useQuery({
    queryKey: ['campaign-options', title, includeArchived ?? false],
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { limit: 50, ...(title ? { title } : {}), ...(includeArchived ? { include_archived: true } : {}) } } })),
  });
  for (const c of (list.data as { data?: { id: number; title: string }[] } | undefined)?.data ?? []) known.current.set(String(c.id), c.title);
  const options = new Map<string, string>();
  for (const id of value) options.set(id, known.current.get(id) ?? `Campaign ${id}`);
  for (const c of (list.data as { data?: { id: number; title: string }[] } | undefined)?.data ?? []) options.set(String(c.id), c.title);
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

/** Titles of the given campaign ids (one request for all of them), for lists that hold ids. */
export function useCampaignTitles(ids: number[]) {
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  const titles = useQuery({
    queryKey: ['campaign-titles', unique],
    queryFn: () => must(api.GET('/api/v1/campaigns/', { params: { query: { id: unique, limit: unique.length, include_archived: true } } })),
    enabled: unique.length > 0,
  });
  const map = new Map((titles.data?.data ?? []).map((c) => [c.id, c.title] as const));
  return (id: number) => map.get(id) ?? `Campaign ${id}`;
}
