import { useState } from 'react';
import { Button, FileInput, Stack, Title } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCsvUpload } from './queries';
import { TaskResult } from './TaskResult';

/**
 * Uploads a CSV to POST /api/v1/suppressions/import/csv. The API answers once the task has ended,
 * so its answer is the result: no polling, just the counts and the rows it could not add.
 */
export function CsvUpload() {
  const upload = useCsvUpload();
  const [file, setFile] = useState<File | null>(null);
  const problem = upload.error instanceof ApiProblem ? upload.error : null;
  const fileMessage = fieldError(problem, 'file');
  return (
    <Stack gap="xs">
      <form aria-labelledby="csv-title" onSubmit={(e) => { e.preventDefault(); if (file) upload.mutate(file); }}>
        <Stack gap="xs">
          <Title order={3} size="h4" id="csv-title">Upload a CSV</Title>
          <FileInput
            label="CSV file" accept=".csv,text/csv,text/plain" clearable value={file} onChange={(f) => { setFile(f); upload.reset(); }}
            description="Columns: phone_number (required), reason and expires_at (optional)" error={fileMessage}
          />
          {upload.error && !fileMessage && <Problem error={upload.error} />}
          <Button type="submit" variant="default" loading={upload.isPending} disabled={!file}>Upload and add</Button>
        </Stack>
      </form>
      {upload.data && <TaskResult task={upload.data} />}
    </Stack>
  );
}
