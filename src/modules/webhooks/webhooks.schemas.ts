import { Type, type Static } from 'typebox';
import { DateTime, Id, Nullable, StringEnum } from '../../http/schemas.ts';
import { SKIPPED_BY } from './enqueue-deliveries.ts';

/** Statuses the API lets an integration filter on; empty means any finished call. */
export const SELECTABLE_CALL_STATUSES = ['finished', 'failed', 'busy_or_rejected', 'invalid number', 'rejected', 'terminated', 'unavailable', 'voicemail'] as const;

const AuthType = Type.Union([Type.Literal('none'), Type.Literal('basic'), Type.Literal('bearer'), Type.Literal('api_key')], {
  description: 'How the receiver is authenticated: none; basic (basic_login and basic_password); bearer (bearer_token); api_key (api_key_value sent in the api_key_header header)',
});
const HttpMethod = Type.Union([Type.Literal('POST'), Type.Literal('PUT')]);
const CallStatus = Type.Union([
  Type.Literal('finished'), Type.Literal('failed'), Type.Literal('busy_or_rejected'), Type.Literal('invalid number'),
  Type.Literal('rejected'), Type.Literal('terminated'), Type.Literal('unavailable'), Type.Literal('voicemail'),
]);
const HeaderName = Type.String({ pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$", maxLength: 100 });
const Secret = Type.String({ minLength: 1, maxLength: 4096 });

const RequestSchemaInput = Type.Union(
  [
    Type.String({ minLength: 1, maxLength: 65536, description: 'lines "field - description", or any of the JSON forms as text' }),
    Type.Object({}, { additionalProperties: true, description: 'an example object, an object of field -> description, or a JSON Schema' }),
  ],
  {
    description:
      'Four forms, all stored as one JSON Schema (type object, properties, required, additionalProperties false): ' +
      '(1) an example JSON object, types inferred (null -> ["string","null"]); (2) an object of field name -> description ' +
      '(an object whose values are all strings is read this way; fields are strings); (3) text lines "field - description" ' +
      '(-, – or —); (4) a JSON Schema with type object, properties, required, additionalProperties false, field types ' +
      'string, integer, number, boolean or [type, "null"], optional description and enum. Field names: letters, digits, underscore. ' +
      'In forms 1-3 every field is required. An unparseable schema is a 422 saying why.',
  },
);

const Instructions = Type.Record(Type.String(), Type.String({ maxLength: 4000 }), {
  description: 'AI instructions per field: field name -> rule. May use the placeholders; {{call.record_url}} makes sending wait up to 20 s for the recording.',
});

const settings = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'http or https; may contain placeholders such as {{call.id}} (URL-encoded when sent)' }),
  auth_type: Type.Optional(AuthType),
  basic_login: Type.Optional(Nullable(Type.String({ maxLength: 512 }))),
  basic_password: Type.Optional(Nullable(Secret)),
  bearer_token: Type.Optional(Nullable(Secret)),
  api_key_value: Type.Optional(Nullable(Secret)),
  api_key_header: Type.Optional(HeaderName),
  http_method: Type.Optional(HttpMethod),
  allowed_hosts: Type.Optional(
    Nullable(
      Type.String({
        maxLength: 2048,
        description:
          'comma-separated host names; default the URL\'s host. An entry matches itself and its subdomains (example.com allows api.example.com). ' +
          'Whatever the list says, loopback, private, link-local, CGNAT, unique-local, multicast and unspecified addresses are refused when connecting.',
      }),
    ),
  ),
  timeout: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, description: 'seconds to wait for the receiver (default 30)' })),
  save_data_use_url_params: Type.Optional(Type.Boolean({ description: 'false (default): JSON body; true: the fields as URL query parameters (null as an empty value)' })),
  request_schema: RequestSchemaInput,
  instructions: Type.Optional(Nullable(Instructions)),
  only_interested: Type.Optional(Type.Boolean({ description: 'default true: send only when action_status is interested' })),
  call_statuses: Type.Optional(Type.Array(CallStatus, { uniqueItems: true, description: 'empty (default) = any finished call' })),
  campaign_ids: Type.Array(Id, { minItems: 1, maxItems: 1000, uniqueItems: true }),
  is_active: Type.Optional(Type.Boolean({ description: 'default true; an inactive integration sends nothing' })),
  send_inbound_texts: Type.Optional(
    Type.Boolean({
      description:
        'default false: also send each inbound text (a contact\'s SMS or WhatsApp reply to a campaign of the integration) as its own request, ' +
        'the event `text.received` with a fixed payload (docs/webhooks.md, "Inbound texts"): no extraction, and only_interested and call_statuses do not apply. ' +
        'Delivered once per integration and text, signed like the post-call webhook; its delivery has kind text and message_id.',
    }),
  ),
  send_campaign_events: Type.Optional(
    Type.Boolean({
      description:
        'default false: also send the event `campaign.paused` when one of the integration\'s campaigns pauses itself because too many of its calls failed ' +
        '(the circuit breaker, GET/PUT /api/v1/campaigns/{id}/protection), with a fixed payload (docs/webhooks.md, "Campaign paused"): the campaign and the figures ' +
        '(failures, attempts, window_seconds, at). Delivered once per integration and pause, signed like the post-call webhook; its delivery has kind campaign.',
    }),
  ),
};

