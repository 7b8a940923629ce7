import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RawReplyDefaultExpression, type RawRequestDefaultExpression, type RawServerDefault } from 'fastify';
import formbody from '@fastify/formbody';
import { fastifySSE } from '@fastify/sse';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Deps } from './deps.ts';
import { registerOpenApi } from './openapi.ts';
import { buildValidator } from './http/validators.ts';
import { simInboundRoutes } from './modules/dialer/inbound/inbound.routes.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { handleError } from './http/error-handler.ts';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.ts';
import { applyRequestInputRules } from './http/request-input.ts';
import { createAllowedMethods } from './http/allowed-methods.ts';
import { enforceBodyDeadline, serverTimeouts } from './http/body-deadline.ts';
import { redactedUrl } from './http/redact-url.ts';
import { authenticate, credentialKind } from './modules/auth/authenticate.ts';
import { requireCsrfHeader, sessionTokenOf } from './modules/auth/dashboard-session.ts';
import { sessionRoutes, signInRoutes } from './modules/auth/session.routes.ts';
import { setupRoutes } from './modules/setup/setup.routes.ts';
import { dashboardStatic } from './http/dashboard-static.ts';
import type { Principal } from './modules/auth/principal.ts';
import { healthRoutes, isHealthProbe } from './modules/health/health.routes.ts';
import { loginRoutes } from './modules/auth/login.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.ts';
import { subUsersRoutes } from './modules/sub-users/sub-users.routes.ts';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes.ts';
import { phoneNumbersRoutes } from './modules/phone-numbers/phone-numbers.routes.ts';
import { contactsRoutes } from './modules/contacts/contacts.routes.ts';
import { callsRoutes } from './modules/calls/calls.routes.ts';
import { dialerRoutes } from './modules/dialer/dialer.routes.ts';
import { callEventsRoutes } from './modules/dialer/call-events/call-events.routes.ts';
import { twilioAgentRoutes } from './modules/agent/twilio.routes.ts';
import { twilioTextRoutes } from './modules/messaging/twilio-texts.routes.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { contactIntegrationsRoutes } from './modules/contact-integrations/contact-integrations.routes.ts';
import { createContactRoutes } from './modules/contact-integrations/create-contact.routes.ts';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.ts';
import { analyticsRoutes } from './modules/analytics/analytics.routes.ts';
import { assistantsRoutes } from './modules/assistants/assistants.routes.ts';
import { voiceConnectionsRoutes } from './modules/voice-connections/voice-connections.routes.ts';
import { suppressionsRoutes } from './modules/compliance/suppressions/suppressions.routes.ts';
import { registerMetrics } from './modules/metrics/metrics.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { complianceSettingsRoutes } from './modules/compliance/settings/compliance-settings.routes.ts';
import { contactTimelineRoutes, messageJobsRoutes, messagesRoutes } from './modules/messaging/messages.routes.ts';
import { campaignMessagingRoutes } from './modules/messaging/messaging-settings.routes.ts';
import { liveRoutes } from './modules/live/live.routes.ts';
import { campaignProtectionRoutes } from './modules/breaker/protection.routes.ts';
import { campaignPrivacyRoutes, privacySettingsRoutes } from './modules/privacy/retention/retention.routes.ts';
import { campaignRedactionRoutes, redactionSettingsRoutes } from './modules/privacy/redaction-policy/redaction-settings.routes.ts';
import { experimentsRoutes } from './modules/quality/experiments/experiments.routes.ts';
import { campaignRecordingRoutes } from './modules/privacy/recording-consent/recording-settings.routes.ts';
import { privacyPersonRoutes } from './modules/privacy/erasure/erasure.routes.ts';
import { campaignSipTrunkRoutes, sipTrunksRoutes } from './modules/sip-trunks/sip-trunks.routes.ts';
import { routeTestRoutes } from './modules/dialer/route-test/route-test.routes.ts';
import { campaignTestScenarioRoutes, testScenarioRoutes } from './modules/quality/scenarios/scenarios.routes.ts';
import { callScoreRoutes, campaignScorecardRoutes } from './modules/quality/scorecards/scorecards.routes.ts';

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
  interface FastifyRequest {
    /** Set by the authentication hook on every route under /api/v1 that needs it. */
    principal: Principal;
  }
}

