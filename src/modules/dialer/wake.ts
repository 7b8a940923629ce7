import { EventEmitter } from 'node:events';

/**
 * In-process wake-ups for the dialer loop: a contact queued or a slot freed in this
 * process wakes it at once. Other processes are woken by NOTIFY on PostgreSQL and, in
 * any case, by the DIALER_TICK_MS tick.
 */
const wakeups = new EventEmitter();
wakeups.setMaxListeners(0);

export function wakeDialer() {
  wakeups.emit('wake');
}

export function onDialerWake(listener: () => void): () => void {
  wakeups.on('wake', listener);
  return () => wakeups.off('wake', listener);
}

export const DIALER_CHANNEL = 'voice_campaigns_dialer';

