import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The dashboard's data layer, held against its source text (no browser): pages and components read
 * and write through the query hooks of their domain (`pages/<domain>/queries.ts`), never through the
 * API client; and every route of the one list (`ui/src/routes.ts`) names a page that exists.
 */
const UI = join(import.meta.dirname, '../../ui/src');

function sources(dir: string): string[] {
  return readdirSync(join(UI, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name))
    .map((e) => relative(UI, join(e.parentPath, e.name)));
}

const isQueries = (file: string) => /(^|\/)queries\.ts$/.test(file);
const CALLS_CLIENT = /\bapi\s*\.\s*(GET|POST|PUT|PATCH|DELETE)\b/;
// `import { api } from '../../api/client'`, alone or beside other names (`ApiProblem` is fine).
const IMPORTS_CLIENT = /import\s*\{[^}]*\bapi\b[^}]*\}\s*from\s*'[^']*api\/client'/;
// Reading or changing the cache is the hooks' business too (a component would hold fetch logic).
const USES_QUERY_CLIENT = /\b(useQuery|useMutation|useQueryClient|useQueries|useInfiniteQuery)\s*\(/;

describe('the dashboard\'s pages and components', () => {
  const files = [...sources('pages'), ...sources('components')];

  it('are found (the scan reads the real tree)', () => {
    expect(files).toContain('pages/Campaigns.tsx');
    expect(files.filter(isQueries).length).toBeGreaterThanOrEqual(10);
  });

  it('never call the API client or import it: only a domain\'s queries.ts does', () => {
    const breaches = files.filter((f) => !isQueries(f)).flatMap((file) => {
      const text = readFileSync(join(UI, file), 'utf8');
      return [
        ...(CALLS_CLIENT.test(text) ? [`${file} calls api.<method>`] : []),
        ...(IMPORTS_CLIENT.test(text) ? [`${file} imports api from the client`] : []),
      ];
    });
    expect(breaches).toEqual([]);
  });

  it('use TanStack Query only through the hooks of a queries.ts', () => {
    const breaches = files.filter((f) => !isQueries(f) && USES_QUERY_CLIENT.test(readFileSync(join(UI, f), 'utf8')));
    expect(breaches).toEqual([]);
  });

  it('keep each queries.ts in a domain folder beside its pages', () => {
    const misplaced = files.filter(isQueries).filter((f) => !/^pages\/[a-z-]+\/queries\.ts$/.test(f));
    expect(misplaced).toEqual([]);
  });
});

describe('the one list of routes (ui/src/routes.ts)', () => {
  const routes = readFileSync(join(UI, 'routes.ts'), 'utf8');
  const entries = [...routes.matchAll(/\{ paths: \[([^\]]*)\], load: \(\) => import\('\.\/([^']+)'\)/g)]
    .map((m) => ({ paths: [...m[1]!.matchAll(/'([^']+)'/g)].map((p) => p[1]!), page: m[2]! }));

  it('is read by the router, the preload and the navigation, none of which lists pages of its own', () => {
    expect(entries.length).toBeGreaterThanOrEqual(10);
    const app = readFileSync(join(UI, 'App.tsx'), 'utf8');
    const layout = readFileSync(join(UI, 'components/Layout.tsx'), 'utf8');
    expect(app).toMatch(/from '\.\/routes'/);
    expect(layout).toMatch(/from '\.\.\/routes'/);
    // The router's own routes are only the fallbacks; no page is imported or named outside the list.
    expect([...app.matchAll(/path="([^"]*)"/g)].map((m) => m[1])).toEqual(['/', '*']);
    expect(app).not.toMatch(/import\('\.\/pages\//);
    expect(layout).not.toMatch(/to: '\//);
  });

  it('names a page that exists, with a default export, for every route', () => {
    const missing = entries.filter(({ page }) => {
      const file = [`${page}.tsx`, `${page}.ts`].map((f) => join(UI, f)).find((f) => existsSync(f));
      return !file || !/export default function/.test(readFileSync(file, 'utf8'));
    });
    expect(missing).toEqual([]);
  });

  it('gives every address one page', () => {
    const paths = entries.flatMap((e) => e.paths);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(expect.arrayContaining(['/campaigns', '/campaigns/:id', '/calls/:id', '/compliance/audit', '/account']));
  });
});
