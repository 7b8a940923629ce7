#!/usr/bin/env node
// The voice-campaigns command. The sources are TypeScript, loaded through tsx so
// that a fresh clone runs with `npm ci` and no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
await runCli(process.argv.slice(2));
