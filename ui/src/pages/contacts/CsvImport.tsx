import { useState } from 'react';
import { Button, FileInput, Group, Select, Stack, TextInput } from '@mantine/core';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCampaignOptions } from '../campaigns/queries';
import { ImportProgress } from './ImportProgress';
import { useCsvImport } from './queries';

const FIELDS = ['campaign_id', 'file', 'phone_column', 'timezone_column'];

/**
 * Uploads a CSV file to POST /api/v1/contacts/import/csv as multipart/form-data (the fields before
 * the file, as the API asks), then follows the task it answers with until it ends.
 */
export function CsvImport() {
  const campaigns = useCampaignOptions();
  const [campaignId, setCampaignId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [phoneColumn, setPhoneColumn] = useState('phone');
  const [timezoneColumn, setTimezoneColumn] = useState('');
  const [taskId, setTaskId] = useState<number | null>(null);
  const upload = useCsvImport();
  const problem = upload.error instanceof ApiProblem ? upload.error : null;
  const start = () => {
    if (campaignId && file) upload.mutate({ campaignId, file, phoneColumn, timezoneColumn }, { onSuccess: (answer) => setTaskId(answer.task_id) });
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
            label="CSV file" placeholder="Choose a .csv file" accept=".csv,text/csv,text/plain" required clearable value={file} onChange={setFile}
            description="A header row, then one contact a row; every other column goes into the contact's data." error={fieldError(problem, 'file')}
          />
          <Group grow preventGrowOverflow={false} wrap="wrap">
            <TextInput label="Phone column" value={phoneColumn} onChange={(e) => setPhoneColumn(e.currentTarget.value)} error={fieldError(problem, 'phone_column')} miw={160} />
            <TextInput label="Time zone column (optional)" value={timezoneColumn} onChange={(e) => setTimezoneColumn(e.currentTarget.value)} error={fieldError(problem, 'timezone_column')} miw={160} />
          </Group>
          {upload.error && !(problem && problem.fields.length > 0 && problem.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1])))) && <Problem error={upload.error} />}
          <Group justify="flex-end">
            <Button type="submit" loading={upload.isPending} disabled={!campaignId || !file}>Upload and import</Button>
          </Group>
        </Stack>
      </form>
      {taskId !== null && <ImportProgress taskId={taskId} />}
    </Stack>
  );
}
