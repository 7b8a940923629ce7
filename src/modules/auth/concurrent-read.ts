import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal.ts';

/**
 * A read by id does not depend on who asks: access is decided on the row afterwards.
 * So routes marked `config: { concurrentAuth: true }` run the read while the credential
 * is still being checked, saving one sequential database round trip, and release the
 * row only once the credential is verified (a failed check answers 401 and the row is
 * dropped). The check itself is unchanged: every request still asks the database, so a
 * deleted key fails on the very next request.
 */
export async function readConcurrentlyWithAuth<T>(request: FastifyRequest, read: () => Promise<T>): Promise<[Principal, T]> {
  const [auth, result] = await Promise.allSettled([request.principalPromise, read()]);
  if (auth.status === 'rejected') throw auth.reason;
  request.principal = auth.value;
  if (result.status === 'rejected') throw result.reason;
  return [auth.value, result.value];
}
