import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import type { Config } from './config.ts';
import { openDatabase, type DatabaseHandle, type Db } from './db/connection.ts';
import type { EmbeddedServer } from './db/embedded/embedded-server.ts';
import { createAccessTokenService, type AccessTokenService } from './modules/auth/access-token.ts';
import { createAuthRepository, type AuthRepository } from './modules/auth/auth.repository.ts';
import { systemClock, type Clock } from './shared/clock.ts';
import { createSecretBox, type SecretBox } from './shared/secret-box.ts';
import { createVoiceProvider, createVoiceRegistry, type VoiceRegistry } from './voice/registry.ts';
import { connectionLoader } from './voice/connection-loader.ts';
import type { CallEvent, DefaultVoiceProvider } from './voice/provider.ts';
import { withAgentConversations } from './modules/agent/conversation-store.ts';
import { openVoiceConnection } from './modules/voice-connections/voice-connections.repository.ts';
import { createExtractor } from './extraction/index.ts';
import type { Extractor } from './extraction/extractor.ts';
import { createMetrics, type Metrics } from './modules/metrics/metrics.ts';
import { createDialerWake, type DialerWake } from './modules/dialer/wake.ts';
import type { CallEventBatchers } from './modules/dialer/call-events/call-events.service.ts';
import { createAnalyticsReports, type AnalyticsReports } from './modules/analytics/rollup-compaction.ts';
import { createJobWakes, type JobWakes } from './claim-worker.ts';
import type { TextProvider } from './messaging/text-channel.ts';
import { createSimTextProvider } from './messaging/sim-texts.ts';
import { applyTextStatus } from './modules/messaging/message-status.ts';
import { receiveText } from './modules/messaging/inbound.ts';
import { createLiveFeed, type LiveFeed } from './modules/live/live-feed.ts';
import { CallAudioHub } from './modules/live/listen/call-audio-hub.ts';
import { createMediaBridge, type MediaBridge } from './modules/live/listen/media-bridge.ts';

/**
 * Everything the app and the workers need, chosen once from the config. Tests build
 * the same object around their own database.
 */
export interface Deps {
  config: Config;
  database: DatabaseHandle;
  /** The background pool: workers, the CLI, migrations. */
  db: Db;
  /** HTTP requests' pool: every statement stops after API_STATEMENT_TIMEOUT_MS (PostgreSQL). The app's deps carry it as `db`. */
  requestDb: Db;
  tokens: AccessTokenService;
  authRepo: AuthRepository;
  clock: Clock;
  /** Seals secrets the service must read back (webhook credentials) under SECRET_KEY. */
  secrets: SecretBox;
  /**
   * The voice driver chosen by VOICE_PROVIDER (default: the simulator, whose in-process abilities
   * connectProviderEvents and the dialer worker's resume use; every other path sees a VoiceProvider).
   */
  voice: DefaultVoiceProvider;
  /** Every provider by route (the assistant's provider and voice connection); the default route is `voice`. */
  voices: VoiceRegistry;
  /** Post-call payload extractor: an OpenAI-compatible server when LLM_BASE_URL is set, else offline rules. */
  extractor: Extractor;
  /** Prometheus metrics of this instance (its own registry; served at /metrics with METRICS_TOKEN). */
  metrics: Metrics;
  /** Wakes this process's dialer loop (a contact queued, a call ended). */
  dialerWake: DialerWake;
  /** Wakes this process's claim-workers by job kind (a request stored a job). */
  jobWakes: JobWakes;
  /** Provider events waiting to be applied together, one group-commit batcher per provider. */
  callEventBatchers: CallEventBatchers;
  /**
   * Completes the end events of calls this service's own agent held (a provider that
   * `runsConversation`) with what the agent recorded: modules/agent, given to the dialer here so
   * the dialer does not import the agent.
   */
  completeAgentCallEnds(events: CallEvent[]): Promise<CallEvent[]>;
  /** The one logger of the process (LOG_LEVEL): the HTTP server's and, as children, every worker's. */
  log: Logger;
  /** The analytics reports' own PostgreSQL connections and background compaction flag. */
  analyticsReports: AnalyticsReports;
  /** Text vendors that need no credentials: the simulator (modules/messaging/text-routes.ts picks a route). */
  texts: { sim: TextProvider };
  /** This process's live stream (modules/live): what committed, handed to the browsers following it. */
  live: LiveFeed;
  /** This process's listeners of vendor media (a Twilio Media Stream), mixed per call. */
  callAudio: CallAudioHub;
  /** Twilio's media for listeners on another process, sent on through PostgreSQL. */
  mediaBridge: MediaBridge;
}

export function depsFromDatabase(config: Config, database: DatabaseHandle, log: Logger = createLogger(config.LOG_LEVEL)): Deps {
  const callAudio = new CallAudioHub();
  const deps: Deps = {
    config,
    database,
    db: database.db,
    requestDb: database.requestDatabase(config.API_STATEMENT_TIMEOUT_MS),
    tokens: createAccessTokenService(config.SECRET_KEY, config.ACCESS_TOKEN_EXPIRE_MINUTES),
    authRepo: createAuthRepository(database.db, database.pool, { prepared: database.kind === 'postgres' }),
    clock: systemClock,
    secrets: createSecretBox(config.SECRET_KEY),
    voice: createVoiceProvider(config, systemClock),
    voices: createVoiceRegistry({
      config,
      clock: { now: () => deps.clock.now() },
      // The registry (src/voice) knows no module: the voice-connections repository is given to it here.
      loadConnection: connectionLoader((id) => openVoiceConnection(deps.db, deps.secrets, id), config),
    }),
    extractor: createExtractor(config),
    metrics: createMetrics({ db: database.db, pool: database.pool, now: () => deps.clock.now() }),
    dialerWake: createDialerWake(),
    jobWakes: createJobWakes(),
    callEventBatchers: new Map(),
    completeAgentCallEnds: (events) => withAgentConversations(deps.db, events),
    log,
    live: createLiveFeed({ db: database.db, database, log }),
    callAudio,
    mediaBridge: createMediaBridge({ hub: callAudio, database, log }),
    analyticsReports: createAnalyticsReports(database, config.REPORT_STATEMENT_TIMEOUT_MS),
    texts: {
      sim: createSimTextProvider({
        clock: { now: () => deps.clock.now() },
        timeScale: config.SIM_TIME_SCALE,
        seed: config.SIM_SEED,
        report: (status) => applyTextStatus(deps.db, status),
        receive: (text) => receiveText(deps, text),
        onError: (error) => deps.log.error({ err: error }, 'simulated text report failed'),
      }),
    },
  };
  return deps;
}

/** Ends what depsFromDatabase opened beside the database (the report connections), then the database. */
export async function closeDeps(deps: Deps): Promise<void> {
  deps.voices.close();
  await deps.live.close();
  await deps.mediaBridge.close();
  await deps.analyticsReports.close();
  await deps.database.close();
}

export async function createDeps(config: Config, options: { joinRunningEmbedded?: boolean; log?: Logger; embeddedServer?: Promise<EmbeddedServer> } = {}): Promise<Deps> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DB_POOL_SIZE,
    joinRunningEmbedded: options.joinRunningEmbedded ?? false,
    ...(options.embeddedServer ? { embeddedServer: options.embeddedServer } : {}),
  });
  return depsFromDatabase(config, database, options.log);
}
