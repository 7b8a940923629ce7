import type { TerminalCallStatus } from './provider.ts';

/**
 * A SIP final response to the call's INVITE as the interface's CallStatus (issue 29). Every
 * vendor that sends a call through a customer's trunk reports the trunk's answer: Twilio as
 * SipResponseCode, the simulator as its scripted code. Codes not listed fall back by class:
 * another 4xx is `failed` (the request was wrong), 5xx `unavailable` (the trunk or the far end
 * could not take it now), another 6xx `busy_or_rejected` (a global refusal).
 */
const BY_CODE: Record<number, { status: TerminalCallStatus; reason: string }> = {
  402: { status: 'insufficient funds', reason: 'the trunk refused the call: payment required (402)' },
  403: { status: 'rejected', reason: 'the trunk refused the call: forbidden (403)' },
  404: { status: 'invalid number', reason: 'the trunk does not know the number (404 Not Found)' },
  408: { status: 'unavailable', reason: 'the far end did not answer in time (408 Request Timeout)' },
  480: { status: 'unavailable', reason: 'the person is not reachable now (480 Temporarily Unavailable)' },
  484: { status: 'invalid number', reason: 'the number is incomplete (484 Address Incomplete)' },
  486: { status: 'busy_or_rejected', reason: 'the line was busy (486 Busy Here)' },
  487: { status: 'terminated', reason: 'the call was cancelled before it was answered (487 Request Terminated)' },
  600: { status: 'busy_or_rejected', reason: 'busy everywhere (600 Busy Everywhere)' },
  603: { status: 'rejected', reason: 'the call was declined (603 Decline)' },
};

/** The status of a call whose INVITE got this final response, or null for a success (2xx) or a non-final code. */
export function statusOfSipCode(code: number): { status: TerminalCallStatus; reason: string } | null {
  if (!Number.isInteger(code) || code < 300 || code > 699) return null;
  const known = BY_CODE[code];
  if (known) return known;
  if (code < 400) return { status: 'failed', reason: `the trunk redirected the call (${code}); redirects are not followed` };
  if (code < 500) return { status: 'failed', reason: `the trunk refused the call (${code})` };
  if (code < 600) return { status: 'unavailable', reason: `the trunk or the far end failed (${code})` };
  return { status: 'busy_or_rejected', reason: `the call was refused everywhere (${code})` };
}

/** The SIP route of one call as its vendor receives it (StartCallRequest.sip). */
export interface SipCallRoute {
  /** The trunk's URI with the contact's number as its user part (sip-uri.ts sipUriForNumber). */
  uri: string;
  /** The trunk's address as the campaign wrote it (campaign_sip). */
  trunkUri: string;
  /** The account's SIP trunk (modules/sip-trunks); null: the campaign named none (the trunk authenticates by IP). */
  trunkId: number | null;
  username: string | null;
  /** In the clear, for the vendor's request only: never logged, never stored unsealed. */
  password: string | null;
  gateways: string[];
  /** The numbers the trunk owns (Vapi and Retell place calls from one). */
  callerIds: string[];
}
