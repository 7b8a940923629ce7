// Tables added by the analytics migrations. Column types: ./column-types.ts.
// The rollup tables (0006_analytics_speed) are written only by analytics_compact() and read with raw SQL
// (their 48 hour columns are listed in the migration), so only their keys are typed here.

interface RollupKey {
  owner_id: number;
  campaign_id: number;
  call_type: string | null;
  /** 'd' = one UTC day, 'm' = one UTC month, starting at `period`. */
  grain: string;
  period: string;
}

export interface AnalyticsTables {
  analytics_rollup: RollupKey & { calls: number; duration: number; cost: number };
  analytics_contacts: RollupKey & { chunk: number; bits: string };
  /** Days whose rollup rows may be stale: appended by statement triggers on calls, deleted by analytics_compact(). */
  analytics_dirty: { owner_id: number; day: string };
}
