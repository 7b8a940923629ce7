import { useEffect, useState } from 'react';
import { Alert, Button, FileInput, Group, Select, Stack } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCampaignOptions } from '../campaigns/queries';
import { CsvPreview } from './CsvPreview';
import { initialMapping, lastMapping, previewFile, rememberMapping, type CsvMapping, type CsvPreview as Preview } from './csv-preview';
import { ImportProgress } from './ImportProgress';
import { useCsvImport } from './queries';

const FIELDS = ['campaign_id', 'file', 'phone_column', 'timezone_column'];

/**
 * Previews the chosen file (parsed in the browser) with pickers for its phone and time zone
 * columns, preselected from the last import's mapping. Uploads the CSV file to POST /api/v1/contacts/import/csv as multipart/form-data (the fields before
 * the file, as the API asks), then follows the task it answers with until it ends.
 */
export function CsvImport() {
  const campaigns = useCampaignOptions();
  const [campaignId, setCampaignId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const [mapping, setMapping] = useState<CsvMapping>({ phone: '', timezone: null });
  const [taskId, setTaskId] = useState<number | null>(null);
  const upload = useCsvImport();
  const problem = upload.error instanceof ApiProblem ? upload.error : null;
  useEffect(() => {
    setPreview(null);
    setUnreadable(null);
    if (!file) return;
    let current = true;
    previewFile(file).then(
      (p) => { if (current) { setPreview(p); setMapping(initialMapping(p.header, lastMapping())); } },
      (e: unknown) => { if (current) setUnreadable(e instanceof Error ? e.message : String(e)); },
    );
    return () => { current = false; };
  }, [file]);
  const start = () => {
    if (!campaignId || !file || !mapping.phone) return;
    rememberMapping(mapping);
    upload.mutate({ campaignId, file, phoneColumn: mapping.phone, timezoneColumn: mapping.timezone ?? '' }, { onSuccess: (answer) => setTaskId(answer.task_id) });
  };
  return (
    <Stack>
      <form onSubmit={(e) => { e.preventDefault(); start(); }}>
        <Stack>
          <Select
            label="Campaign" placeholder="Choose a campaign" data={campaigns.options} searchable required value={campaignId} onChange={setCampaignId}
            error={fieldError(problem, 'campaign_id') ?? (campaigns.error ? campaigns.error.message : undefined)}
          />
          <FileInput
            label="CSV file" placeholder="Choose a .csv file" accept=".csv,text/csv,text/plain" required clearable clearButtonProps={{ 'aria-label': 'Clear the file' }} value={file} onChange={setFile}
            description="A header row, then one contact a row; every other column goes into the contact's data." error={fieldError(problem, 'file')}
          />
          {unreadable && <Alert color="red" title="Cannot preview this file">{unreadable}</Alert>}
          {preview && (
            <CsvPreview preview={preview} mapping={mapping} onChange={setMapping}
              errors={{ phone: fieldError(problem, 'phone_column'), timezone: fieldError(problem, 'timezone_column') }} />
          )}
          {upload.error && !(problem && problem.fields.length > 0 && problem.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1])))) && <Problem error={upload.error} />}
          <Group justify="flex-end">
            <Button type="submit" loading={upload.isPending} disabled={!campaignId || !file || !preview || !mapping.phone}>Upload and import</Button>
          </Group>
        </Stack>
      </form>
      {taskId !== null && <ImportProgress taskId={taskId} />}
    </Stack>
  );
}
