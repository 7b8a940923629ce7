import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Debian's sipp (package sip-tester) as the far end of a customer's trunk (issue 29): a UAS on
 * 127.0.0.1 that, with `auth`, challenges each INVITE with 401 and checks the digest answer
 * (verifyauth: 403 when it does not match), then answers `code` (200: waits for the ACK and the
 * BYE; a refusal: waits for the ACK).
 */
export const SIPP = '/usr/bin/sipp';
export const sippPresent = () => spawnSync(SIPP, ['-v']).error === undefined;

const reply = (status: string, extra = '', sdp = false) => `
  <send><![CDATA[
SIP/2.0 ${status}
[last_Via:]
[last_From:]
[last_To:];tag=[pid]SIPpTag01[call_number]
[last_Call-ID:]
[last_CSeq:]
Contact: <sip:[local_ip]:[local_port];transport=[transport]>${extra}
${sdp ? 'Content-Type: application/sdp\nContent-Length: [len]\n\nv=0\no=- 1 1 IN IP4 [local_ip]\ns=-\nc=IN IP4 [local_ip]\nt=0 0\nm=audio 40002 RTP/AVP 0\n' : 'Content-Length: 0\n'}
]]></send>`;

function scenario(code: number, auth: { username: string; password: string } | null): string {
  const final = code === 200
    ? `${reply('200 OK', '', true)}\n  <recv request="ACK"/>\n  <recv request="BYE"/>\n${reply('200 OK')}`
    : `${reply(`${code} Refused`)}\n  <recv request="ACK"/>`;
  const challenge = auth ? `
  <recv request="INVITE"/>
${reply('401 Unauthorized', '\nWWW-Authenticate: Digest realm="trunk", nonce="8ac1f0d2b1c3"')}
  <recv request="ACK"/>
  <recv request="INVITE">
    <action><verifyauth assign_to="authvalid" username="${auth.username}" password="${auth.password}"/></action>
  </recv>
  <nop hide="true" test="authvalid" next="good"/>
${reply('403 Forbidden')}
  <recv request="ACK" next="end"/>
  <label id="good"/>` : '\n  <recv request="INVITE"/>';
  return `<?xml version="1.0" encoding="ISO-8859-1" ?>\n<scenario name="trunk">${challenge}\n${final}\n  <label id="end"/>\n</scenario>\n`;
}

async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

export interface Sipp { port: number; output(): string; close(): Promise<void> }

export async function startSipp(options: { code: number; auth?: { username: string; password: string } | null }): Promise<Sipp> {
  const dir = mkdtempSync(join(tmpdir(), 'sipp-'));
  const file = join(dir, 'trunk.xml');
  writeFileSync(file, scenario(options.code, options.auth ?? null));
  const port = await freeUdpPort();
  let output = '';
  const child: ChildProcess = spawn(SIPP, ['-sf', file, '-i', '127.0.0.1', '-p', String(port), '-t', 'u1', '-nostdin', '-trace_err', '-error_file', join(dir, 'errors.log')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (d: Buffer) => { output = (output + d.toString()).slice(-4000); });
  child.stderr!.on('data', (d: Buffer) => { output = (output + d.toString()).slice(-4000); });
  // sipp binds its socket at once; a moment for it to be listening.
  await new Promise((resolve) => setTimeout(resolve, 300));
  if (child.exitCode !== null) throw new Error(`sipp exited at once: ${output}`);
  return {
    port,
    output: () => output,
    close: () => new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
