import { writeFileSync } from 'node:fs';
import { servedDocument } from './api-types.ts';

// `npm run openapi -- FILE`: writes the service's OpenAPI document (as served at /api/v1/openapi.json)
// to FILE, or to stdout: for SDK generators, linters and diffs between two commits.
const document = JSON.stringify(await servedDocument(), null, 2);
const file = process.argv[2];
if (file) writeFileSync(file, `${document}\n`);
else process.stdout.write(`${document}\n`);
