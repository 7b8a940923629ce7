import type { paths } from '../../api/schema';

export type Contact = paths['/api/v1/contacts/']['get']['responses'][200]['content']['application/json']['data'][number];
export type ContactStatus = Contact['status'];
export type ImportTask = paths['/api/v1/contacts/bulk/{task_id}']['get']['responses'][200]['content']['application/json'];

/** Every contact status the API knows, in the order of the status machine. */
export const STATUSES: ContactStatus[] = [
  'new', 'added_to_queue', 'call_scheduled', 'awaiting_queue', 'in progress', 'finished', 'busy', 'no_answer',
  'not_reached', 'failed', 'invalid_number', 'do_not_disturb', 'paused',
];

/** Statuses the dialer never queues (the API's enqueue operations skip them too). */

export const STATUS_COLOR: Partial<Record<ContactStatus, string>> = {
  new: 'gray', added_to_queue: 'blue', call_scheduled: 'cyan', 'in progress': 'indigo', finished: 'green',
  failed: 'red', invalid_number: 'red', do_not_disturb: 'orange', paused: 'yellow', awaiting_queue: 'yellow',
};

/** The contact's name, when its free-form data has one. */
export const nameOf = (c: Pick<Contact, 'contact_data'>) => {
  const name = c.contact_data?.name;
  return typeof name === 'string' || typeof name === 'number' ? String(name) : '';
};

/** The contact's name as shown: `name`, else `first_name` and `last_name` (what CSV files often hold); '' when none. */
export const displayNameOf = (c: { contact_data?: Record<string, unknown> | null }) => {
  const data = c.contact_data ?? {};
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '');
  return text(data.name) || [text(data.first_name), text(data.last_name)].filter(Boolean).join(' ');
};
