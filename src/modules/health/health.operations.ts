import { Type } from 'typebox';

/** The schemas of the probes; hidden from the OpenAPI document (they are for the orchestrator, not API clients). */

const Status = Type.Object({ status: Type.String() });

export const Liveness = { hide: true, response: { 200: Status } } as const;

export const Readiness = { hide: true, response: { 200: Status, 503: Status } } as const;
