import { Alert, Button, Group, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { downloadTaskErrors, type SuppressionTask } from './model';

/** A finished suppression task: its counts and the rows it could not add, downloadable as CSV. */
export function TaskResult({ task }: { task: SuppressionTask }) {
  const status = task.status === 'completed' ? 'Upload completed' : task.status === 'failed' ? 'Upload failed' : `Upload ${task.status}`;
  return (
    <Stack gap="xs" aria-live="polite">
      <Text fw={500}>{status}{task.file_name ? ` · ${task.file_name}` : ''} (task {task.task_id})</Text>
      <Text size="sm">Added {task.added} · Failed {task.failed} · {task.total} rows</Text>
      {task.status === 'failed' && <Alert color="red" role="alert" title="Upload failed">{task.failure_reason ?? 'The task ended without a reason.'}</Alert>}
      {task.errors.length > 0 && (
        <Stack gap="xs">
          <Group justify="space-between" wrap="wrap">
            <Text size="sm">
              {task.error_count > task.errors.length ? `The first ${task.errors.length} of ${task.error_count} rows not added` : `${task.error_count} row${task.error_count === 1 ? '' : 's'} not added`} (row 1 is the first after the header)
            </Text>
            <Button size="xs" variant="default" onClick={() => downloadTaskErrors(task)}>Download errors</Button>
          </Group>
          <ScrollArea.Autosize mah={220} type="auto" viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': 'Rows not added' }}>
            <Table striped aria-label="Upload errors" miw={300}>
              <Table.Thead>
                <Table.Tr><Table.Th>Row</Table.Th><Table.Th>Phone number</Table.Th><Table.Th>Reason</Table.Th></Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {task.errors.map((e) => (
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
      )}
    </Stack>
  );
}