/** Request log lines without secrets. */
export const redactedRequest = (req: { method: string; url: string; host?: string; ip?: string }) => ({
  method: req.method,
  url: redactedUrl(req.url),
  host: req.host,
  remoteAddress: req.ip,
});

/**
 * Fastify's request lines, with health probes' at debug: at info, a probe polled every few
 * seconds buries everything else. Same lines, same shape; a failed probe still logs its error.
 */
class ProbesAtDebug extends LogController {
  override incomingRequest(...args: Parameters<LogController['incomingRequest']>) {
    const [request] = args;
    if (isHealthProbe(request.url)) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(...args);
  }

  override requestCompleted(...args: Parameters<LogController['requestCompleted']>) {
    const [error, request, reply] = args;
    if (!error && isHealthProbe(request.url)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(...args);
  }
}

/** TRUST_PROXY as Fastify takes it: true, trust the nearest `hops` proxies, or a list of proxy addresses. */
function trustProxy(value: string | undefined): boolean | string | ((address: string, hop: number) => boolean) {
  if (value === undefined || value === '' || /^false$/i.test(value)) return false;
  if (/^true$/i.test(value)) return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  return value;
}

// A bound on every JSON body; bulk routes that need more raise it themselves.
const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Builds the HTTP application from its dependencies. Does not listen. */
export async function buildApp(
  deps: Deps,
  options: {
    logger?: FastifyServerOptions['logger'];
    /** The built dashboard's directory; default <repo>/ui/dist (tests bring their own). */
    dashboardDir?: string;
  } = {},
): Promise<App> {
  const proxies = trustProxy(deps.config.TRUST_PROXY);
  // The process logger (deps.log), with request lines redacted, unless the caller brings its own
  // logger options (tests: none, or a stream to read). Typed as Fastify's base logger, as App is.
  const processLogger: FastifyBaseLogger = deps.log.child({}, { serializers: { req: redactedRequest } });
  const logging = options.logger !== undefined ? { logger: options.logger } : { loggerInstance: processLogger };
  const timeouts = { headersMs: deps.config.HEADERS_TIMEOUT_MS, requestMs: deps.config.REQUEST_TIMEOUT_MS, uploadMs: deps.config.UPLOAD_TIMEOUT_MS };
  const app = Fastify({
    ...logging,
    ...serverTimeouts(timeouts),
    bodyLimit: DEFAULT_BODY_LIMIT,
    schemaController: { compilersFactory: { buildValidator: buildValidator as never } },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: proxies,
    frameworkErrors,
    clientErrorHandler,
    logController: new ProbesAtDebug(),
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (proxies === true) {
    app.log.warn('TRUST_PROXY=true takes the left-most X-Forwarded-For address, which a client can write itself; prefer a hop count');
  }

  // Requests read and write through the timed pool, so no request holds a connection past
  // API_STATEMENT_TIMEOUT_MS; background work started by a request still uses its own deps.
  const requestDeps: Deps = { ...deps, db: deps.requestDb };
  app.decorate('deps', requestDeps);
  app.decorateRequest('principal', null as never);
  // First of the hooks: a body has its deadline whatever the route does with it.
  enforceBodyDeadline(app, timeouts.requestMs);
  app.setErrorHandler(handleError);
  const allowed = createAllowedMethods();
  app.setNotFoundHandler((request, reply) => {
    const methods = allowed.allowedFor(request.url);
    if (methods.length === 0) return reply.code(404).send({ detail: 'Not Found' });
    return reply.code(405).header('allow', methods.join(', ')).send({ detail: `Method ${request.method} is not allowed here; this path answers ${methods.join(', ')}` });
  });
  app.addHook('onRoute', (route) => allowed.record(route));
  app.addHook('onRoute', applyRequestInputRules);
  // GET /metrics with METRICS_TOKEN, and the request timing hook (before the routes, so it covers them).
  registerMetrics(app);

  await app.register(formbody);
  await app.register(fastifySSE);
  registerJsonBodyParser(app);
  await registerOpenApi(app);
  await app.register(healthRoutes);
  await app.register(loginRoutes, { prefix: '/api/v1' });
  await app.register(signInRoutes, { prefix: '/api/v1' });
  await app.register(setupRoutes, { prefix: '/api/v1' });
  // Routes with their own authentication.
  await app.register(createContactRoutes, { prefix: '/api/v1/contact-creation-integration' });
  await app.register(callEventsRoutes, { prefix: '/api/v1/voice' });
  await app.register(twilioAgentRoutes, { prefix: '/api/v1/voice/twilio' });
  await app.register(twilioTextRoutes, { prefix: '/api/v1/messaging/twilio' });

  // Everything below needs an API key, a bearer token or the dashboard session cookie.
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request) => {
        const credentials = {
          apiKey: request.headers['x-api-key'] as string | undefined,
          authorization: request.headers.authorization,
          sessionToken: sessionTokenOf(request.headers.cookie),
        };
        request.principal = await authenticate({ ...credentials, repo: deps.authRepo, tokens: deps.tokens });
        // The browser sends the cookie whoever wrote the page: see dashboard-session.ts.
        if (credentialKind(credentials) === 'session') requireCsrfHeader(request);
      });
      await api.register(sessionRoutes);
      await api.register(usersRoutes, { prefix: '/users' });
      await api.register(apiKeysRoutes, { prefix: '/api-keys' });
      await api.register(subUsersRoutes, { prefix: '/sub-users' });
      await api.register(campaignsRoutes, { prefix: '/campaigns' });
      await api.register(phoneNumbersRoutes, { prefix: '/phone-numbers' });
      await api.register(contactsRoutes, { prefix: '/contacts' });
      await api.register(callsRoutes, { prefix: '/calls' });
      await api.register(simInboundRoutes, { prefix: '/voice' });
      await api.register(dialerRoutes);
      await api.register(importsRoutes, { prefix: '/contacts' });
      await api.register(contactIntegrationsRoutes, { prefix: '/integrations/contact-creation' });
      await api.register(webhooksRoutes, { prefix: '/integrations/webhooks' });
      await api.register(analyticsRoutes, { prefix: '/analytics' });
      await api.register(assistantsRoutes, { prefix: '/assistants' });
      await api.register(voiceConnectionsRoutes, { prefix: '/voice-connections' });
      await api.register(auditRoutes, { prefix: '/audit-events' });
      await api.register(complianceSettingsRoutes, { prefix: '/compliance' });
      await api.register(suppressionsRoutes, { prefix: '/suppressions' });
      await api.register(messagesRoutes, { prefix: '/messages' });
      await api.register(messageJobsRoutes, { prefix: '/message-jobs' });
      await api.register(contactTimelineRoutes, { prefix: '/contacts' });
      await api.register(campaignMessagingRoutes, { prefix: '/campaigns' });
      await api.register(liveRoutes, { prefix: '/live' });
      await api.register(campaignProtectionRoutes, { prefix: '/campaigns' });
      await api.register(campaignPrivacyRoutes, { prefix: '/campaigns' });
      await api.register(privacySettingsRoutes, { prefix: '/privacy' });
      await api.register(campaignRedactionRoutes, { prefix: '/campaigns' });
      await api.register(campaignRecordingRoutes, { prefix: '/campaigns' });
      await api.register(redactionSettingsRoutes, { prefix: '/privacy' });
      await api.register(privacyPersonRoutes, { prefix: '/privacy' });
      await api.register(sipTrunksRoutes, { prefix: '/sip-trunks' });
      await api.register(campaignSipTrunkRoutes, { prefix: '/campaigns' });
      await api.register(routeTestRoutes, { prefix: '/campaigns' });
      await api.register(campaignTestScenarioRoutes, { prefix: '/campaigns' });
      await api.register(testScenarioRoutes);
      await api.register(experimentsRoutes, { prefix: '/campaigns' });
      await api.register(campaignScorecardRoutes, { prefix: '/campaigns' });
      await api.register(callScoreRoutes, { prefix: '/calls' });
    },
    { prefix: '/api/v1' },
  );
  // The dashboard at / and its client-side routes; last, so every route above is matched first.
  await app.register(dashboardStatic, options.dashboardDir ? { distDir: options.dashboardDir } : {});
  return app;
}
