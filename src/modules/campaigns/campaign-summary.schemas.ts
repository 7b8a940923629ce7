import { Type, type Static } from 'typebox';
import { DateTime, Nullable } from '../../http/schemas.ts';
import { CONTACT_STATUSES } from '../contacts/contacts.schemas.ts';
import { LimitUnit } from './campaigns.schemas.ts';
import { PausedBy } from '../breaker/protection.schemas.ts';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

const ByStatus = Type.Object(
  Object.fromEntries(CONTACT_STATUSES.map((s) => [s, Count(`contacts with status "${s}"`)])) as Record<(typeof CONTACT_STATUSES)[number], ReturnType<typeof Count>>,
  {
    // A status written before the enum knew it is still counted rather than dropped, so the counts add up to total.
    additionalProperties: Type.Integer({ minimum: 0 }),
    description: 'Contacts per status. Every ContactStatus is present (0 when none); the values add up to total.',
  },
);

export const CampaignSummary = Type.Object(
  {
    campaign_id: Type.Integer(),
    as_of: Type.Unsafe<Date | string>({ ...DateTime, description: 'The instant the summary describes (the service clock).' }),
    contacts: Type.Object({
      total: Count('all contacts of the campaign'),
      by_status: ByStatus,
    }),
    calls_in_progress: Count(
      'Calls of the campaign with status "in progress" (inbound ones too): what the dialer counts against concurrent_call_limit.',
    ),
    next_call_at: Nullable(DateTime, {
      description:
        'When the dialer can start the campaign\'s next outbound call: the earliest next_action_time among contacts in added_to_queue or call_scheduled ' +
        '(never before as_of), moved to the opening of the calling window in that contact\'s zone when the window is closed then. ' +
        'null when no call can be predicted: see next_call_reason.',
    }),
    next_call_reason: Type.String({
      description:
        'Why next_call_at is what it is: "due now"; "scheduled: <the contact\'s next_action_reason>" (a retry or a rescheduled contact); ' +
        '"calling window opens at <local time> in <zone(s)>"; or, with next_call_at null, "campaign paused", "campaign archived", ' +
        '"inbound campaign: it places no outbound calls", "campaign usage limit reached [until <limit_end>]", ' +
        '"due now, but all N concurrent call slots are in use: ...", "no contact queued[; N awaiting_queue ...]" or ' +
        '"no calling window: the campaign schedule and allowed hours never open".',
    }),
    next_contact_id: Nullable(Type.Integer(), {
      description: 'The contact the next call goes to, as far as can be told now (of several contacts due at the same instant, one of them); null when no contact is due to be called.',
    }),
    usage: Nullable(
      Type.Object({
        limit_value: Type.Number({ description: 'The campaign\'s limit_value.' }),
        limit_unit: LimitUnit,
        limit_usage: Type.Number({ description: 'Usage in the period as of the last ended call, or the last text that found the limit reached (the campaign\'s limit_usage; for cost, calls\' and outbound texts\' cost).' }),
        limit_reached: Type.Boolean({ description: 'The campaign\'s limit_reached: while true, no new call starts and no text is sent (texts wait).' }),
        period_start: Nullable(DateTime, { description: 'limit_start; null = no start.' }),
        period_end: Nullable(DateTime, { description: 'limit_end; null = no end.' }),
        active: Type.Boolean({ description: 'Whether as_of is inside the period, i.e. whether the limit applies now.' }),
      }),
      { description: 'The usage limit; null when the campaign has none (limit_value or limit_unit unset).' },
    ),
    paused_by: PausedBy,
  },
  { description: 'CampaignSummary' },
);
export type CampaignSummary = Static<typeof CampaignSummary>;
