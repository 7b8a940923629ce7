/** GET /metrics is hidden from the OpenAPI document: it is for the monitoring system, not API clients. */
export const ReadMetrics = { hide: true } as const;
