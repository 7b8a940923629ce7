/**
 * Names whose values never reach a log: the integration token (`?token=`) and anything named like
 * a secret. A name is compared decoded (every %XX, repeatedly, and + as a space), lower-cased and
 * stripped of everything but letters and digits, so `token[]`, `token%00`, `%74oken`, `TOKEN`,
 * ` token` and `access_token` all match: over-redacting a log line costs nothing, missing one
 * spelling leaked the token in full.
 */
const SECRET_NAME = /token|secret|passw|apikey|signature/;

function decodedName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  for (let i = 0; i < 3 && /%[0-9a-f]{2}/i.test(name); i++) {
    name = name.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export const isSecretName = (raw: string) => SECRET_NAME.test(decodedName(raw));

/**
 * A URL for the log without secret values. Everything after the first `?` or `;` is read as
 * `name=value` fields separated by `&`, `;` or `?` (a superset of how any parser splits a query:
 * `?a=1;token=x` and `?next=/x?token=y` hide a token from one that splits on `&` alone), and the
 * value of each field with a secret name is replaced by `[redacted]`; the rest is kept as sent.
 */
export function redactedUrl(url: string): string {
  const start = url.search(/[?;]/);
  if (start === -1) return url;
  const fields = url.slice(start + 1).split(/([&;?])/);
  let found = false;
  for (let i = 0; i < fields.length; i += 2) {
    const field = fields[i]!;
    const eq = field.indexOf('=');
    const name = eq === -1 ? field : field.slice(0, eq);
    if (!isSecretName(name)) continue;
    fields[i] = `${name}=[redacted]`;
    found = true;
  }
  return found ? `${url.slice(0, start + 1)}${fields.join('')}` : url;
}
