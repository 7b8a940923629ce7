import { Alert, Stack, Text } from '@mantine/core';
import { RowErrors } from '../../components/RowErrors';
import { downloadTaskErrors, type SuppressionTask } from './model';

/** A finished suppression task: its counts and the rows it could not add, downloadable as CSV. */
export function TaskResult({ task }: { task: SuppressionTask }) {
  const status = task.status === 'completed' ? 'Upload completed' : task.status === 'failed' ? 'Upload failed' : `Upload ${task.status}`;
  return (
    <Stack gap="xs" aria-live="polite">
      <Text fw={500}>{status}{task.file_name ? ` · ${task.file_name}` : ''} (task {task.task_id})</Text>
      <Text size="sm">Added {task.added} · Failed {task.failed} · {task.total} rows</Text>
      {task.status === 'failed' && <Alert color="red" role="alert" title="Upload failed">{task.failure_reason ?? 'The task ended without a reason.'}</Alert>}
      <RowErrors errors={task.errors} errorCount={task.error_count} verb="added" tableLabel="Upload errors" onDownload={() => downloadTaskErrors(task)} />
    </Stack>
  );
}
