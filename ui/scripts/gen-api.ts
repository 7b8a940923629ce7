import { writeFileSync } from 'node:fs';
import { apiTypes, SCHEMA_FILE, servedDocument } from './api-types.ts';

// `npm run gen:api`: regenerates ui/src/api/schema.d.ts from the service's OpenAPI document.
writeFileSync(SCHEMA_FILE, await apiTypes(await servedDocument()));
console.log(`wrote ${SCHEMA_FILE.pathname}`);
