import { createHash, randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/**
 * A minimal SIP user agent client over UDP (RFC 3261), for the fakes' SIP side (issue 29): what a
 * vendor does when it dials a customer's trunk. One INVITE to `target`; a 401/407 challenge is
 * answered once with digest credentials (RFC 2617, MD5, with or without qop=auth); a final
 * refusal is ACKed; a 200 is ACKed and hung up with BYE. Resolves with the final status code
 * (408 when nothing final came in time). Enough for sipp as the far end, not a SIP stack.
 */
export interface SipInvite {
  target: { host: string; port: number };
  /** The Request-URI: sip:+1415...@trunk.example.com (as the vendor dials it). */
  uri: string;
  from: string;
  auth?: { username: string; password: string } | null;
  timeoutMs?: number;
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const token = () => randomBytes(6).toString('hex');

interface Response { code: number; headers: Map<string, string[]>; raw: string }

function parse(raw: string): Response | null {
  const [head] = raw.split('\r\n\r\n');
  const lines = head!.split('\r\n');
  const m = /^SIP\/2\.0 (\d{3})/.exec(lines[0] ?? '');
  if (!m) return null;
  const headers = new Map<string, string[]>();
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':');
    if (i <= 0) continue;
    const name = line.slice(0, i).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(i + 1).trim()]);
  }
  return { code: Number(m[1]), headers, raw };
}

function digest(challenge: string, method: string, uri: string, auth: { username: string; password: string }): string {
  const param = (name: string) => new RegExp(`${name}="?([^",]+)"?`, 'i').exec(challenge)?.[1];
  const realm = param('realm') ?? '';
  const nonce = param('nonce') ?? '';
  const qop = param('qop')?.split(',').map((q) => q.trim()).includes('auth') ? 'auth' : null;
  const opaque = param('opaque');
  const ha1 = md5(`${auth.username}:${realm}:${auth.password}`);
  const ha2 = md5(`${method}:${uri}`);
  const cnonce = token();
  const nc = '00000001';
  const response = qop ? md5(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5(`${ha1}:${nonce}:${ha2}`);
  return `Digest username="${auth.username}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=MD5`
    + (qop ? `, qop=${qop}, nc=${nc}, cnonce="${cnonce}"` : '') + (opaque ? `, opaque="${opaque}"` : '');
}

export async function sipInvite(invite: SipInvite): Promise<number> {
  const socket: Socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const local = `127.0.0.1:${socket.address().port}`;
  const callId = `${token()}@fake-vendor`;
  const fromTag = token();
  const send = (text: string) => socket.send(Buffer.from(text), invite.target.port, invite.target.host);
  const sdp = `v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 40000 RTP/AVP 0\r\na=rtpmap:0 PCMU/8000\r\n`;
  let cseq = 1;
  let branch = `z9hG4bK${token()}`;
  const request = (method: string, uri: string, extra: string[], toTag = '', body = '') => [
    `${method} ${uri} SIP/2.0`, `Via: SIP/2.0/UDP ${local};branch=${branch};rport`, 'Max-Forwards: 70',
    `From: <sip:${invite.from}@fake-vendor.invalid>;tag=${fromTag}`, `To: <${invite.uri}>${toTag ? `;tag=${toTag}` : ''}`,
    `Call-ID: ${callId}`, `CSeq: ${cseq} ${method}`, `Contact: <sip:vendor@${local}>`, ...extra,
    ...(body ? ['Content-Type: application/sdp'] : []), `Content-Length: ${Buffer.byteLength(body)}`, '', body,
  ].join('\r\n');
  const toTagOf = (r: Response) => /;tag=([^;>\s]+)/.exec(r.headers.get('to')?.[0] ?? '')?.[1] ?? '';

  return new Promise<number>((resolve) => {
    let authorized = false;
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // A moment for the last ACK/BYE datagram to leave before the socket closes.
      setTimeout(() => socket.close(), 50);
      resolve(code);
    };
    const timer = setTimeout(() => finish(408), invite.timeoutMs ?? 5000);
    const sendInvite = (extra: string[]) => send(request('INVITE', invite.uri, extra, '', sdp));
    socket.on('message', (msg) => {
      const r = parse(msg.toString('utf8'));
      if (!r || done) return;
      const method = /\d+ (\w+)/.exec(r.headers.get('cseq')?.[0] ?? '')?.[1];
      if (method === 'BYE') return finish(200);
      if (method !== 'INVITE' || r.code < 200) return;
      if (r.code >= 300) {
        // A final refusal is ACKed on the INVITE's own transaction (same branch and CSeq).
        send(request('ACK', invite.uri, [], toTagOf(r)));
        const challenge = r.code === 401 ? r.headers.get('www-authenticate')?.[0] : r.code === 407 ? r.headers.get('proxy-authenticate')?.[0] : undefined;
        if (challenge && invite.auth && !authorized) {
          authorized = true;
          cseq++;
          branch = `z9hG4bK${token()}`;
          return sendInvite([`${r.code === 401 ? 'Authorization' : 'Proxy-Authorization'}: ${digest(challenge, 'INVITE', invite.uri, invite.auth)}`]);
        }
        return finish(r.code);
      }
      // 200: ACK (a new transaction), then hang up; the BYE's answer ends it.
      const toTag = toTagOf(r);
      branch = `z9hG4bK${token()}`;
      send(request('ACK', invite.uri, [], toTag));
      cseq++;
      branch = `z9hG4bK${token()}`;
      send(request('BYE', invite.uri, [], toTag));
    });
    sendInvite([]);
  });
}
