import type { Server } from 'node:http';
import type { Vapi } from '@vapi-ai/server-sdk';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * The fake Vapi's listen sockets (call.monitor.listenUrl, `wss://…/{callId}/listen`): as Vapi's
 * Call Listen, a WebSocket without authentication (listenAuthenticationEnabled is off by default)
 * that sends the call's audio as binary frames of raw PCM, 16-bit little-endian, 16 kHz, two
 * interleaved channels (the customer left, the assistant right), and closes when the call ends.
 * A call that is not in progress, or an unknown one, is refused at the handshake (404).
 * Here the customer speaks a 440 Hz tone and the assistant an 880 Hz one, 20 ms a frame.
 */
export const LISTEN_RATE = 16_000;
export const LISTEN_CHANNELS = 2;
const FRAME_MS = 20;
const SAMPLES_PER_FRAME = (LISTEN_RATE * FRAME_MS) / 1000;

export interface ListenSockets {
  /** How many listen sockets each call had opened, and how many of them are open now, by Vapi call id. */
  opened: Map<string, number>;
  open: Map<string, number>;
  close(): void;
}

export function attachVapiListen(server: Server, callOf: (id: string) => Vapi.Call | undefined): ListenSockets {
  const wss = new WebSocketServer({ noServer: true });
  const opened = new Map<string, number>();
  const open = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  server.on('upgrade', (req, socket, head) => {
    const match = /^\/([^/]+)\/listen$/.exec(new URL(req.url ?? '/', 'http://fake').pathname);
    const call = match ? callOf(match[1]!) : undefined;
    if (!call || call.status !== 'in-progress') {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      opened.set(call.id, (opened.get(call.id) ?? 0) + 1);
      open.set(call.id, (open.get(call.id) ?? 0) + 1);
      stream(ws, call);
    });
  });

  function stream(ws: WebSocket, call: Vapi.Call) {
    let sample = 0;
    const timer = setInterval(() => {
      if (call.status !== 'in-progress') {
        ws.close(1000, 'call ended');
        return;
      }
      const frame = Buffer.alloc(SAMPLES_PER_FRAME * LISTEN_CHANNELS * 2);
      for (let i = 0; i < SAMPLES_PER_FRAME; i++, sample++) {
        const t = sample / LISTEN_RATE;
        frame.writeInt16LE(Math.round(8000 * Math.sin(2 * Math.PI * 440 * t)), i * 4);
        frame.writeInt16LE(Math.round(6000 * Math.sin(2 * Math.PI * 880 * t)), i * 4 + 2);
      }
      ws.send(frame, { binary: true });
    }, FRAME_MS);
    timers.add(timer);
    ws.on('close', () => {
      open.set(call.id, open.get(call.id)! - 1);
      clearInterval(timer);
      timers.delete(timer);
    });
  }

  return {
    opened,
    open,
    close() {
      for (const timer of timers) clearInterval(timer);
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
