import { sql } from 'kysely';
import type { Deps } from '../../deps.ts';
import type { TextProvider } from '../../messaging/text-channel.ts';
import { createTwilioTextProvider } from '../../messaging/twilio/twilio-texts.ts';
import { EMPTY_TWIML, parseTwilioInboundText, parseTwilioTextStatus, verifyTwilioTextSignature } from '../../messaging/twilio/twilio-text-webhooks.ts';
import { parseTextRouteParam, TWILIO_TEXT_PATH, twilioTextUrls } from '../../messaging/twilio/twilio-text-urls.ts';
import { openVoiceConnection } from '../voice-connections/voice-connections.repository.ts';

/**
 * Which vendor, credentials and sender carry a campaign's texts. The one place modules meet a
 * text vendor's own files (src/messaging/twilio): everything else goes through this file.
 *
 * The rule, first match wins:
 * 1. the campaign's assistant runs on a Twilio voice connection: that connection;
 * 2. the account has a Twilio voice connection: its oldest one;
 * 3. the service has TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, and the campaign's calls go
 *    through Twilio (its assistant's provider is twilio, or VOICE_PROVIDER=twilio): those;
 * 4. the simulator.
 * The sender is the campaign's number, else the route's own (the connection's from_number or
 * TWILIO_FROM_NUMBER); a campaign's Messaging Service (MG…) picks the sender itself.
 */
export interface TextRoute {
  provider: TextProvider;
  /** The voice connection whose credentials send (null: the service's settings or the simulator). */
  connectionId: number | null;
  /** The sender number (E.164), null when a Messaging Service picks it. */
  from: string | null;
}

export interface TextRouteInput {
  ownerId: number;
  campaignId: number;
  campaignPhone: string | null;
  messagingServiceSid: string | null;
}

/** Twilio credentials of one route, opened. */
interface TwilioTextCredentials {
  connectionId: number | null;
  /** The account the credentials belong to; null for the service's own (any account). */
  ownerId: number | null;
  accountSid: string;
  authToken: string;
  fromNumber: string | null;
}

export async function textRouteFor(deps: Deps, input: TextRouteInput): Promise<TextRoute> {
  return (await textRoutesFor(deps, [input])).get(input.campaignId)!;
}

/**
 * The routes of a batch's campaigns, by campaign id: their assistants and their accounts' oldest
 * Twilio connections read in one statement, each connection opened once.
 */
export async function textRoutesFor(deps: Deps, inputs: TextRouteInput[]): Promise<Map<number, TextRoute>> {
  const out = new Map<number, TextRoute>();
  if (inputs.length === 0) return out;
  const rows = await deps.db.selectFrom('campaigns as c')
    .leftJoin('assistants as a', (j) => j.onRef('a.id', '=', 'c.assistant_id').onRef('a.owner_id', '=', 'c.owner_id'))
    .select(['c.id', 'c.owner_id', 'a.provider', 'a.voice_connection_id'])
    .select(sql<number | null>`(SELECT v.id FROM voice_connections v WHERE v.owner_id = c.owner_id AND v.provider = 'twilio' ORDER BY v.id LIMIT 1)`.as('account_connection'))
    .where('c.id', 'in', [...new Set(inputs.map((i) => i.campaignId))])
    .execute();
  const byCampaign = new Map(rows.map((r) => [Number(r.id), r]));
  const opened = new Map<number, Promise<TwilioTextCredentials | null>>();
  const open = (id: number) => {
    if (!opened.has(id)) opened.set(id, connectionCredentials(deps, id));
    return opened.get(id)!;
  };
  for (const input of inputs) {
    if (out.has(input.campaignId)) continue;
    const row = byCampaign.get(input.campaignId);
    // Another account's campaign id reads as no campaign: its assistant and connections are not this account's.
    const campaign = row && Number(row.owner_id) === input.ownerId ? row : undefined;
    const credentials = await credentialsOf(deps, campaign, open);
    out.set(input.campaignId, routeOf(deps, input, credentials));
  }
  return out;
}

type RouteRow = { provider: string | null; voice_connection_id: number | null; account_connection: number | null };

async function credentialsOf(deps: Deps, campaign: RouteRow | undefined, open: (id: number) => Promise<TwilioTextCredentials | null>): Promise<TwilioTextCredentials | null> {
  if (campaign?.provider === 'twilio' && campaign.voice_connection_id !== null) {
    const own = await open(Number(campaign.voice_connection_id));
    if (own) return own;
  }
  if (campaign?.account_connection != null) {
    const theirs = await open(Number(campaign.account_connection));
    if (theirs) return theirs;
  }
  const callsOnTwilio = campaign?.provider === 'twilio' || deps.config.VOICE_PROVIDER === 'twilio';
  return callsOnTwilio ? environmentCredentials(deps) : null;
}

function routeOf(deps: Deps, input: TextRouteInput, credentials: TwilioTextCredentials | null): TextRoute {
  if (!credentials) return { provider: deps.texts.sim, connectionId: null, from: input.campaignPhone };
  const provider = createTwilioTextProvider({
    accountSid: credentials.accountSid, authToken: credentials.authToken, baseUrl: deps.config.TWILIO_BASE_URL,
    publicBaseUrl: deps.config.PUBLIC_BASE_URL ?? null, connectionId: credentials.connectionId,
  });
  const from = input.messagingServiceSid ? null : input.campaignPhone ?? credentials.fromNumber;
  return { provider, connectionId: credentials.connectionId, from };
}

function environmentCredentials(deps: Deps): TwilioTextCredentials | null {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM_NUMBER: fromNumber } = deps.config;
  return accountSid && authToken ? { connectionId: null, ownerId: null, accountSid, authToken, fromNumber: fromNumber ?? null } : null;
}

async function connectionCredentials(deps: Deps, id: number): Promise<TwilioTextCredentials | null> {
  const opened = await openVoiceConnection(deps.db, deps.secrets, id);
  if (!opened || opened.provider !== 'twilio' || !opened.accountSid) return null;
  return { connectionId: opened.id, ownerId: opened.owner_id, accountSid: opened.accountSid, authToken: opened.apiKey, fromNumber: opened.fromNumber };
}

/**
 * The credentials a Twilio callback's path names (`env` or `c<connection id>`), or null when the
 * route is unknown or not Twilio's: such a request is refused before anything of it is read.
 */
export async function twilioTextRoute(deps: Deps, param: string): Promise<TwilioTextCredentials | null> {
  const route = parseTextRouteParam(param);
  if (!route) return null;
  return route.connectionId === null ? environmentCredentials(deps) : connectionCredentials(deps, route.connectionId);
}

/** What the Twilio callbacks (twilio-texts.routes.ts) use of the vendor's folder. */
export const twilioTexts = {
  path: TWILIO_TEXT_PATH,
  urls: twilioTextUrls,
  verify: verifyTwilioTextSignature,
  parseStatus: parseTwilioTextStatus,
  parseInbound: parseTwilioInboundText,
  emptyTwiml: EMPTY_TWIML,
};
