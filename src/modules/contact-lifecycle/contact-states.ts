import { sql, type RawBuilder } from 'kysely';

/**
 * The contact statuses the lifecycle moves between, as far as code branches on them. The whole
 * list a client may see is CONTACT_STATUSES (contacts.schemas.ts).
 */

/** Due: waiting for its next_action_time, then claimed by a channel (the dialer). */
export const DUE_STATUSES = ['added_to_queue', 'call_scheduled'] as const;

/** DUE_STATUSES as an SQL list, `('added_to_queue', 'call_scheduled')`, for `status IN ...`. */
export const dueStatusesSql = (): RawBuilder<unknown> => sql`(${sql.join(DUE_STATUSES.map((s) => sql.lit(s)))})`;

/** Never put in the queue: one is being called, the others were told not to be. */
export const NEVER_QUEUED: readonly string[] = ['in progress', 'do_not_disturb', 'paused'];

/**
 * The statuses a contact created in an auto_calls campaign is queued from. A contact
 * created with an outcome (finished, invalid_number, busy: history being imported) keeps
 * it: queueing it overwrote the status and called it again.
 */
export const QUEUED_ON_CREATION: readonly string[] = ['new', 'awaiting_queue'];

