import type { FoundationTables } from './tables/foundation.ts';
import type { DialerTables } from './tables/dialer.ts';
import type { IntakeTables } from './tables/intake.ts';
import type { WebhooksTables } from './tables/webhooks.ts';
import type { AnalyticsTables } from './tables/analytics.ts';

export type * from './tables/foundation.ts';

/** Kysely's view of every table; each module's tables live in ./tables/<module>.ts. */
export interface Database extends FoundationTables, DialerTables, IntakeTables, WebhooksTables, AnalyticsTables {}
