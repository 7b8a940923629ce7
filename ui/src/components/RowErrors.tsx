import { Button, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';

export interface RowError {
  index: number;
  phone_number: string | null;
  reason: string;
}

/**
 * The rows a task could not take (a contact import, a do-not-call list upload): how many, the
 * first ones in a scrollable table, and a download of them as CSV. `verb` names what the task
 * did with the others ("imported", "added"); the labels follow it.
 */
export function RowErrors({ errors, errorCount, verb, tableLabel, onDownload }: {
  errors: RowError[];
  errorCount: number;
  verb: string;
  tableLabel: string;
  onDownload: () => void;
}) {
  if (errors.length === 0) return null;
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm">
          {errorCount > errors.length ? `The first ${errors.length} of ${errorCount} rows not ${verb}` : `${errorCount} row${errorCount === 1 ? '' : 's'} not ${verb}`} (row 1 is the first row after the header)
        </Text>
        <Button size="xs" variant="default" onClick={onDownload}>Download errors</Button>
      </Group>
      <ScrollArea.Autosize mah={260} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': `Rows not ${verb}` }}>
        <Table striped aria-label={tableLabel} miw={300}>
          <Table.Thead>
            <Table.Tr><Table.Th>Row</Table.Th><Table.Th>Phone number</Table.Th><Table.Th>Reason</Table.Th></Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {errors.map((e) => (
              <Table.Tr key={`${e.index}-${e.phone_number}`}>
                <Table.Td>{e.index + 1}</Table.Td>
                <Table.Td>{e.phone_number}</Table.Td>
                <Table.Td>{e.reason}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Stack>
  );
}
