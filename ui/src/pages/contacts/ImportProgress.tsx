import { Alert, Group, Progress, Stack, Text } from '@mantine/core';
import { downloadCsv } from '../../components/csv-download';
import { RowErrors } from '../../components/RowErrors';
import { Problem } from '../../components/Problem';
import { isRunning, useImportTask } from './queries';
import type { ImportTask } from './shared';

/** The skipped and failed rows as a CSV file the browser downloads (row = data row, 1 = the first after the header). */
function downloadErrors(task: ImportTask) {
  downloadCsv(`import-${task.task_id}-errors.csv`, ['row', 'phone_number', 'reason'], task.errors.map((e) => [e.index + 1, e.phone_number, e.reason]));
}

/** An import task, polled every 500 ms while it is pending or running: progress, final counts, the rows it could not import. */
export function ImportProgress({ taskId }: { taskId: number }) {
  const task = useImportTask(taskId);
  const t = task.data;
  const done = !!t && !isRunning(t);
  if (!t) return task.error ? <Problem error={task.error} /> : <Text size="sm">Import {taskId}: waiting for the service…</Text>;
  const percent = t.total ? Math.round((100 * t.processed) / t.total) : done ? 100 : 0;
  const statusText = t.status === 'pending' ? 'Waiting to start' : t.status === 'running' ? 'Importing' : t.status === 'completed' ? 'Import completed' : 'Import failed';
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap" aria-live="polite">
        <Text fw={500}>{statusText}{t.file_name ? ` · ${t.file_name}` : ''}</Text>
        <Text size="sm">{t.processed} of {t.total} rows</Text>
      </Group>
      <Progress value={percent} aria-label="Import progress" animated={!done} color={t.status === 'failed' ? 'red' : undefined} size="lg" />
      <Text size="sm">Created {t.created} · Skipped {t.skipped} · Failed {t.failed}</Text>
      {t.status === 'failed' && <Alert color="red" role="alert" title="Import failed">{t.failure_reason ?? 'The import ended without a reason.'}</Alert>}
      <Problem error={task.error} />
      <RowErrors errors={t.errors} errorCount={t.error_count} verb="imported" tableLabel="Import errors" onDownload={() => downloadErrors(t)} />
    </Stack>
  );
}
