import { EventEmitter } from 'node:events';
import { CONTACTS_DUE_CHANNEL } from '../contact-lifecycle/queueing.ts';

/**
 * In-process wake-ups for the dialer loop: a contact queued or a slot freed in this
 * process wakes it at once. Other processes are woken by NOTIFY on PostgreSQL and, in
 * any case, by the DIALER_TICK_MS tick. One per Deps (depsFromDatabase), so two apps in
 * one process never wake each other's dialer.
 */
export interface DialerWake {
  wake(): void;
  /** Returns the unsubscribe. */
  onWake(listener: () => void): () => void;
}

export function createDialerWake(): DialerWake {
  const wakeups = new EventEmitter();
  wakeups.setMaxListeners(0);
  return {
    wake: () => void wakeups.emit('wake'),
    onWake(listener) {
      wakeups.on('wake', listener);
      return () => wakeups.off('wake', listener);
    },
  };
}

/** The dialer listens where the lifecycle announces due contacts. */
export const DIALER_CHANNEL = CONTACTS_DUE_CHANNEL;
