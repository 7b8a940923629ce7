// Tables added by the intake migration. Column types follow ./foundation.ts (Json columns take JSON text on write).
export interface IntakeTables {}
