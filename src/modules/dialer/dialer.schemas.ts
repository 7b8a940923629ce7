import { Type } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';
import { CONTACT_STATUSES } from '../contacts/contacts.schemas.ts';

export const EnqueueQuery = Type.Object({
  status: StringEnum(CONTACT_STATUSES, {
    description: 'ContactStatus of the contacts to queue; contacts in progress, do_not_disturb or paused are never queued (0 for those statuses)',
  }),
  limit: Type.Integer({ exclusiveMinimum: 0, maximum: 100_000, default: 10, description: 'at most this many contacts, oldest first' }),
});

/** The status machine, written once for the OpenAPI descriptions (docs/dialer.md has the long form). */
export const STATUS_MACHINE_DOC = `
Contact status machine (next_action_time/next_action_reason say when and why the next call happens):

| from | event | to |
|---|---|---|
| new, or any status except in progress / do_not_disturb / paused | enqueue operation, or created in an auto_calls campaign | added_to_queue (next_action_time = now) |
| added_to_queue, call_scheduled | due and inside the calling window, campaign has room | in progress (calls_attempts + 1, a call row is written) |
| added_to_queue, call_scheduled | due but outside the calling window | call_scheduled at the next opening |
| added_to_queue, call_scheduled | schedule and allowed hours never open | awaiting_queue (back when the campaign is edited) |
| added_to_queue, call_scheduled | another call to the same number is in progress (any campaign of the account) | call_scheduled in 1 minute |
| added_to_queue, call_scheduled | campaign paused, archived, Inbound, or usage limit reached | awaiting_queue (back to added_to_queue when that no longer holds) |
| in progress | call finished (conversation) | finished |
| in progress | busy_or_rejected, rejected / unavailable, voicemail / silence, terminated / failed, attempts left | call_scheduled at now + call_interval[n-1] minutes (last value repeats, default 60), moved into the next window |
| in progress | same, no attempts left (max_call_attempts, null = 1) | busy / no_answer / not_reached / failed |
| in progress | invalid number | invalid_number |
| in progress | insufficient funds | awaiting_queue; the campaign is paused; the attempt is not counted |
| in progress | provider refused with a retryable error | call_scheduled in 1 minute; the attempt is not counted |
| in progress | inbound call ended | finished after a conversation, else the final status above (no call-back) |
| any | set by a user to do_not_disturb or paused | never dialled; a call in progress ends normally and does not change the status back |

An explicit enqueue gives a contact one more call even past max_call_attempts; retries after it follow the rules above.
A call with no end event is reconciled with the provider after its maximum duration plus a margin; if the provider has no
record it ends failed ("no end event...") and the contact follows the retry rules.`;
