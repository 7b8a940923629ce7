/**
 * Just enough XML for TwiML: elements, attributes, text, entities. Anything Twilio would reject as
 * a document (no <Response> root, unclosed tags) parses to null, and the call then ends as Twilio
 * ends it after an application error.
 */
export interface TwimlNode {
  name: string;
  attrs: Record<string, string>;
  children: TwimlNode[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decode = (s: string) => s.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (all, e: string) => {
  if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  return ENTITIES[e] ?? all;
});

export function parseTwiml(xml: string): TwimlNode | null {
  const body = xml.replace(/<\?xml[^>]*\?>/, '').replace(/<!--[\s\S]*?-->/g, '').trim();
  const root: TwimlNode = { name: '#root', attrs: {}, children: [], text: '' };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  let at = 0;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    if (m.index !== at) return null;
    at = tag.lastIndex;
    const top = stack.at(-1)!;
    if (m[5] !== undefined) { top.text += decode(m[5]); continue; }
    const [, closing, name, rawAttrs, selfClosing] = m;
    if (closing) {
      if (top.name !== name || stack.length === 1) return null;
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of (rawAttrs ?? '').matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]!] = decode(a[2] ?? a[3] ?? '');
    const node: TwimlNode = { name: name!, attrs, children: [], text: '' };
    top.children.push(node);
    if (!selfClosing) stack.push(node);
  }
  if (at !== body.length || stack.length !== 1) return null;
  const response = root.children[0];
  return root.children.length === 1 && response?.name === 'Response' ? response : null;
}
