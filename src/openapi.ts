import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './app.ts';

export const TAGS = [
  { name: 'login', description: 'OAuth 2.0 password flow for accounts and sub-users' },
  { name: 'users', description: 'Accounts (a superuser creates them), their display preferences (time zone, currency) and a login\'s own password' },
  { name: 'setup', description: 'First run: whether the service still needs its owner account, and creating it from the dashboard' },
  { name: 'api-keys', description: 'The profile area\'s API keys tab: a key is shown once and stored hashed' },
  { name: 'sub-users', description: 'Sub-users of an account and the campaigns granted to them' },
  { name: 'campaigns', description: 'List, read, create, update campaigns; queue all contacts of a campaign for calling' },
  { name: 'phone-numbers', description: 'Caller numbers of the account and their assignment to campaigns' },
  { name: 'contacts', description: 'List, read, create, update, delete contacts; bulk import; queue contacts for calling' },
  { name: 'calls', description: 'List calls, read one call' },
  { name: 'analytics', description: 'Detailed analytics and trends' },
  { name: 'contact-creation-integration', description: 'Create or update a contact using an integration token (its own authentication), and manage those integrations' },
  { name: 'webhooks', description: 'Post-call webhook integrations (the integrations area), their delivery log, test sends and redelivery' },
  { name: 'assistants', description: 'Assistants: who talks on a campaign\'s calls (provider, prompts, voicemail, how the outcome becomes action_status)' },
  { name: 'voice-connections', description: 'An account\'s own Vapi or Retell credentials (write-only secrets, sealed at rest)' },
  { name: 'sip-trunks', description: 'An account\'s SIP trunks (voice connections of kind SIP trunk): the credentials, gateways and caller IDs a campaign\'s calls through its campaign_sip use' },
  { name: 'voice', description: 'Voice-provider events (signed by the provider) and the simulator\'s inbound-call trigger' },
  { name: 'messaging', description: 'Text-message vendors\' callbacks (signed by the vendor): delivery reports and inbound texts' },
  { name: 'audit', description: 'The account\'s audit log: who changed credentials, settings, prompts and suppressions, and when' },
  { name: 'compliance', description: 'The account\'s quiet hours and frequency caps, which bound every campaign' },
  { name: 'messages', description: 'Text messages (SMS, WhatsApp): the texts as the interface\'s Message object, a contact\'s calls and texts in one timeline, texts by hand, drafts, the queue of texts, a campaign\'s text settings' },
  { name: 'live', description: 'What happens as it happens: a server-sent event stream per account (calls starting, transcript turns, outcomes, campaigns paused) and the calls in progress' },
  { name: 'suppressions', description: 'The account\'s do-not-call list: numbers no campaign calls, added by hand, by CSV or by an opt-out in a call' },
  { name: 'privacy', description: 'Personal data: how long it is kept (retention) and the job that empties it when its time has come; one person\'s data exported or erased on request' },
  { name: 'test-scenarios', description: 'Test conversations that prove a campaign\'s agent before it calls people: personas with success criteria, runs judged per criterion, and the account\'s gate on approving prompts' },
  { name: 'experiments', description: 'A campaign\'s experiments: its approved prompt against up to three variants (prompt versions or assistants), split per contact by weight, with results, confidence and a stopping rule; the winner made live' },
  { name: 'scorecards', description: 'Scoring every call: a campaign\'s scorecard (criteria an LLM judges on each finished call, problem tags), each call\'s score, and a campaign\'s score summary' },
];

