/**
 * The API's status values as words a person reads ("busy_or_rejected" -> "Busy or rejected").
 * The values themselves stay what the API answers (filters, badges' colours and tests' automation
 * match them); only the text shown goes through here. A value the API adds later, unknown to these
 * tables, still reads as words (underscores as spaces, first letter capital).
 */

const CONTACT: Record<string, string> = {
  new: 'New',
  'in progress': 'In progress',
  finished: 'Finished',
  failed: 'Failed',
  busy: 'Busy',
  not_reached: 'Not reached',
  invalid_number: 'Invalid number',
  do_not_disturb: 'Do not disturb',
  paused: 'Paused',
  added_to_queue: 'Added to queue',
  call_scheduled: 'Call scheduled',
  no_answer: 'No answer',
  awaiting_queue: 'Awaiting queue',
};

const CALL: Record<string, string> = {
  new: 'New',
  'in progress': 'In progress',
  finished: 'Finished',
  failed: 'Failed',
  busy_or_rejected: 'Busy or rejected',
  'invalid number': 'Invalid number',
  'insufficient funds': 'Insufficient funds',
  rejected: 'Rejected',
  terminated: 'Terminated',
  unavailable: 'Unavailable',
  voicemail: 'Voicemail',
  silence: 'Silence',
};

/** A call's outcome (action_status), set from what the person said. */
const OUTCOME: Record<string, string> = { interested: 'Interested', scheduled: 'Call back scheduled', transferred: 'Transferred' };

const CALL_TYPE: Record<string, string> = { outbound: 'Outbound', inbound: 'Inbound' };

/** Any other machine value as words: "not_reached" -> "Not reached". */
export function asWords(value: string): string {
  const words = value.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : value;
}

const from = (table: Record<string, string>) => (value: string) => (Object.hasOwn(table, value) ? table[value]! : asWords(value));

export const contactStatusLabel = from(CONTACT);
export const callStatusLabel = from(CALL);

/** An outcome; a call without one: "None". */
export const outcomeLabel = (value: string | null | undefined) => (value ? from(OUTCOME)(value) : 'None');

/** A call's type; a call without one was a test call from the dashboard. */
export const callTypeLabel = (value: string | null | undefined) => (value ? from(CALL_TYPE)(value) : 'Test call');

/** A text's delivery state, as a person reads it. */
const MESSAGE: Record<string, string> = {
  sending: 'Sending', queued: 'Queued', sent: 'Sent', delivered: 'Delivered', undelivered: 'Not delivered', failed: 'Failed', read: 'Read', received: 'Received',
};
/** Why a text was written. */
const PURPOSE: Record<string, string> = { follow_up: 'Follow-up', confirmation: 'Confirmation', reply: 'Reply', manual: 'By hand' };
const CHANNEL: Record<string, string> = { sms: 'SMS', whatsapp: 'WhatsApp' };
const JOB: Record<string, string> = { pending: 'Waiting', claimed: 'Sending', sent: 'Sent', skipped: 'Skipped', cancelled: 'Cancelled' };

export const messageStatusLabel = from(MESSAGE);
export const messagePurposeLabel = (value: string | null | undefined) => (value ? from(PURPOSE)(value) : 'Inbound');
export const channelLabel = from(CHANNEL);
export const messageJobStatusLabel = from(JOB);

/** A webhook delivery's state (sent, failed, pending, skipped). */
export const deliveryStatusLabel = asWords;

/** Select options of a list of values, labelled in words and valued as the API spells them. */
export const optionsOf = (values: readonly string[], label: (value: string) => string) => values.map((value) => ({ value, label: label(value) }));
