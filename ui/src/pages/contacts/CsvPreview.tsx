import { Alert, Group, Select, Stack, Table, Text } from '@mantine/core';
import type { CsvMapping, CsvPreview as Preview } from './csv-preview';

const DELIMITERS: Record<string, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab', '|': 'pipe' };

/**
 * The chosen file's header and first rows, and the pickers that map its columns: the phone
 * column, the time zone column (optional); every other column goes into the contact's data.
 */
export function CsvPreview(props: { preview: Preview; mapping: CsvMapping; onChange: (m: CsvMapping) => void; errors: { phone?: string; timezone?: string } }) {
  const { preview, mapping, onChange, errors } = props;
  // Duplicate headers would be duplicate options: the service matches the first, so offer that one.
  const columns = [...new Set(preview.header)].filter((h) => h !== '');
  const rest = preview.header.filter((h) => h !== mapping.phone && h !== mapping.timezone);
  return (
    <Stack gap="xs">
      <Group grow preventGrowOverflow={false} wrap="wrap">
        <Select label="Phone column" data={columns} value={mapping.phone || null} required allowDeselect={false} miw={160}
          onChange={(v) => onChange({ phone: v ?? '', timezone: mapping.timezone === v ? null : mapping.timezone })} error={errors.phone} />
        <Select label="Time zone column (optional)" placeholder="None: from the number" data={columns.filter((c) => c !== mapping.phone)} value={mapping.timezone} clearable clearButtonProps={{ 'aria-label': 'No time zone column' }} miw={160}
          onChange={(v) => onChange({ ...mapping, timezone: v })} error={errors.timezone} />
      </Group>
      <Text size="sm" c="dimmed">
        {rest.length > 0 ? `Into the contact's data: ${rest.join(', ')}.` : 'No other columns: the contacts get no data.'} {`Separator: ${DELIMITERS[preview.delimiter] ?? preview.delimiter}.`}
      </Text>
      <Table.ScrollContainer minWidth={300} maw="100%">
        <Table striped withTableBorder aria-label="File preview" fz="xs">
          <Table.Thead>
            <Table.Tr>{preview.header.map((h, i) => <Table.Th key={i}>{h || `(column ${i + 1})`}{h === mapping.phone ? ' (phone)' : h === mapping.timezone ? ' (time zone)' : ''}</Table.Th>)}</Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row, r) => (
              <Table.Tr key={r}>{preview.header.map((_, i) => <Table.Td key={i}>{row[i] ?? ''}</Table.Td>)}</Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {preview.rows.length === 0 && <Alert color="yellow" title="No rows">The file has a header but no rows to import.</Alert>}
    </Stack>
  );
}
