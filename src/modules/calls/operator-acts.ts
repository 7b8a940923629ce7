import type { TerminalCallStatus } from '../../voice/provider.ts';
import type { Principal } from '../auth/principal.ts';

/**
 * An operator's end or transfer of a call in progress, kept in call_data.operator from the moment
 * it is asked (before the vendor is), so the call's end, whichever process and vendor event brings
 * it, records the operator's outcome instead of the vendor's reading of it (finishCalls).
 */
export interface OperatorAct {
  action: 'end' | 'transfer';
  user_id: number | null;
  sub_user_id: number | null;
  api_key_id: number | null;
  at: string;
  /** Where a transfer went (E.164). */
  phone_number?: string;
}

/** Who acted, as call_data shows it. */
export function actorIds(p: Principal): Pick<OperatorAct, 'user_id' | 'sub_user_id' | 'api_key_id'> {
  if (p.kind === 'sub_user') return { user_id: null, sub_user_id: p.subUserId, api_key_id: null };
  return { user_id: p.userId, sub_user_id: null, api_key_id: p.apiKey?.id ?? null };
}

export const ENDED_BY_OPERATOR = 'ended by operator';

interface EndOutcome {
  status: TerminalCallStatus;
  actionStatus?: string | null;
  actionStatusReason?: string | null;
  endedBy?: string | null;
  endedReason?: string;
}

/**
 * The call's outcome once an operator acted. An end: ended by a HUMAN, `ended by operator`, and a
 * vendor's `terminated` (its word for a hang-up through its API) is `finished`: a person chose to
 * end the call, so its contact takes the step of a finished call, not a retry. A transfer:
 * `transferred`, to the operator's number; who hung up last stays the vendor's word.
 */
export function withOperatorAct<O extends EndOutcome>(outcome: O, act: OperatorAct | undefined): O {
  if (!act) return outcome;
  if (act.action === 'transfer') {
    return { ...outcome, actionStatus: 'transferred', actionStatusReason: `transferred by operator to ${act.phone_number ?? 'a person'}` };
  }
  return {
    ...outcome,
    status: outcome.status === 'terminated' ? 'finished' : outcome.status,
    endedBy: 'HUMAN',
    endedReason: ENDED_BY_OPERATOR,
  };
}
