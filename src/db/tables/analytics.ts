// Tables added by the analytics migration. Column types follow ./foundation.ts (Json columns take JSON text on write).
export interface AnalyticsTables {}
