// `npm start` runs this first: builds the dashboard when ui/dist is missing (npm ci builds it too).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

if (!existsSync(new URL('../dist/index.html', import.meta.url))) {
  console.log('Building the dashboard (ui/dist is missing)...');
  const built = spawnSync('npm', ['run', 'build:ui'], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (built.status !== 0) {
    console.error('The dashboard could not be built; the API still starts (/ will say the dashboard is not built).');
  }
}
