import type { operations } from './schema';

/**
 * The API's own shapes, named by operationId and read from the generated schema, so a page never
 * copies a shape by hand (a copy drifts from the API without a compiler error). A JSON answer of
 * the API is a 200, or a 202 for work that goes on after the answer (a run, a test call).
 */
type Content<T, Media extends string> = T extends { content: { [M in Media]: infer B } } ? B : never;

/** What an operation answers with on success. */
export type Answer<Op extends keyof operations> = operations[Op]['responses'] extends { 200: infer R } ? Content<R, 'application/json'>
  : operations[Op]['responses'] extends { 202: infer R } ? Content<R, 'application/json'> : never;

/** The JSON body an operation takes. */
export type Body<Op extends keyof operations> = operations[Op] extends { requestBody?: infer R } ? Content<NonNullable<R>, 'application/json'> : never;

/** The fields of a multipart upload an operation takes. */
export type Form<Op extends keyof operations> = operations[Op] extends { requestBody?: infer R } ? Content<NonNullable<R>, 'multipart/form-data'> : never;

/** The query parameters an operation takes. */
export type Query<Op extends keyof operations> = NonNullable<operations[Op]['parameters']['query']>;
