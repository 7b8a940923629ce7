import { Type } from 'typebox';

/** Ids in paths and filters: bounded so a huge number is a 422 or a 404, never a database error. */
export const RowId = Type.Integer({ minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
export const RowIdParams = Type.Object({ id: RowId });

