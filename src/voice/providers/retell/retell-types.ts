/**
 * The wire types, from the vendor's own SDK (retell-sdk, pinned in package.json): requests
 * and events agree with Retell's definitions, and a new disconnection_reason in an SDK
 * upgrade fails the type check of the outcome table until it is mapped.
 */
import type { CallCreatePhoneCallParams, CallListParams, CallListResponse, PhoneCallResponse } from 'retell-sdk/resources/call';

export type { CallCreatePhoneCallParams, CallListParams, CallListResponse, PhoneCallResponse };
export type DisconnectionReason = NonNullable<PhoneCallResponse['disconnection_reason']>;
export type RetellAgentOverride = NonNullable<CallCreatePhoneCallParams['agent_override']>;
export type RetellEventName = 'call_started' | 'call_ended' | 'call_analyzed';

/** A call event as Retell posts it: the `call` is the same object get-call returns. */
export interface RetellWebhookBody {
  event: RetellEventName | string;
  call: PhoneCallResponse;
}

/** The inbound webhook (number setting "Inbound Webhook URL"): no call exists yet, hence no call id. */
export interface RetellInboundBody {
  event: 'call_inbound';
  call_inbound: { agent_id?: string; agent_version?: number; from_number: string; to_number: string };
}

/** Our answer to call_inbound: every field is optional; `{}` overrides nothing. */
export interface RetellInboundAnswer {
  call_inbound: {
    override_agent_id?: string;
    dynamic_variables?: Record<string, string>;
    metadata?: Record<string, unknown>;
    agent_override?: RetellAgentOverride;
  };
}