const SECURITY = [{ APIKeyHeader: [] }, { OAuth2PasswordBearer: [] }, { cookieAuth: [] }];
// Routes with their own authentication (or none) under /api/v1: login, the integration token's
// routes, and provider events (signed by the provider). The simulator's inbound trigger beside
// them needs a credential like any other operation.
// Twilio's entry points are verified by X-Twilio-Signature (modules/agent/twilio.routes.ts,
// modules/messaging/twilio-texts.routes.ts).
const OWN_AUTHENTICATION = [/^\/api\/v1\/login\//, /^\/api\/v1\/contact-creation-integration\//, /^\/api\/v1\/voice\/:provider\/events$/, /^\/api\/v1\/voice\/twilio\/(twiml|action|amd|events)$/,
  /^\/api\/v1\/messaging\/twilio\/(status|inbound)\//];

const DESCRIPTION = `AI voice-call campaigns: accounts, campaigns, contacts, a dialer, calls and analytics.

Conventions this service fixes where the public interface leaves them open:
- Errors: 422 \`{detail: [{loc, msg, type}]}\` (loc starts with body, query, path or header); 401, 403, 404 and 409 \`{detail: "..."}\`.
  An object of another account is 403 \`Not enough permissions\`; an unknown id is 404.
- Array query parameters: repeated keys (\`?status=new&status=failed\`) or a comma list. Booleans: true/false/1/0.
- Range filters (\`*_from\`, \`*_to\`) include both bounds. Lists are sorted newest first (id descending).
- \`limit\` is at most 1000 on every list; above it is a 422.
- Date-times are ISO 8601; responses are in UTC. In the query a date alone or a date-time without an offset is read in the request's \`timezone\` parameter (analytics), else UTC; in a JSON body a date-time needs its offset.
- Unknown body fields are ignored on every operation (dropped before the request is handled): owners, ids, hashes, counters and timestamps never come from a body.
- Ids in the path, query or body are integers from 1 to 2^53-1; outside that range: 422. An id in range that names nothing: 404.
- Query numbers must be finite (\`1e400\` is a 422); query and path text may not hold NUL or lone surrogates (422).
- A JSON body is checked in full when small (every error listed, at most 50) and up to its first error when large; text may not hold NUL or lone surrogates, and JSON nests at most 64 levels (422).
- Phone numbers are normalised to E.164; numbers written without + are read in the service's DEFAULT_COUNTRY.
- Time limit: each database statement of a request may run API_STATEMENT_TIMEOUT_MS (default 3 s, PostgreSQL); one stopped there answers 503 \`{detail}\` with Retry-After and changes nothing (its transaction is rolled back). The 503 of the calls, contacts, webhook deliveries and audit events lists names its filters; analytics reports keep their own limit.
- Rate limits: only failed logins are throttled (429 \`{detail}\` with Retry-After; see the login route).
- Authentication: \`X-API-Key\`, else \`Authorization: Bearer\`, else the dashboard's \`vc_session\` cookie (\`POST /api/v1/session\`). A request authenticated by the cookie whose method is not GET, HEAD or OPTIONS must carry \`X-Requested-With: voice-campaigns\`, else 403 and nothing changes.`;

/**
 * The `<style>` elements Swagger UI writes into the page: its top bar's logo is an SVG carrying one.
 * Allowed by their hashes, read from the shipped bundle so an upgrade of the package brings its own
 * (the browser test in test/ui/docs.test.ts fails if one is missed), rather than 'unsafe-inline'.
 */
function swaggerUiStyleHashes(): string[] {
  const dir = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');
  const hashes = new Set<string>();
  for (const file of ['swagger-ui-standalone-preset.js', 'swagger-ui-bundle.js']) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const [, css] of source.matchAll(/createElement\("style",null,"([^"\\]*)"\)/g)) {
      hashes.add(`'sha256-${createHash('sha256').update(css!).digest('base64')}'`);
    }
  }
  return [...hashes];
}

/**
 * The policy of /docs (Swagger UI) and its assets. The page has no inline script (the plugin's
 * csp.json lists no hash to allow); Swagger UI sets element styles through the DOM, which a policy
 * does not govern, writes one <style> (hashed above), draws icons as data: SVGs, and fetches only
 * /docs/json. No validator badge (validatorUrl false), so no image from validator.swagger.io.
 * `frame-ancestors 'none'`: no page may frame it (clickjacking a "Try it out" with the cookie's session).
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "script-src-attr 'none'",
  `style-src 'self' ${swaggerUiStyleHashes().join(' ')}`,
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function registerOpenApi(app: App) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v1/')) return;
    // Operations with an authentication of their own (a token, a vendor's signature, none) say
    // `security: []`, so a generated client sends them no account credentials.
    const own = OWN_AUTHENTICATION.some((p) => p.test(route.url));
    route.schema = { ...route.schema, security: route.schema?.security ?? (own ? [] : SECURITY) } as typeof route.schema;
  });
  await app.register(swagger, {
    // A plugin's `/` route is registered without its trailing slash; the API writes collections with it.
    transform: ({ schema, url, route }) => {
      const { routePath, prefix } = route as { routePath?: string; prefix?: string };
      return { schema, url: routePath === '' && prefix ? `${url}/` : url };
    },
    // Fastify marks every query parameter of a TypeBox object as required; one with a default is optional to a client.
    transformObject: (input) => {
      const openapiObject = (input as unknown as { openapiObject: { paths?: Record<string, unknown> } }).openapiObject;
      for (const methods of Object.values(openapiObject.paths ?? {})) {
        for (const op of Object.values(methods as Record<string, { parameters?: { in: string; required?: boolean; schema?: { default?: unknown } }[] }>)) {
          for (const p of op.parameters ?? []) if (p.in === 'query' && p.schema?.default !== undefined) p.required = false;
        }
      }
      return openapiObject as never;
    },
    openapi: {
      openapi: '3.1.0',
      info: { title: 'voice-campaigns', version: '0.1.0', description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
      // Relative: the document is served by the service it describes, wherever that runs.
      servers: [{ url: '/', description: 'this service (the host that served this document)' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          APIKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          OAuth2PasswordBearer: { type: 'oauth2', flows: { password: { tokenUrl: '/api/v1/login/access-token', scopes: {} } } },
          cookieAuth: {
            type: 'apiKey', in: 'cookie', name: 'vc_session',
            description: 'The dashboard session from POST /api/v1/session (HttpOnly, SameSite=Strict). Requests it authenticates that are not GET, HEAD or OPTIONS need the header X-Requested-With: voice-campaigns (403 otherwise).',
          },
        },
      },
    },
  });
  // Swagger UI is served from the package's own assets: no CDN.
  // Its policy (DOCS_CSP) on every answer under /docs, the page and its assets alike.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CSP, validatorUrl: false });
  app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
