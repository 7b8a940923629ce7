/**
 * The named columns of `values` and nothing else (undefined ones left out, so Kysely leaves
 * them unchanged). A repository writes a caller's object only through this: an object typed
 * `{ name: string }` may hold any other key at run time, and a request body spread into an
 * update once moved an integration into another account (`owner_id`) and failed on unknown
 * keys with a 500.
 */
export function columns<T extends object, const K extends keyof T>(values: T, names: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const name of names) if (values[name] !== undefined) picked[name] = values[name];
  return picked;
}
