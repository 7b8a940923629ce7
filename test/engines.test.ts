import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * The README promises Node.js 20 (package.json engines: the oldest supported version). Every
 * installed package must run there: packages whose newest major needs Node 22 are pinned to the
 * last one that does not (`npm ci` warned EBADENGINE for content-disposition@3 and cookie@2).
 */
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }> };

describe('supported Node.js', () => {
  it('installs nothing that refuses the oldest Node.js the README promises', () => {
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    expect(semver.major(oldest)).toBe(20);
    const refusing = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && p.engines && !Array.isArray(p.engines) && p.engines.node)
      .filter(([, p]) => !semver.satisfies(oldest, (p.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} needs node ${(p.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });
});
