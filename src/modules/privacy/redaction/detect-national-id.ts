/**
 * National identity numbers other than the US SSN, each with its own check, all counted as
 * `ssn` ("national ids such as US SSN") and marked [SSN]:
 * - Spanish DNI, 8 digits and a control letter, and NIE, X/Y/Z, 7 digits and the letter:
 *   the letter is "TRWAGMYFPDXBNJZSQVHLCKE"[number mod 23], so one random string in 23 passes.
 * - French NIR (numéro de sécurité sociale), 13 digits and a 2-digit key = 97 - (number mod 97),
 *   written in groups ("1 85 05 78 006 084 36"); sex 1 or 2 and month 01-12 (or 20-42, 50+,
 *   used for people born abroad) are checked too. Corsica's 2A/2B departments are read as 19/18
 *   for the key, as INSEE does.
 * Not handled: spoken DNI letters ("be" for B), NIRs said in tens ("quatre-vingt-cinq").
 */
import type { DetectorInput, Finding } from './redaction.types.ts';

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';
const DNI = /(?<![A-Za-z\d])([XYZxyz][ -]?)?(\d{7,8})[ -]?([A-Za-z])(?![A-Za-z\d])/g;
/** Sex, year, month, department (2A/2B for Corsica), commune, order, key; spaces between groups. */
const NIR = /(?<![\d])([12])[ .]?(\d{2})[ .]?(\d{2})[ .]?(\d{2}|2[AaBb])[ .]?(\d{3})[ .]?(\d{3})[ .]?(\d{2})(?![\d])/g;

export function validDni(prefix: string, digits: string, letter: string): boolean {
  const nie = prefix.trim().toUpperCase();
  if (nie !== '' && digits.length !== 7) return false;
  if (nie === '' && digits.length !== 8) return false;
  const number = Number(nie === '' ? digits : String('XYZ'.indexOf(nie)) + digits);
  return DNI_LETTERS[number % 23] === letter.toUpperCase();
}

export function validNir(groups: readonly string[]): boolean {
  const [sex, year, month, department, commune, order, key] = groups as [string, string, string, string, string, string, string];
  const monthNumber = Number(month);
  if (!((monthNumber >= 1 && monthNumber <= 12) || (monthNumber >= 20 && monthNumber <= 42) || monthNumber >= 50)) return false;
  const numericDepartment = department.toUpperCase() === '2A' ? '19' : department.toUpperCase() === '2B' ? '18' : department;
  const body = BigInt(sex + year + month + numericDepartment + commune + order);
  return 97n - (body % 97n) === BigInt(key);
}

export function detectNationalIds(input: DetectorInput, out: Finding[]): void {
  const text = input.text;
  DNI.lastIndex = 0;
  for (let match = DNI.exec(text); match !== null; match = DNI.exec(text)) {
    if (validDni(match[1] ?? '', match[2]!, match[3]!)) out.push({ category: 'ssn', start: match.index, end: match.index + match[0].length });
  }
  NIR.lastIndex = 0;
  for (let match = NIR.exec(text); match !== null; match = NIR.exec(text)) {
    if (validNir(match.slice(1))) out.push({ category: 'ssn', start: match.index, end: match.index + match[0].length });
  }
}
