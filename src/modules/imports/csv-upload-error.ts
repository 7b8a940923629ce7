import { HttpError, unprocessable } from '../../http/errors.ts';
import { storableExcerpt } from '../../http/json-body.ts';

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

/** The uploaded file's name as it can be stored: a NUL or a lone surrogate in it was a 500 (PostgreSQL refuses them). */
export const uploadFileName = (name: string | undefined): string | null => storableExcerpt(name ?? '', 255) || null;

/**
 * Marks a refused upload's answer `Connection: close`: the rest of its body is never read, so a
 * kept-alive socket would carry it in front of the client's next request (which then hung).
 */
export async function closingOnError<T>(reply: { header(name: string, value: string): unknown }, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    reply.header('connection', 'close');
    throw error;
  }
}
