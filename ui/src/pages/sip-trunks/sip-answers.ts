/** The reason phrases of the SIP final answers a trunk gives (RFC 3261 §21 and its extensions). */
const PHRASES: Record<number, string> = {
  200: 'OK', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 407: 'Proxy Authentication Required',
  408: 'Request Timeout', 410: 'Gone', 480: 'Temporarily Unavailable', 484: 'Address Incomplete', 486: 'Busy Here', 487: 'Request Terminated',
  488: 'Not Acceptable Here', 500: 'Server Internal Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Server Time-out',
  600: 'Busy Everywhere', 603: 'Decline', 604: 'Does Not Exist Anywhere',
};

/** "486 Busy Here"; a code without a known phrase is its class ("4xx client error"). */
export function sipAnswer(code: number): string {
  const phrase = PHRASES[code];
  if (phrase) return `${code} ${phrase}`;
  const kind = ({ 2: 'success', 3: 'redirection', 4: 'client error', 5: 'server error', 6: 'global failure' } as Record<number, string>)[Math.floor(code / 100)];
  return kind ? `${code} (${Math.floor(code / 100)}xx ${kind})` : String(code);
}
