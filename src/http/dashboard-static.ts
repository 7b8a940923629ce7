import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app.ts';

/**
 * The built dashboard (`npm run build:ui` writes ui/dist) served at `/`: index.html for `/` and
 * for every client-side route (a GET path without a file extension outside the service's own
 * prefixes), the files themselves by name. The files are read into memory once, so a request
 * never touches the file system and no URL can name a file outside the directory: a path is
 * looked up in the map of what was read, never joined onto a directory.
 */

// Relative to this file, not the working directory: `voice-campaigns serve` runs from anywhere.
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../ui/dist/', import.meta.url));

// Mantine injects <style> elements at run time, hence 'unsafe-inline' for styles (and only there).
// media-src allows http(s): recordings are played from the voice vendor's storage.
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' https: http: blob:",
  "connect-src 'self'",
  "font-src 'self' data:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

export const NOT_BUILT_MESSAGE = 'The dashboard is not built. Run `npm run build:ui` (npm ci does it), then reload this page. The API is at /api/v1 and its reference at /docs.\n';

// Paths of the service itself: never a client-side route, so an unknown one stays a JSON 404.
const SERVICE_PREFIXES = ['/api', '/docs', '/metrics', '/healthz', '/readyz'];
const HASHED_ASSETS = 'assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};
// Worth compressing: text. Images and fonts are compressed already.
const COMPRESSIBLE = /^(text\/|application\/(json|manifest\+json|wasm)|image\/svg\+xml)/;

interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  contentType: string;
  cacheControl: string;
  html: boolean;
}

/** Every file under dir, keyed by its path relative to dir with `/` separators; null when index.html is missing. */
export function loadDashboard(dir: string): Map<string, StaticFile> | null {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const files = new Map<string, StaticFile>();
  const walk = (sub: string) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const relative = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(relative);
      else if (entry.isFile() || (entry.isSymbolicLink() && statSync(path.join(dir, relative)).isFile())) {
        const body = readFileSync(path.join(dir, relative));
        const contentType = CONTENT_TYPES[path.extname(entry.name).toLowerCase()] ?? 'application/octet-stream';
        const gzip = COMPRESSIBLE.test(contentType) && body.length > 1024 ? gzipSync(body, { level: 9 }) : null;
        files.set(relative, {
          body,
          gzip: gzip && gzip.length < body.length ? gzip : null,
          contentType,
          // Hashed names change with their content; everything else (index.html first) is revalidated.
          cacheControl: relative.startsWith(HASHED_ASSETS) ? IMMUTABLE : 'no-cache',
          html: contentType.startsWith('text/html'),
        });
      }
    }
  };
  walk('');
  return files;
}

/**
 * What /favicon.ico answers: browsers and tools ask for it whatever the page links. The dashboard's
 * icon is a hashed SVG (index.html links it); served here as it is, revalidated rather than
 * immutable since this name does not change with it. A build without one: 204, never a 404.
 */
function faviconOf(files: Map<string, StaticFile>): StaticFile | undefined {
  for (const [key, file] of files) {
    if (/^assets\/favicon-[\w-]+\.svg$/.test(key)) return { ...file, cacheControl: 'no-cache' };
  }
  return undefined;
}

const isServicePath = (pathname: string) => SERVICE_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`));

/** The file a path names, as a key of the map; null for a path that cannot name one (`..`, NUL, backslash, bad escapes). */
function fileKey(pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const segments = decoded.split('/').filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..' || s.includes('\\') || s.includes('\0'))) return null;
  return segments.join('/');
}

export async function dashboardStatic(app: App, options: { distDir?: string }) {
  const dir = options.distDir ?? DEFAULT_DASHBOARD_DIR;
  let files = loadDashboard(dir);
  // Built after the service started (npm run build:ui in another terminal): picked up on the next page load.
  const current = () => (files ??= loadDashboard(dir));

  const send = (request: FastifyRequest, reply: FastifyReply, file: StaticFile) => {
    reply.header('content-type', file.contentType).header('cache-control', file.cacheControl).header('x-content-type-options', 'nosniff');
    if (file.html) reply.header('content-security-policy', DASHBOARD_CSP).header('referrer-policy', 'same-origin');
    if (file.gzip) {
      reply.header('vary', 'Accept-Encoding');
      if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.header('content-encoding', 'gzip').send(file.gzip);
    }
    return reply.send(file.body);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0]!;
    if (isServicePath(pathname)) return reply.callNotFound();
    const key = fileKey(pathname);
    if (key === null) return reply.callNotFound();
    const clientRoute = !path.posix.extname(key);
    const loaded = current();
    if (!loaded) {
      if (!clientRoute) return reply.callNotFound();
      return reply.code(503).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send(NOT_BUILT_MESSAGE);
    }
    const file = loaded.get(key) ?? (clientRoute ? loaded.get('index.html') : key === 'favicon.ico' ? faviconOf(loaded) : undefined);
    if (key === 'favicon.ico' && !file) return reply.code(204).header('cache-control', 'no-cache').send();
    if (!file) return reply.callNotFound();
    return send(request, reply, file);
  };

  app.get('/', { schema: { hide: true } }, handler);
  app.get('/*', { schema: { hide: true } }, handler);
}
