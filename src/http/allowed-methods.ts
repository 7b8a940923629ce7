import type { RouteOptions } from 'fastify';

/**
 * Which methods each path answers, so a request with another method on an existing path is a
 * 405 with `Allow` (RFC 9110), not a 404 that says the path does not exist.
 */
export function createAllowedMethods() {
  const routes: { pattern: RegExp; methods: Set<string> }[] = [];
  const byUrl = new Map<string, Set<string>>();
  return {
    /** An onRoute hook: records the route's path pattern and methods. */
    record(route: RouteOptions) {
      if (route.url.includes('*')) return;
      const methods = [route.method].flat().map(String);
      let known = byUrl.get(route.url);
      if (!known) {
        known = new Set();
        byUrl.set(route.url, known);
        const source = route.url.replace(/\/$/, '').split('/').map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/');
        routes.push({ pattern: new RegExp(`^${source}/?$`), methods: known });
      }
      for (const m of methods) known.add(m);
    },
    /** The methods the path answers (with HEAD beside GET), or [] for an unknown path. */
    allowedFor(url: string): string[] {
      const path = url.split('?')[0]!;
      const found = new Set<string>();
      for (const r of routes) if (r.pattern.test(path)) for (const m of r.methods) found.add(m);
      return [...found].sort();
    },
  };
}
