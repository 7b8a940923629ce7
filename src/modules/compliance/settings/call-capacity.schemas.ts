import { Type, type Static } from 'typebox';

const Max = Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Null()], {
  description: 'the account\'s calls in progress at once, every campaign, inbound and outbound; null = no account cap (campaigns\' concurrent_call_limit and MAX_CONCURRENT_CALLS still apply)',
});
const Reserve = Type.Integer({
  minimum: 0, maximum: 100_000,
  description: 'of max_concurrent_calls, how many are kept free for inbound calls while outbound campaigns run (default 0); needs max_concurrent_calls and is at most it',
});

/** The account's concurrency cap and inbound reserve, with what is in use now. */
export const CallCapacity = Type.Object({
  max_concurrent_calls: Max,
  reserved_inbound_calls: Reserve,
  calls_in_progress: Type.Object({
    outbound: Type.Integer({ minimum: 0, description: 'the account\'s outbound calls in progress now' }),
    inbound: Type.Integer({ minimum: 0, description: 'the account\'s inbound calls in progress now' }),
  }, { description: 'counted when the answer was made (read-only)' }),
  outbound_room: Type.Union([Type.Integer(), Type.Null()], {
    description: 'how many more outbound calls may start now: max_concurrent_calls - outbound - max(inbound, reserved_inbound_calls), at least 0; null without a cap (read-only)',
  }),
});
export type CallCapacity = Static<typeof CallCapacity>;

/** The update: the cap is always named (null removes it); the reserve left out is 0. */
export const CallCapacityUpdate = Type.Object({
  max_concurrent_calls: Max,
  reserved_inbound_calls: Type.Optional(Reserve),
});
export type CallCapacityUpdate = Static<typeof CallCapacityUpdate>;