export const IntegrationCreate = Type.Object(settings);
export type IntegrationCreate = Static<typeof IntegrationCreate>;

export const IntegrationUpdate = Type.Object({
  ...settings,
  url: Type.Optional(settings.url),
  request_schema: Type.Optional(settings.request_schema),
  campaign_ids: Type.Optional(settings.campaign_ids),
});
export type IntegrationUpdate = Static<typeof IntegrationUpdate>;

const NormalisedSchema = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Record(Type.String(), Type.Object({}, { additionalProperties: true })),
    required: Type.Array(Type.String()),
    additionalProperties: Type.Literal(false),
  },
  { additionalProperties: true },
);

const masked = (what: string) => Nullable(Type.String({ description: `${what}: masked (****) after creation` }));

export const Integration = Type.Object({
  id: Type.Integer(),
  owner_id: Type.Integer(),
  name: Nullable(Type.String()),
  url: Type.String(),
  auth_type: AuthType,
  basic_login: Nullable(Type.String()),
  basic_password: masked('Basic password'),
  bearer_token: masked('Bearer token'),
  api_key_value: masked('API key value'),
  api_key_header: Type.String(),
  http_method: HttpMethod,
  allowed_hosts: Type.String(),
  timeout: Type.Integer(),
  save_data_use_url_params: Type.Boolean(),
  request_schema: NormalisedSchema,
  instructions: Type.Record(Type.String(), Type.String()),
  only_interested: Type.Boolean(),
  call_statuses: Type.Array(Type.String()),
  campaign_ids: Type.Array(Type.Integer()),
  is_active: Type.Boolean(),
  send_inbound_texts: Type.Boolean(),
  send_campaign_events: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
});

export const IntegrationCreated = Type.Object({
  ...Integration.properties,
  signing_secret: Type.String({
    description:
      'shown once. Every request carries Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature = ' +
      '"v1," + base64(HMAC-SHA256(base64-decoded part after "whsec_", `${webhook-id}.${webhook-timestamp}.${body}`)); in URL-params mode the body is empty.',
  }),
});

export const IntegrationList = Type.Object({ data: Type.Array(Integration), count: Type.Integer() });

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('skipped')]);

export const Delivery = Type.Object({
  id: Type.Integer(),
  integration_id: Type.Integer(),
  call_id: Nullable(Type.Integer()),
  message_id: Nullable(Type.Integer({ description: 'the inbound text a delivery of kind text tells of; null for the other kinds' })),
  kind: Type.String({ description: 'call (sent after a call), text (an inbound text, when send_inbound_texts is on), campaign (a campaign paused itself, when send_campaign_events is on), test, or redeliver (an explicit user request)' }),
  redelivery_of: Nullable(Type.Integer()),
  status: DeliveryStatus,
  reason: Nullable(Type.String({ description: 'why it failed or was skipped, in words' })),
  skipped_by: Nullable(
    StringEnum(SKIPPED_BY, {
      description:
        'for a skipped delivery, what skipped it: only_interested (the integration sends only calls whose action_status is interested, and this one\'s was not), ' +
        'call_statuses (the call\'s status is not in the integration\'s list), no_transcript (nothing to extract a payload from); null otherwise',
    }),
  ),
  request_method: Nullable(Type.String()),
  request_url: Nullable(Type.String()),
  payload: Nullable(Type.Object({}, { additionalProperties: true })),
  extraction_method: Nullable(Type.String({ description: 'offline (the built-in rules, when LLM_BASE_URL is unset) or llm:<model>' })),
  null_fields: Nullable(Type.Array(Type.String(), { description: 'every field sent as null' })),
  missing_required: Nullable(
    Type.Array(Type.String(), {
      description:
        'the required fields of the request schema that were sent as null because nothing in the call gave a value: ' +
        'worth a look when it is not empty (an LLM, LLM_BASE_URL, fills free-text fields the offline rules cannot). ' +
        'Null when the delivery built no payload (a redelivery resends the original\'s) and for deliveries older than this field.',
    }),
  ),
  http_status: Nullable(Type.Integer()),
  duration_ms: Nullable(Type.Integer()),
  response_body: Nullable(Type.String({ description: 'the receiver\'s answer, first 4 KB' })),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
});

export const DeliveryList = Type.Object({
  data: Type.Array(Delivery),
  count: Type.Integer(),
  count_exact: Type.Optional(
    Type.Boolean({ description: "true when count is exact (at most 1000 deliveries match); false when more match and count is the database's estimate" }),
  ),
});
