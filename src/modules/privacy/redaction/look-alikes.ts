/**
 * Words that say the number right after them is not personal: an order, invoice, tracking,
 * booking or case number. They only stop detectors that have no checksum of their own
 * (phones, undashed SSNs): a card or IBAN is redacted whatever precedes it. Words that are
 * also speaker labels ("Customer:", "Cliente :", "Client :") are not cues.
 */
const CUE_WINDOW = 40;
const LOOK_ALIKE_CUE = new RegExp(
  '(?:order|invoice|tracking|reference|ref|confirmation|booking|reservation|case|claim|ticket|receipt|parcel|package|serial|policy|' +
    'pedido|factura|seguimiento|referencia|reserva|confirmaci[oó]n|n[uú]mero de caso|env[ií]o|paquete|recibo|expediente|' +
    'commande|facture|suivi|r[ée]f[ée]rence|r[ée]servation|dossier|colis|re[cç]u|sinistre|' +
    'bestellung|bestellnummer|rechnung|sendung|sendungsnummer|buchung|reservierung|auftrag|kundennummer|vertragsnummer|vorgang)' +
    '(?:\\s*(?:number|num|no\\.?|nr\\.?|#|code|id|n[uú]mero|num[ée]ro|c[oó]digo|n[ºo°]\\.?|nummer))?' +
    "(?:\\s*(?:is|was|es|est|ist|c'est|:|de|du|el|la|le|the))*\\s*[:#]?\\s*$",
  'i',
);

/** True when a look-alike cue ends just before `start`. */
export function lookAlikeCueBefore(text: string, start: number): boolean {
  return LOOK_ALIKE_CUE.test(text.slice(Math.max(0, start - CUE_WINDOW), start));
}
