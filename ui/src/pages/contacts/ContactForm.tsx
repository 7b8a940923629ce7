import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { ApiProblem, fieldError } from '../../api/client';
import { Problem } from '../../components/Problem';
import { useCampaignOptions } from '../campaigns/queries';
import { useSaveContact } from './queries';
import { type Contact, type ContactStatus, nameOf, STATUSES } from './shared';
import { contactStatusLabel, optionsOf } from '../../format/statuses';

const FIELDS = ['campaign_id', 'phone_number', 'status', 'contact_data'];
/** True when every error of a 422 is shown under one of the form's fields. */
const coveredByFields = (p: ApiProblem | null) =>
  !!p && p.fields.length > 0 && p.fields.every((f) => f.loc[0] === 'body' && FIELDS.includes(String(f.loc[1])));

type Values = { campaign_id: string | null; phone_number: string; status: ContactStatus; name: string };

/**
 * Adds a contact (no `contact`) or edits one. The name is stored as contact_data.name; editing
 * keeps the contact's other data. A 422 shows under its field, anything else (409, 403) above the button.
 */
export function ContactForm({ contact, onDone }: { contact?: Contact; onDone: () => void }) {
  const campaigns = useCampaignOptions();
  const form = useForm<Values>({
    initialValues: {
      campaign_id: contact ? String(contact.campaign_id) : null,
      phone_number: contact?.phone_number ?? '',
      status: contact?.status ?? 'new',
      name: contact ? nameOf(contact) : '',
    },
  });
  const save = useSaveContact();
  const submit = (v: Values) => {
    const data: Record<string, unknown> = { ...(contact?.contact_data ?? {}) };
    if (v.name.trim()) data.name = v.name.trim();
    else delete data.name;
    const contact_data = Object.keys(data).length ? data : null;
    save.mutate(contact
      ? { id: contact.id, body: { status: v.status, ...(v.phone_number !== contact.phone_number ? { phone_number: v.phone_number } : {}), contact_data } }
      : { body: { campaign_id: Number(v.campaign_id), phone_number: v.phone_number, status: v.status, creation_method: 'manual', ...(contact_data ? { contact_data } : {}) } }, {
      onSuccess: (saved) => {
        notifications.show({ color: 'green', title: contact ? 'Contact saved' : 'Contact added', message: saved.phone_number });
        onDone();
      },
    });
  };
  const problem = save.error instanceof ApiProblem ? save.error : null;
  return (
    <form onSubmit={form.onSubmit(submit)}>
      <Stack>
        <Select
          label="Campaign" placeholder="Choose a campaign" data={campaigns.options} searchable required disabled={!!contact}
          {...form.getInputProps('campaign_id')} error={fieldError(problem, 'campaign_id') ?? (campaigns.error ? campaigns.error.message : undefined)}
        />
        <TextInput label="Phone number" placeholder="+14155550123" required autoComplete="off" {...form.getInputProps('phone_number')} error={fieldError(problem, 'phone_number')} />
        <Select label="Status" data={optionsOf(STATUSES, contactStatusLabel)} allowDeselect={false} {...form.getInputProps('status')} error={fieldError(problem, 'status')} />
        <TextInput label="Name" {...form.getInputProps('name')} error={fieldError(problem, 'contact_data')} />
        {save.error && !coveredByFields(problem) && <Problem error={save.error} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>Cancel</Button>
          <Button type="submit" loading={save.isPending}>{contact ? 'Save contact' : 'Add contact'}</Button>
        </Group>
      </Stack>
    </form>
  );
}
