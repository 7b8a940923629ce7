// Tables added by the dialer migration. Column types follow ./foundation.ts (Json columns take JSON text on write).
export interface DialerTables {}
