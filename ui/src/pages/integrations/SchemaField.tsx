import { Button, Group, Stack, Text, Textarea } from '@mantine/core';

/** One example of each of the four forms the API reads a request schema in (docs/webhooks.md). */
const FORMS: [string, string][] = [
  ['Lines', 'name - the caller\'s name\ninterested - did the caller want a follow-up'],
  ['Field descriptions', JSON.stringify({ name: 'the caller\'s name', interested: 'did the caller want a follow-up' }, null, 2)],
  ['Example object', JSON.stringify({ name: 'Jane Doe', age: 42, interested: true, note: null }, null, 2)],
  ['JSON Schema', JSON.stringify({
    type: 'object',
    properties: { name: { type: 'string', description: 'the caller\'s name' }, interested: { type: 'boolean' }, plan: { type: ['string', 'null'], enum: ['basic', 'pro', null] } },
    required: ['name', 'interested'],
    additionalProperties: false,
  }, null, 2)],
];

const HELP = 'Four forms: lines "field - description"; a JSON object of field → description; an example JSON object (types inferred); ' +
  'or a JSON Schema (type object, properties, required). Field names: letters, digits, underscore. In the first three forms every field is required.';

type Props = { value: string; onChange: (v: string) => void; error?: string; editing: boolean };

/** The payload's request schema in any of the API's four forms, with an example of each to start from. */
export function SchemaField({ value, onChange, error, editing }: Props) {
  return (
    <Stack gap={4}>
      <Textarea label="Request schema" required autosize minRows={4} maxRows={10} description={HELP} value={value} onChange={(e) => onChange(e.currentTarget.value)}
        error={error} styles={{ input: { fontFamily: 'monospace' } }} />
      {editing && <Text size="xs" c="dimmed">Shown as the JSON Schema the service stored; left unchanged, it is not sent again.</Text>}
      <Group gap={6} wrap="wrap">
        <Text size="xs" c="dimmed">Start from an example:</Text>
        {FORMS.map(([name, text]) => (
          <Button key={name} size="compact-xs" variant="default" onClick={() => onChange(text)} aria-label={`Request schema example: ${name}`}>{name}</Button>
        ))}
      </Group>
    </Stack>
  );
}
