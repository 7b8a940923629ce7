import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiTypes, SCHEMA_FILE } from '../../ui/scripts/api-types.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** The dashboard's API types are generated from the served document: a change to the API without `npm run gen:api` fails here. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

it('ui/src/api/schema.d.ts is the served OpenAPI document, generated (npm run gen:api)', async () => {
  const expected = await apiTypes(t.app.swagger());
  expect(readFileSync(SCHEMA_FILE, 'utf8') === expected, 'ui/src/api/schema.d.ts drifted from the API: run npm run gen:api').toBe(true);
});
