import { HttpError, unprocessable } from '../../http/errors.ts';

/**
 * What a failed CSV upload answers: the parser's complaints (codes CSV_*, including a file that
 * is not text) are 422 on the file, an upload past its size limit 413; anything else is the
 * service's own error and is rethrown as it is. Contact and suppression imports share it.
 */
export function csvUploadError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  const e = error as { code?: string; statusCode?: number; message?: string };
  if (e.statusCode === 413) return new HttpError(413, e.message ?? 'File too large');
  if (typeof e.code === 'string' && e.code.startsWith('CSV_')) return unprocessable(['body', 'file'], `Not a readable CSV file: ${e.message}`, 'csv_invalid');
  return error;
}
